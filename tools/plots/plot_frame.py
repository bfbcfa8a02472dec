#!/usr/bin/env python3
"""The last frame of a `surfdb simulate --animation` run as OUTDIR/final_frame.png.

A 3-D view of the surfaces' triangles, coloured by body (the ground grey) and shaded by a fixed
light, with the contact points in red and their normal forces as arrows (the largest 15 % of the
scene). The view holds the surfaces but planes, whose patches are cut to it. Bodies are drawn in the order of their index over the ground: a ball inside a cup shows.
Reads OUTDIR/animation.pvd and the last instant's two files itself (VTK XML PolyData, inline
binary arrays: base64 of a UInt64 byte count and the little-endian values): no VTK module needed.
Usage: plot_frame.py OUTDIR
"""
import base64
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

TYPES = {"Float64": "<f8", "Float32": "<f4", "Int32": "<i4", "Int64": "<i8", "UInt64": "<u8"}


def last_instant(pvd):
    """The time (s) and the files of the collection's last instant, part 0 (surfaces) first."""
    sets = ET.parse(pvd).getroot().iter("DataSet")
    rows = [(float(d.get("timestep")), int(d.get("part", 0)), d.get("file")) for d in sets]
    t = max(r[0] for r in rows)
    return t, [pvd.parent / f for _, _, f in sorted(r for r in rows if r[0] == t)]


def read_vtp(path):
    """The piece's arrays by name (Points, connectivity, offsets and the data arrays), as numpy arrays of tuples."""
    root = ET.parse(path).getroot()
    header = np.dtype(TYPES[root.get("header_type", "UInt32")])
    arrays = {}
    for a in root.iter("DataArray"):
        raw = base64.b64decode((a.text or "").strip())
        count = int(np.frombuffer(raw[: header.itemsize], header)[0])
        values = np.frombuffer(raw[header.itemsize : header.itemsize + count], TYPES[a.get("type")])
        arrays[a.get("Name")] = values.reshape(-1, int(a.get("NumberOfComponents", 1)))
    return arrays


def shaded_colours(triangles, body):
    """A colour per triangle: its body's (tab10; the ground grey), darker as it turns from the light."""
    palette = plt.get_cmap("tab10")
    base = np.array([(0.6, 0.6, 0.6, 1.0) if b < 0 else palette(b % 10) for b in body])
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    light = np.array([-0.4, -0.6, 0.7]) / np.linalg.norm([-0.4, -0.6, 0.7])
    intensity = 0.45 + 0.55 * np.abs(normals @ light)
    base[:, :3] *= intensity[:, None]
    return base


def view_box(triangles, surface):
    """The corners of the view: the surfaces' extent with a margin, leaving out planes (their patches,
    two triangles each, are sized for ParaView, far larger than the scene), no side thinner than a
    sixth of the longest."""
    ids, counts = np.unique(surface, return_counts=True)
    bounded = ~np.isin(surface, ids[counts == 2])
    corners = (triangles[bounded] if bounded.any() else triangles).reshape(-1, 3)
    low, high = corners.min(axis=0), corners.max(axis=0)
    centre, half = (low + high) / 2, np.maximum((high - low) / 2 * 1.1, 1e-9)
    half = np.maximum(half, half.max() / 6)
    return centre - half, centre + half


def with_ground(surfaces, ground):
    """The bodies' surfaces and the ground's (part 2, written once) as one mesh."""
    merged = {k: np.concatenate([surfaces[k], ground[k]]) for k in ("Points", "surface", "body")}
    merged["connectivity"] = np.concatenate([surfaces["connectivity"], ground["connectivity"] + len(surfaces["Points"])])
    return merged


def main(outdir):
    outdir = Path(outdir)
    t, files = last_instant(outdir / "animation.pvd")
    surfaces = read_vtp(files[0])
    if len(files) > 2:
        surfaces = with_ground(surfaces, read_vtp(files[2]))
    points = surfaces["Points"]
    triangles = points[surfaces["connectivity"].reshape(-1, 3)]
    low, high = view_box(triangles, surfaces["surface"][:, 0])
    triangles = np.clip(triangles, low, high)  # planes' patches cut to the view
    fig = plt.figure(figsize=(9, 7))
    ax = fig.add_subplot(projection="3d")
    # matplotlib sorts triangles by depth within a collection only: one collection per body, the
    # ground's first, drawn in that order, so that nothing sinks into a large floor patch.
    ax.computed_zorder = False
    body = surfaces["body"][:, 0]
    colours = shaded_colours(triangles, body)
    for b in np.unique(body):
        ax.add_collection3d(Poly3DCollection(triangles[body == b], facecolors=colours[body == b], linewidths=0))
    contacts = read_vtp(files[1]) if len(files) > 1 else {"Points": np.zeros((0, 3))}
    where = contacts["Points"]
    if len(where):
        force = contacts["normal_force"]
        largest = np.linalg.norm(force, axis=1).max()
        scale = 0.15 * (high - low).max() / largest if largest > 0 else 0
        ax.scatter(where[:, 0], where[:, 1], where[:, 2], color="red", s=12, depthshade=False, label="contact points")
        ax.quiver(where[:, 0], where[:, 1], where[:, 2], *(scale * force).T, color="red", linewidth=1)
        ax.legend(loc="upper left")
    for axis, lo, hi in zip("xyz", low, high):
        getattr(ax, f"set_{axis}lim")(lo, hi)
        getattr(ax, f"set_{axis}label")(f"{axis} (m)")
    ax.set_box_aspect(high - low)
    points_word = "contact point" if len(where) == 1 else "contact points"
    ax.set_title(f"t = {t:g} s: {len(body)} triangles, {len(where)} {points_word}")
    fig.tight_layout()
    fig.savefig(outdir / "final_frame.png", dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1])
