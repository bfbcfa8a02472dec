#!/usr/bin/env python3
"""Plots of a `surfdb simulate` run, like Figs 11-15 of Machado, Flores and Ambrósio (2014), from OUTDIR/time_series.csv.

For each contact pair: contact points in the xy and xz planes, indentation against time, normal
force against indentation (for at most MAX_CONTACT_PLOTS pairs); the trajectory of every body
named 'ball' (at most MAX_TRAJECTORIES), else all bodies' centres in one top and one side view;
the normal force of every contact in one plot when there are several; the energy balance.
Usage: plot_simulation.py OUTDIR
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAX_TRAJECTORIES = 6  # per-body trajectory plots drawn at most
MAX_CONTACT_PLOTS = 6  # contacts with their own plots; beyond, only the plot of all forces


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0]} if rows else {}


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(outdir):
    outdir = Path(outdir)
    data = read(outdir / "time_series.csv")
    if not data:
        return
    t = data["t"]
    contacts = sorted({k[: -len("_indentation")] for k in data if k.endswith("_indentation")})
    plot_energy(data, outdir)
    plot_all_forces(data, outdir)
    for c in contacts[:MAX_CONTACT_PLOTS]:
        touching = [i for i, v in enumerate(data[c + "_touching"]) if v > 0]
        mm = lambda key: [1e3 * data[key][i] for i in touching]  # noqa: E731
        for a, b in (("x", "y"), ("x", "z")):
            fig, ax = plt.subplots(figsize=(6, 4.5))
            ax.plot(mm(f"{c}_point_i_{a}"), mm(f"{c}_point_i_{b}"), ".", ms=2, label="on surface i")
            ax.plot(mm(f"{c}_point_j_{a}"), mm(f"{c}_point_j_{b}"), ".", ms=2, label="on surface j")
            ax.set_xlabel(f"{a} (mm)")
            ax.set_ylabel(f"{b} (mm)")
            ax.set_title(f"{c}: contact points, {a}{b} plane")
            ax.legend()
            save(fig, outdir / f"{c}_contact_points_{a}{b}.png")
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(t, [1e6 * v for v in data[c + "_indentation"]], lw=0.8)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("indentation (µm)")
        ax.set_title(f"{c}: indentation")
        save(fig, outdir / f"{c}_indentation.png")
        fig, ax = plt.subplots(figsize=(6, 4.5))
        ax.plot([1e6 * data[c + "_indentation"][i] for i in touching], [data[c + "_normal_force"][i] for i in touching], lw=0.8)
        ax.set_xlabel("indentation (µm)")
        ax.set_ylabel("normal force (N)")
        ax.set_title(f"{c}: force against indentation")
        save(fig, outdir / f"{c}_force_indentation.png")
    derived = ("_point_", "_force_", "_torque_", "_reaction_")  # contact and joint columns
    balls = sorted({k[:-2] for k in data if k.endswith("_x") and "ball" in k and not any(d in k for d in derived)})
    if len(balls) > MAX_TRAJECTORIES:
        balls = []
    if not balls:
        plot_all_trajectories(data, outdir)
    for c in sorted({k[: -len("_pairs")] for k in data if k.endswith("_pairs")}):  # groups of pairs
        fig, (points, force) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        points.plot(data["t"], data[c + "_points"], lw=0.8)
        points.set_ylabel("contact points")
        force.plot(data["t"], data[c + "_normal_force"], lw=0.8)
        force.set_ylabel("normal force, summed (N)")
        force.set_xlabel("t (s)")
        fig.suptitle(f"{c}: contact points and force over the group's pairs")
        save(fig, outdir / f"{c}_points_force.png")
    for body in balls:
        fig, (xy, xz) = plt.subplots(1, 2, figsize=(10, 4.5))
        x, y, z = ([1e3 * v for v in data[f"{body}_{a}"]] for a in "xyz")
        xy.plot(x, y, lw=0.8)
        xy.set_xlabel("x (mm)")
        xy.set_ylabel("y (mm)")
        xz.plot(x, z, lw=0.8)
        xz.set_xlabel("x (mm)")
        xz.set_ylabel("z (mm)")
        fig.suptitle(f"{body}: trajectory of the centre")
        save(fig, outdir / f"{body}_trajectory.png")


def bodies(data):
    """The bodies of the time series: the names before _x, _y, _z that no contact or joint column has."""
    derived = ("_point_", "_force_", "_torque_", "_reaction_")
    return sorted({k[:-2] for k in data if k.endswith("_x") and not any(d in k for d in derived)})


def plot_all_trajectories(data, outdir):
    names = bodies(data)
    if not names:
        return
    fig, (top, side) = plt.subplots(2, 1, figsize=(9, 8))
    for b in names:
        x, y, z = ([1e3 * v for v in data[f"{b}_{a}"]] for a in "xyz")
        top.plot(x, y, lw=0.8, label=b)
        top.plot(x[-1:], y[-1:], "o", ms=3, color=top.lines[-1].get_color())
        side.plot(x, z, lw=0.8)
    top.set_aspect("equal", adjustable="datalim")
    top.set_xlabel("x (mm)")
    top.set_ylabel("y (mm)")
    top.set_title("centres seen from above (dot: final position)")
    side.set_xlabel("x (mm)")
    side.set_ylabel("z (mm)")
    side.set_title("centres seen from the side")
    if len(names) <= 20:
        top.legend(fontsize=6, ncol=4, loc="best")
    save(fig, outdir / "trajectories.png")


def plot_all_forces(data, outdir):
    forces = sorted(k for k in data if k.endswith("_normal_force"))
    if len(forces) < 2:
        return
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for k in forces:
        ax.plot(data["t"], data[k], lw=0.7, label=k[: -len("_normal_force")])
    ax.set_xlabel("t (s)")
    ax.set_ylabel("normal force (N)")
    ax.set_title("normal force of every contact")
    if len(forces) <= 20:
        ax.legend(fontsize=6, ncol=4)
    save(fig, outdir / "contact_forces.png")


def plot_energy(data, outdir):
    if "energy_mechanical" not in data:
        return
    t, mech, lost = data["t"], data["energy_mechanical"], data["energy_dissipated"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(t, mech, lw=0.8, label="mechanical (kinetic + potential + elastic)")
    ax.plot(t, lost, lw=0.8, label="dissipated by contacts")
    ax.plot(t, [m + d for m, d in zip(mech, lost)], lw=0.8, ls="--", label="sum")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("energy (J)")
    ax.set_title("energy balance")
    ax.legend()
    save(fig, outdir / "energy.png")


if __name__ == "__main__":
    main(sys.argv[1])
