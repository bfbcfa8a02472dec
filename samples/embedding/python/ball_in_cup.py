#!/usr/bin/python3
"""The marble ball (R 10 mm, 11 g) dropped into the fixed cup (inner R 50 mm) with Hertz contact,
in the caller's own time loop (velocity Verlet, 1 us steps), contact detection by surfdb's Python
module on the lookup tables. Prints the impact as "name value" lines, the same numbers as
samples/embedding/c/ball_in_cup.c.

Usage: ball_in_cup.py BALL.sdb CUP.sdb   (samples/slider_crank_cup_ball/tables after prepare.sh;
       PYTHONPATH=build/python from a build tree, nothing after `cmake --install` to /usr/local)
"""
import sys

import numpy as np
import surfdb

DT = 1e-6  # s
STIFFNESS = 5.0181e9  # N/m^1.5, Machado, Flores and Ambrósio 2014, Table 3
MASS = 0.011  # kg
GRAVITY = np.array([0.0, 0.0, -9.81])  # m/s^2


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ball_in_cup.py BALL.sdb CUP.sdb")
    # The tables lie in their bodies' axes; the cup's body frame sits at its sphere's centre.
    contact = surfdb.Contact(surfdb.Database(sys.argv[1]), surfdb.Database(sys.argv[2]))
    cup = surfdb.BodyState()
    position = np.array([0.0, 0.0, -0.035])  # 5 mm above the bottom, at rest
    velocity = np.zeros(3)
    force = np.zeros(3)
    first_contact, last_contact, impact_speed, max_indentation = -1.0, 0.0, 0.0, 0.0
    for step in range(1, 100001):
        t = step * DT
        velocity = velocity + 0.5 * DT * (force / MASS + GRAVITY)
        position = position + DT * velocity
        r = contact.evaluate(surfdb.BodyState(position, velocity=velocity), cup)
        if r.status not in ("touching", "separated"):
            print(f"ball_in_cup: detection {r.status} at t = {t:g} s", file=sys.stderr)
        force = STIFFNESS * r.indentation**1.5 * r.normal if r.touching else np.zeros(3)
        velocity = velocity + 0.5 * DT * (force / MASS + GRAVITY)
        speed = float(np.sqrt(velocity @ velocity))
        if r.touching:
            if first_contact < 0:
                first_contact, impact_speed = t, speed
            last_contact = t
            max_indentation = max(max_indentation, r.indentation)
        elif first_contact >= 0:  # the ball has left the cup's surface: the rebound
            print(f"first_contact_time {first_contact:.12e}")
            print(f"impact_speed {impact_speed:.12e}")
            print(f"max_indentation {max_indentation:.12e}")
            print(f"contact_duration {last_contact - first_contact:.12e}")
            print(f"rebound_speed {speed:.12e}")
            return
    sys.exit("ball_in_cup: no rebound within 0.1 s")


if __name__ == "__main__":
    main()
