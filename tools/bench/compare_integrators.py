#!/usr/bin/env python3
"""Every primitive scene (samples/primitive_scenes/) under every integrator, side by side.

For each scene and integrator: accepted steps, right-hand sides, integrator failures (error-test
and convergence failures), CPU seconds and the agreement with the scene's closed form or balance:
the bearing's orbit rate against w_i r_i / (r_i + r_o), the stairs' and billiard's energy balance
(mechanical + dissipated against the initial energy). The fixed-step methods run at STEP.
Prints a Markdown table (docs/demo.md, "Integrators compared").

Usage: compare_integrators.py PATH/TO/surfdb [--step 1e-5] [--scenes billiard,bearing,...]
"""
import argparse
import csv
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

SCENES = Path(__file__).resolve().parents[2] / "samples" / "primitive_scenes"
INTEGRATORS = ["adams", "bdf", "dormand_prince", "ab4", "rk4"]
ORBIT = 100 * 0.020 / (0.020 + 0.029998)  # rad/s, bearing.toml: w_i r_i / (r_i + r_o)


def orbit_rate(outdir):
    """Ball 0's mean orbit rate about z over the second half of the run, rad/s."""
    with open(outdir / "time_series.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    angle, unwrapped = None, []
    for r in rows:
        a = math.atan2(float(r["ball0_y"]), float(r["ball0_x"]))
        angle = a if angle is None else angle + math.remainder(a - angle, 2 * math.pi)
        unwrapped.append(angle)
    half = len(rows) // 2
    return (unwrapped[-1] - unwrapped[half]) / (float(rows[-1]["t"]) - float(rows[half]["t"]))


def agreement(scene, outdir, summary):
    if summary["energy"]["final"] is None:  # not a number: the state went to infinity
        return "diverged"
    if scene == "bearing":
        return f"orbit {orbit_rate(outdir):.4f} rad/s ({orbit_rate(outdir) / ORBIT - 1:+.1e})"
    if scene == "bearing_axial":
        return f"orbit {orbit_rate(outdir):.4f} rad/s (no closed form)"
    return f"energy balance {summary['energy']['drift_relative']:.1e}"


def run(surfdb, scene, integrator, step, outdir):
    command = [surfdb, "simulate", str(SCENES / f"{scene}.toml"), "-o", str(outdir), "--no-plots", "-q",
               "--set", f"simulation.integrator={integrator}", "--set", f"simulation.step={step}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    return json.loads((outdir / "summary.json").read_text()), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("surfdb")
    parser.add_argument("--step", type=float, default=1e-5, help="the fixed-step methods' step, s")
    parser.add_argument("--scenes", default="billiard,bearing,bearing_axial,stairs")
    args = parser.parse_args()
    print("| scene (simulated) | integrator | steps | right-hand sides | failures | CPU s | agreement |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for scene in args.scenes.split(","):
            for integrator in INTEGRATORS:
                outdir = Path(tmp) / f"{scene}_{integrator}"
                summary, error = run(args.surfdb, scene, integrator, args.step, outdir)
                label = integrator + (f" {args.step:g} s" if integrator in ("ab4", "rk4") else "")
                if error:
                    print(f"| {scene} | {label} | – | – | – | – | failed: {error} |")
                else:
                    print(f"| {scene} ({summary['end_time']:g} s) | {label} | {summary['steps']} | "
                          f"{summary['rhs_evaluations']} | {summary['integrator_failures']} | "
                          f"{summary['cpu_seconds']:.2f} | {agreement(scene, outdir, summary)} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
