"""surfdb: precomputed surface lookup tables for contact in multibody dynamics.

    import numpy as np, surfdb
    cup = surfdb.Database("cup.sdb")              # mapped read-only, shared
    window = cup.binding(window=(5, 7))           # one body's storage window
    q = window.query(np.linspace(0, 1, 1000), np.zeros(1000))
    q.p, q.n, q.valid                             # arrays of shape (1000, 3), (1000, 3), (1000,)
    foot = window.project(np.array([[0.0, 0.0, -45.0]]))

    m = surfdb.Model("scene.toml", set={"contact.ball-cup.stiffness": 4e9})  # a scenario, compiled once
    d = surfdb.Data(m)                            # one run of it: state, contacts, integrator
    surfdb.step(m, d); surfdb.advance(m, d, 0.1)  # the model's own integrator, GIL released
    d.position, d.velocity, d.contacts()          # numpy views of the state; contact points

Lengths of databases and bindings are the file's unit (mm for CAD input); contacts are in SI.
The loops over points run in C++: pass whole arrays, not one point per call.
"""
from typing import NamedTuple

try:
    import numpy as np
except ModuleNotFoundError as e:  # the compiled module needs it too
    raise ImportError("surfdb needs numpy, which this Python (" + __import__("sys").executable + ") lacks: "
                      "apt-get install python3-numpy, or pip install numpy") from e

from ._surfdb import (Binding, BodyState, CadError, Contact, ContactResult, Data, Database, DegenerateGeometry, Error,
                      FormatError, InitialPenetrationError, Model, Mount, ScenarioError, Snapshot, advance, convert,
                      faces, reset, restore, save, simulate, step)

__all__ = ["Binding", "BodyState", "CadError", "Contact", "ContactResult", "Data", "Database", "DegenerateGeometry",
           "Error", "FormatError", "InitialPenetrationError", "Model", "Mount", "Points", "PointsD1", "Projection",
           "STATUS", "ScenarioError", "Snapshot", "advance", "convert", "faces", "reset", "restore", "save", "simulate",
           "step"]

#: Names of the query status codes in Points.status.
STATUS = ("valid", "outside_domain", "invalid_cell")


class Points(NamedTuple):
    """Point and frame at each queried (u, v); arrays shaped like the query, vectors with a last axis of 3."""
    u: np.ndarray  # parameters used: wrapped where periodic, clamped to the domain otherwise
    v: np.ndarray
    p: np.ndarray  # point, file length unit
    n: np.ndarray  # unit normal, out of the material
    t: np.ndarray  # unit tangent
    b: np.ndarray  # unit bitangent, n x t
    k1: np.ndarray  # principal curvatures, 1 / file length unit, convex positive
    k2: np.ndarray
    status: np.ndarray  # uint8 codes, see STATUS
    degenerate: np.ndarray  # bool: a corner's frame is a limit (pole)

    @property
    def valid(self) -> np.ndarray:
        return self.status == 0


class PointsD1(NamedTuple):
    """What a CAD kernel's D1 plus a normal gives, at about half a full query's cost; the same
    values as the Points fields of the same name."""
    u: np.ndarray
    v: np.ndarray
    p: np.ndarray  # point, file length unit
    dp_du: np.ndarray  # partial derivatives of the point over the cell, file length unit per parameter
    dp_dv: np.ndarray
    n: np.ndarray  # unit normal, out of the material
    status: np.ndarray  # uint8 codes, see STATUS

    @property
    def valid(self) -> np.ndarray:
        return self.status == 0


class Projection(NamedTuple):
    """Closest surface points: the Points fields plus the signed distance along n and convergence."""
    u: np.ndarray
    v: np.ndarray
    p: np.ndarray
    n: np.ndarray
    t: np.ndarray
    b: np.ndarray
    k1: np.ndarray
    k2: np.ndarray
    status: np.ndarray
    degenerate: np.ndarray
    distance: np.ndarray  # (x - p) . n, file length unit
    converged: np.ndarray

    @property
    def valid(self) -> np.ndarray:
        return self.status == 0


def _query(self, u, v) -> Points:
    """Point and frame at every (u[k], v[k]); u and v are arrays of one shape, or scalars."""
    return Points(**self.query_arrays(u, v))


def _query_d1(self, u, v) -> PointsD1:
    """Point, first derivatives and unit normal at every (u[k], v[k]), without the frame."""
    return PointsD1(**self.query_d1_arrays(u, v))


def _project(self, points, guess=None) -> Projection:
    """Closest surface points to points[..., 3] (file unit). Each row starts from the previous
    answer, the first from `guess` (u, v) when given, else from a global search."""
    return Projection(**self.project_arrays(points, guess))


Binding.query = _query
Binding.query_d1 = _query_d1
Binding.project = _project
