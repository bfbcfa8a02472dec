#!/usr/bin/python3
"""The cost of one surfdb.step call from Python over the same step in C++ (bench_step), and of
reading the state and contact arrays. The scene is the bouncing ball of
samples/integrators/bouncing_ball.toml at RK4 with a 10 us step, raised 1 m so that it falls freely
throughout: a step of one body, the cheapest there is, so that the call's own cost shows. Best of
three for both sides.

Usage: PYTHONPATH=build/python /usr/bin/python3 tools/bench/bench_python_step.py BUILD_DIR SOURCE_DIR
"""
import os
import subprocess
import sys
import time

import surfdb

STEPS = 20000
SET = {"simulation.integrator": "rk4", "simulation.step": 1e-5, "simulation.end_time": 1.0,
       "body.ball.position": [0.0, 0.0, 1.0]}


def best_seconds(f, repeats=3):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    build, source = sys.argv[1:3]
    scenario = os.path.join(source, "samples/integrators/bouncing_ball.toml")
    sets = [f"{k}={v}" if not isinstance(v, list) else f"{k}=[{', '.join(map(str, v))}]" for k, v in SET.items()]
    out = subprocess.run([os.path.join(build, "tools/bench_step"), scenario, str(STEPS), *sets], check=True,
                         capture_output=True, text=True).stdout
    cpp = float(out.split()[1]) * 1e-9
    model = surfdb.Model(scenario, set=SET)
    data = surfdb.Data(model)
    step = surfdb.step

    def run():
        surfdb.reset(model, data)
        for _ in range(STEPS):
            step(model, data)

    python = best_seconds(run) / STEPS
    reads = 100000
    position = best_seconds(lambda: [data.position for _ in range(reads)]) / reads
    contacts = best_seconds(lambda: [data.contacts() for _ in range(reads)]) / reads
    print(f"C++ surfdb::step        {cpp * 1e9:8.0f} ns")
    print(f"Python surfdb.step      {python * 1e9:8.0f} ns")
    print(f"overhead per call       {(python - cpp) * 1e9:8.0f} ns")
    print(f"Data.position (a view)  {position * 1e9:8.0f} ns")
    print(f"Data.contacts() (none)  {contacts * 1e9:8.0f} ns")


if __name__ == "__main__":
    main()
