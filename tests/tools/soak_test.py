"""The 60 s soak of issue 6: the demonstration (hertz_variable_step: Hertz contact on the 999 x 999
tables, reduced windows, CVODE Adams) simulated for 60 s while this script samples the process from
outside (/proc/PID/status and /proc/PID/smaps) twice a second. It must finish without solver
failures, keep the constraint violation and the energy balance within the bounds docs/reliability.md
states, keep the tables' resident pages within what the storage windows may hold, and not grow.

Usage: soak_test.py PATH/TO/surfdb SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SURFDB, SOURCE = sys.argv[1:3]
SIMULATED = 60.0  # s
CONSTRAINT_BOUND = 1e-10  # m, largest position-level violation
ENERGY_BOUND = 1e-5  # relative energy balance error
GROWTH_BOUND = 2 << 20  # bytes the process's own memory may grow between a quarter of the run and its end
FAULT_AROUND = 128 << 10  # per window record: the rest of the 64 KiB blocks at its two ends


def sample(pid):
    """(resident anonymous bytes of the process: heap, stacks; resident bytes of its .sdb mappings), or None once it
    is gone. File-backed pages (the tables, whose bound is checked on its own, and the libraries' code, first touched
    when a path first runs) are not the process's growth."""
    try:
        status = open(f"/proc/{pid}/status").read()
        tables, current = 0, ""
        for line in open(f"/proc/{pid}/smaps"):
            fields = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                current = fields[5] if len(fields) > 5 else ""
            elif line.startswith("Rss:") and current.endswith(".sdb"):
                tables += int(fields[1]) << 10
        return int(re.search(r"RssAnon:\s+(\d+)", status).group(1)) << 10, tables
    except (OSError, AttributeError):
        return None


def main():
    parts = os.path.join(SOURCE, "samples/slider_crank_cup_ball")
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "tables"))
        for part, face, table in (("ball.igs", 1, "ball.sdb"), ("cup.step", 4, "cup.sdb")):
            subprocess.run([SURFDB, "convert", os.path.join(parts, part), "--face", str(face), "--grid", "999x999",
                            "--record", "27x27", "-o", os.path.join(tmp, "tables", table)],
                           check=True, stderr=subprocess.DEVNULL)
        scenario = os.path.join(tmp, "hertz_variable_step.toml")
        shutil.copy(os.path.join(parts, "hertz_variable_step.toml"), scenario)
        out = os.path.join(tmp, "out")
        process = subprocess.Popen([SURFDB, "simulate", scenario, "--end-time", str(SIMULATED),
                                    "--output-interval", "0.01", "-o", out], stderr=subprocess.DEVNULL)
        start, samples = time.monotonic(), []
        while process.poll() is None:
            s = sample(process.pid)
            if s:
                samples.append((time.monotonic() - start, *s))
            time.sleep(0.5)
        assert process.returncode == 0, f"simulate exited {process.returncode}"
        summary = json.load(open(os.path.join(out, "summary.json")))

    contact = summary["contacts"][0]
    wall = samples[-1][0]
    settled = [s for s in samples if s[0] >= 0.25 * wall]
    rss_quarter, rss_max = settled[0][1], max(s[1] for s in settled)
    tables_max = max(s[2] for s in samples if s[0] >= 1.0)
    window_bytes = summary["memory"]["window_bytes"]
    window_records = (5 * 11 + 5 * 7)  # the scenario's windows: ball 5 x 11, cup 5 x 7
    tables_bound = window_bytes + window_records * FAULT_AROUND
    print(f"simulated {summary['end_time']} s in {summary['steps']} steps, {summary['cpu_seconds']:.1f} s CPU, "
          f"{contact['impacts']} impacts, {contact['solver_failures']} solver failures")
    print(f"constraint drift {summary['constraint_drift']:.3g} m (bound {CONSTRAINT_BOUND:g}), energy balance "
          f"{summary['energy']['drift_relative']:.3g} (bound {ENERGY_BOUND:g})")
    print(f"{len(samples)} samples: anonymous memory {rss_quarter >> 10} kB at a quarter of the run, at most "
          f"{rss_max >> 10} kB after it (growth bound {GROWTH_BOUND >> 10} kB); tables resident at most "
          f"{tables_max >> 10} kB (windows {window_bytes >> 10} kB, bound {tables_bound >> 10} kB)")
    assert summary["end_time"] == SIMULATED
    assert contact["solver_failures"] == 0 and contact["impacts"] > 100
    assert summary["constraint_drift"] <= CONSTRAINT_BOUND
    assert summary["energy"]["drift_relative"] <= ENERGY_BOUND
    assert tables_max <= tables_bound
    assert rss_max - rss_quarter <= GROWTH_BOUND
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
