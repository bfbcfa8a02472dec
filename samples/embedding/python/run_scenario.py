"""A scenario file run by surfdb's own multibody loop from Python: the same figures as
samples/embedding/c/run_scenario.c and `surfdb simulate`, printed as "name value" lines.

Usage: run_scenario.py SCENARIO.toml [END_TIME]
"""
import sys

import surfdb


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: run_scenario.py SCENARIO.toml [END_TIME]")
    last = {}

    def output(t, bodies):  # bodies: (count, 13): position, Euler parameters, velocity, angular velocity
        last["count"] = last.get("count", 0) + 1
        last["z"] = bodies[0, 2]

    end_time = float(sys.argv[2]) if len(sys.argv) == 3 else None
    run = surfdb.simulate(sys.argv[1], end_time=end_time, output=output)
    print(f"end_time {run['end_time']:.17g}\nsteps {run['steps']}\noutputs {last['count']}")
    print(f"first_body_z {last['z']:.17g}\nenergy_initial {run['energy']['initial']:.17g}")
    print(f"energy_final {run['energy']['final']:.17g}")
    for k, c in enumerate(run["contacts"]):
        first = c["first_contact_time"] if c["first_contact_time"] is not None else -1.0
        print(f"contact{k}_first_contact_time {first:.17g}\ncontact{k}_impacts {c['impacts']}")
        print(f"contact{k}_max_indentation {c['max_indentation']:.17g}")


if __name__ == "__main__":
    main()
