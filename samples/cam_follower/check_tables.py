#!/usr/bin/env python3
"""Spot-checks the cam tables against the closed-form profiles between the nodes (four angles per
cell, mid-thickness, theta = u): per table the worst distance from the closed form and its
component across the profile (the shape's error; the rest is a shift along the profile), for the
interpolation `surfdb query` uses (bilinear) and, when the Python module is built beside the
command (build/python), for the contact solver's default (curved).
Usage: check_tables.py SURFDB TABLES_DIR"""
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "plots"))
from cam_law import flat_profile, sphere_profile  # noqa: E402


def bilinear(surfdb, table, theta):
    batch = "".join(f"{u!r} -5\n" for u in theta)
    out = subprocess.run([surfdb, "query", str(table), "--batch", "-"], input=batch, capture_output=True, text=True,
                         check=True)
    rows = np.array([[float(x) for x in line.split(",")] for line in out.stdout.splitlines()[1:]])
    assert np.all(rows[:, 14] == 1), f"{table}: invalid answers"
    return rows[:, 2], rows[:, 3]


def curved(module, table, theta):
    answer = module.Database(str(table)).binding(interpolation="curved").query_arrays(theta, np.full_like(theta, -5.0))
    return answer["p"][:, 0], answer["p"][:, 1]


def report(name, mode, theta, x, y, profile):
    ex, ey = profile(theta)
    (xa, ya), (xb, yb) = profile(theta - 1e-6), profile(theta + 1e-6)
    tx, ty = xb - xa, yb - ya
    dx, dy = x - ex, y - ey
    across = np.abs(dx * ty - dy * tx) / np.hypot(tx, ty)
    print(f"{name} ({mode}): worst |table - closed form| {np.hypot(dx, dy).max():.3e} mm, across the profile "
          f"{across.max():.3e} mm (at theta {theta[np.argmax(across)]:.4f}), mean {across.mean():.3e} mm")


def main(surfdb, tables):
    tables = Path(tables)
    try:
        sys.path.insert(0, str(Path(surfdb).resolve().parents[1] / "python"))
        import surfdb as module
    except ImportError:
        module = None
    for cam, profile in (("flat", flat_profile), ("sphere", sphere_profile)):
        for points in (201, 999):
            table = tables / f"cam_{cam}_{points}.sdb"
            theta = 2 * np.pi * (np.arange(4 * (points - 1)) + 0.5) / (4 * (points - 1))
            report(table.name, "bilinear", theta, *bilinear(surfdb, table, theta), profile)
            if module:
                report(table.name, "curved", theta, *curved(module, table, theta), profile)


if __name__ == "__main__":
    main(*sys.argv[1:3])
