#!/usr/bin/env python3
"""The cam-follower benchmark (samples/cam_follower, issue 18) against its exact law, like Figs. 9-10
of paper 004: for each `surfdb simulate` OUTDIR, the follower's position, velocity and acceleration
over a cam revolution (time_series.csv: t, follower_y, follower_vy, follower_ay) against
s(theta), s'(theta) omega and s''(theta) omega^2 at theta = omega t (constant speed), and their
errors, plotted into OUTDIR/cam_follower.png; then one table row per OUTDIR:
  max |position error| / h, max |velocity error| / max |v|, RMS, 90th percentile and max
|acceleration error| / max |a| (RMS and percentile weighted by time: the rows are dense during
impacts; the percentile is blind to a burst of a few rows, where a variable-step integrator let a
stiff contact ring within its tolerances, and so measures the tables' interpolation), with the
run's steps and CPU seconds (summary.json), when a compliant contact's force first falls to 0 (a row of `*_normal_force`) and
when it first opens (its first impact's end), and any `lift_off_time` in the summary (the constraint's).

Usage: plot_cam_follower.py OUTDIR... (--omega RAD_PER_S | --scenario FILE.toml) [--no-plot]
The scenario gives omega as its `[[driver]]`'s motion [0, omega, 0]. Needs numpy (and matplotlib
for the plots): run with Debian's /usr/bin/python3."""
import argparse
import csv
import json
import sys
import tomllib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cam_law import LIFT, lift  # noqa: E402


def omega_of(scenario):
    with open(scenario, "rb") as f:
        drivers = tomllib.load(f).get("driver", [])
    if len(drivers) != 1 or drivers[0].get("type") != "angle":
        sys.exit(f"{scenario}: expected one [[driver]] of type 'angle'")
    return float(drivers[0]["motion"][1])


def read(outdir):
    with open(Path(outdir) / "time_series.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "follower_vy" not in rows[0]:
        sys.exit(f"{outdir}: time_series.csv lacks follower_y, follower_vy, follower_ay")
    data = {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}
    summary_file = Path(outdir) / "summary.json"
    summary = json.loads(summary_file.read_text()) if summary_file.exists() else {}
    return data, summary


def found(tree, key):
    """Every value of `key` anywhere in the JSON tree."""
    if isinstance(tree, dict):
        return ([tree[key]] if key in tree else []) + [v for x in tree.values() for v in found(x, key)]
    if isinstance(tree, list):
        return [v for x in tree for v in found(x, key)]
    return []


def time_weighted_quantile(x, t, q):
    """The q-quantile of samples x(t), each weighted by the time around it (trapezoid weights)."""
    if len(t) < 2:
        return float(x.max())
    w = np.zeros(len(t))
    w[:-1] += np.diff(t) / 2
    w[1:] += np.diff(t) / 2
    order = np.argsort(x)
    reached = np.cumsum(w[order])
    return float(x[order][np.searchsorted(reached, q * reached[-1])])


def compare(data, omega):
    """The run over one revolution against the exact law, SI units."""
    t = data["t"]
    keep = t <= 2 * np.pi / omega * (1 + 1e-9)
    t = t[keep]
    s, ds, dds = lift(omega * t)
    exact = {"y": data["follower_y"][0] + 1e-3 * s, "vy": 1e-3 * ds * omega, "ay": 1e-3 * dds * omega**2}
    got = {k: data["follower_" + k][keep] for k in exact}
    err = {k: got[k] - exact[k] for k in exact}
    span = t[-1] - t[0]
    rms = np.sqrt(np.trapz(err["ay"] ** 2, t) / span) if span > 0 else 0.0
    p90 = time_weighted_quantile(np.abs(err["ay"]), t, 0.9)
    scale_v, scale_a = np.abs(exact["vy"]).max(), np.abs(exact["ay"]).max()
    row = {"position": np.abs(err["y"]).max() / (1e-3 * LIFT), "velocity": np.abs(err["vy"]).max() / scale_v,
           "acc_rms": rms / scale_a, "acc_p90": p90 / scale_a, "acc_max": np.abs(err["ay"]).max() / scale_a}
    return t, exact, got, err, row


def plot(outdir, t, omega, exact, got, err):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    deg = np.degrees(omega * t)
    fig, axes = plt.subplots(3, 2, figsize=(12, 9), sharex=True)
    for (key, name, unit, scale), (left, right) in zip(
            (("y", "position", "mm", 1e3), ("vy", "velocity", "m/s", 1), ("ay", "acceleration", "m/s²", 1)), axes):
        left.plot(deg, scale * (got[key] - (exact["y"][0] if key == "y" else 0)), lw=1.5, label="simulated")
        left.plot(deg, scale * (exact[key] - (exact["y"][0] if key == "y" else 0)), "k--", lw=0.8, label="exact law")
        left.set_ylabel(f"follower {name} ({unit})")
        right.plot(deg, scale * err[key], lw=0.8)
        right.set_ylabel(f"{name} error ({unit})")
    axes[0][0].legend()
    for ax in axes[-1]:
        ax.set_xlabel("cam angle θ (degrees)")
    fig.suptitle(f"{Path(outdir).name}: follower against the exact law, ω = {omega:g} rad/s")
    fig.tight_layout()
    fig.savefig(Path(outdir) / "cam_follower.png", dpi=110)
    plt.close(fig)


def first_force_zero(data):
    """The first row at which a compliant contact's `*_normal_force`, positive before, is 0: where a
    dissipative law stops pushing (its indentation may take a little longer to close)."""
    for key in sorted(k for k in data if k.endswith("_normal_force")):
        pushing = data[key] > 0
        if pushing.any():
            started = np.argmax(pushing)
            if (~pushing[started:]).any():
                return data["t"][started + np.argmax(~pushing[started:])]
    return None


def first_separation(data, summary):
    """When the contact first opens: the end of the first impact in summary.json (the first accepted
    step apart), else the first row of a `*_touching` column back at 0 after being 1."""
    ends = [i["end"] for c in summary.get("contacts", []) for i in c.get("impacts_detail", [])[:1] if i["end"] is not None]
    if ends:
        return min(ends)
    for key in sorted(k for k in data if k.endswith("_touching")):
        touching = data[key] > 0
        if touching.any():
            started = np.argmax(touching)
            if (~touching[started:]).any():
                return data["t"][started + np.argmax(~touching[started:])]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdirs", nargs="+")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--omega", type=float, help="cam speed, rad/s")
    given.add_argument("--scenario", help="the scenario run, for its driver's speed")
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    omega = args.omega if args.omega is not None else omega_of(args.scenario)
    print(f"{'run':24} {'max|dy|/h':>10} {'max|dv|/max|v|':>15} {'rms|da|/max|a|':>15} {'p90|da|/max|a|':>15} "
          f"{'max|da|/max|a|':>15} "
          f"{'steps':>8} {'CPU s':>7} {'force 0 at':>11} {'separates at':>13} {'lift_off_time':>14}")
    for outdir in args.outdirs:
        data, summary = read(outdir)
        t, exact, got, err, row = compare(data, omega)
        if not args.no_plot:
            plot(outdir, t, omega, exact, got, err)
        zero, sep, lift_off = first_force_zero(data), first_separation(data, summary), found(summary, "lift_off_time")
        print(f"{Path(outdir).name:24} {row['position']:10.3e} {row['velocity']:15.3e} {row['acc_rms']:15.3e} "
              f"{row['acc_p90']:15.3e} {row['acc_max']:15.3e} {summary.get('steps', 0):8d} {summary.get('cpu_seconds', 0):7.2f} "
              f"{'-' if zero is None else f'{zero:.6f}':>11} "
              f"{'-' if sep is None else f'{sep:.6f}':>13} {'-' if not lift_off else str(lift_off[0]):>14}")


if __name__ == "__main__":
    main()
