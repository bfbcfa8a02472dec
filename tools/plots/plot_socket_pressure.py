#!/usr/bin/env python3
"""The ball in its socket, areal against point contact: OUT_AREAL/pressure.png and a summary line.

Reads the polygonal run's last animation frame (its elements: point and penetration u, the
pressure c u) and both runs' time series (the Hertz run's indentation and force), and plots the
pressure against the distance from the socket's axis: the elements, the foundation's closed form
c (delta - r^2 / (2 R*)) at the force carried, and Hertz's p0 sqrt(1 - r^2 / a^2), a = sqrt(R* delta).
Usage: plot_socket_pressure.py OUT_AREAL OUT_HERTZ --foundation-stiffness C --relative-radius R
"""
import argparse
import csv
import math
import sys
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plot_frame import last_instant, read_vtp  # noqa: E402


def last_row(out):
    with open(Path(out) / "time_series.csv", newline="") as f:
        return list(csv.DictReader(f))[-1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("areal")
    p.add_argument("hertz")
    p.add_argument("--foundation-stiffness", type=float, required=True, help="c, N/m^3")
    p.add_argument("--relative-radius", type=float, required=True, help="R*, m")
    p.add_argument("--contact", default="ball-socket")
    a = p.parse_args()
    c, R = a.foundation_stiffness, a.relative_radius
    _, files = last_instant(Path(a.areal) / "animation.pvd")
    elements = read_vtp(files[1])
    points, u = elements["Points"], elements["indentation"][:, 0]
    r = np.hypot(points[:, 0], points[:, 1])
    areal, hertz = last_row(a.areal), last_row(a.hertz)
    force = float(areal[a.contact + "_normal_force"])
    area = float(areal[a.contact + "_area"])
    delta = math.sqrt(force / (math.pi * c * R))  # the foundation's closed form at that force
    d_h, f_h = float(hertz[a.contact + "_indentation"]), float(hertz[a.contact + "_normal_force"])
    a_h = math.sqrt(R * d_h)
    p0 = 3 * f_h / (2 * math.pi * a_h * a_h)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(1e3 * r, 1e-6 * c * u, ".", ms=3, color="tab:blue", label=f"polygonal: {len(u)} elements, c u")
    rr = np.linspace(0, max(a_h, math.sqrt(2 * R * delta)) * 1.05, 300)
    ax.plot(1e3 * rr, 1e-6 * np.clip(c * (delta - rr * rr / (2 * R)), 0, None), color="tab:blue",
            label="elastic foundation, closed form")
    ax.plot(1e3 * rr, 1e-6 * p0 * np.sqrt(np.clip(1 - (rr / a_h) ** 2, 0, None)), color="tab:red",
            label="Hertz (point contact run)")
    ax.set_xlabel("distance from the socket's axis, mm")
    ax.set_ylabel("pressure, MPa")
    ax.set_title(f"ball in socket, {force:.0f} N: contact area {1e6 * area:.0f} mm² (polygonal), "
                 f"{1e6 * math.pi * a_h * a_h:.0f} mm² (Hertz)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(Path(a.areal) / "pressure.png", dpi=110)
    print(f"polygonal: {force:.1f} N on {1e6 * area:.0f} mm^2, {len(u)} elements, peak {1e-6 * c * u.max():.3f} MPa; "
          f"closed form {1e6 * math.pi * 2 * R * delta:.0f} mm^2, peak {1e-6 * c * delta:.3f} MPa; "
          f"Hertz: {f_h:.1f} N, indentation {1e6 * d_h:.1f} um, a = {1e3 * a_h:.1f} mm, "
          f"{1e6 * math.pi * a_h * a_h:.0f} mm^2, peak {1e-6 * p0:.3f} MPa")


if __name__ == "__main__":
    main()
