#!/usr/bin/env python3
"""How much a run's energy balance moves at each impact of its first contact.

Usage: python3 tools/bench/energy_per_impact.py OUTDIR

For each finished impact in OUTDIR/summary.json, dE / E0 is the change of energy_mechanical +
energy_dissipated (OUTDIR/time_series.csv) from the row before the impact's start to the row
after its end, over the initial energy. Prints the count, the mean and standard deviation of
|dE| / E0, the balance at the end and the largest over the run: a conservative law moves it by
round-off at each impact, either sign, so its end value is where that walk ends (docs/demo.md).
"""
import bisect
import csv
import json
import statistics
import sys
from pathlib import Path


def main(outdir):
    outdir = Path(outdir)
    try:
        summary = json.loads((outdir / "summary.json").read_text())
        with open(outdir / "time_series.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError) as e:
        sys.exit(f"energy_per_impact: {outdir}: {e}")
    if not rows or "energy_mechanical" not in rows[0] or not summary.get("contacts"):
        sys.exit(f"energy_per_impact: {outdir}: no energy columns or no contact in this run")
    t = [float(r["t"]) for r in rows]
    energy = [float(r["energy_mechanical"]) + float(r["energy_dissipated"]) for r in rows]
    e0 = abs(summary["energy"]["initial"])
    steps = []
    for impact in summary["contacts"][0]["impacts_detail"]:
        if impact["end"] is None:  # still under way when the run ended: not a whole impact
            continue
        before = max(bisect.bisect_left(t, impact["start"]) - 1, 0)
        after = min(bisect.bisect_right(t, impact["end"]), len(t) - 1)
        steps.append(abs(energy[after] - energy[before]) / e0)
    if not steps:
        sys.exit(f"energy_per_impact: {outdir}: the first contact has no finished impact")
    largest = max(abs(e - e0) / e0 for e in energy)
    print(f"{len(steps)} impacts: |dE| / E0 mean {statistics.mean(steps):.3g}, standard deviation "
          f"{statistics.pstdev(steps):.3g}; balance at the end {summary['energy']['drift_relative']:.3g}, "
          f"largest over the run {largest:.3g}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
