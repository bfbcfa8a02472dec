#!/usr/bin/python3
"""Issue 7's speed check: surfdb's vectorised Python query on one million points against the C++
batch query (bench_batch_query) on the same table and the same points, side by side in one run.

The table is the demonstration cup's inner sphere (samples/slider_crank_cup_ball/cup.step, face 4)
converted through the Python module at 999 x 999. Two sequences: random (u, v) over the face, and
a smooth path a tenth of a cell per point. Best of three for both sides.

Usage: PYTHONPATH=build/python /usr/bin/python3 tools/bench/bench_python_query.py BUILD_DIR RESULTS.txt
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import surfdb

POINTS = 1_000_000


def best_seconds(f, repeats=3):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    build, results = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    lines = []

    def report(text):
        print(text, flush=True)
        lines.append(text)

    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "cup.sdb")
        surfdb.convert(os.path.join(root, "samples/slider_crank_cup_ball/cup.step"), table, face=4)
        db = surfdb.Database(table)
        info = db.info
        (u0, u1), (v0, v1) = info["u_range"], info["v_range"]
        rng = np.random.default_rng(7)
        du = (u1 - u0) / (info["grid"][0] - 1)
        s = np.arange(POINTS) * 0.1 * du
        sequences = {
            "random (u,v) over the face": (rng.uniform(u0, u1, POINTS), rng.uniform(v0, v1, POINTS)),
            "smooth path, 0.1 cell per point": (u0 + np.mod(s, u1 - u0), np.full(POINTS, 0.5 * (v0 + v1))),
        }
        report(f"{POINTS} points per call, {info['grid'][0]} x {info['grid'][1]} table, whole-table binding")
        report(f"{'sequence':36s} {'C++ batch':>12s} {'Python':>12s} {'ratio':>7s}  (target <= 2)")
        for name, (u, v) in sequences.items():
            uv = os.path.join(tmp, "uv.f64")
            np.column_stack([u, v]).astype(np.float64).tofile(uv)
            cpp_ns = float(subprocess.check_output([os.path.join(build, "tools/bench_batch_query"), table, uv]))
            binding = db.binding()
            python_ns = best_seconds(lambda: binding.query(u, v)) / POINTS * 1e9
            report(f"{name:36s} {cpp_ns:9.1f} ns {python_ns:9.1f} ns {python_ns / cpp_ns:6.2f}x")
    os.makedirs(os.path.dirname(os.path.abspath(results)), exist_ok=True)
    with open(results, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
