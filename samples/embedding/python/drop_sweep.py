"""A sweep as a Python loop over runs of one model: the bouncing ball of
samples/integrators/bouncing_ball.toml (4 g, radius 5 mm, Hertz K = 1e8 N/m^1.5 on a floor)
dropped from four heights, each drop a surfdb.Data of the one surfdb.Model, the four stepped side
by side on threads (the step releases the GIL). Each run stops after its first rebound and prints
the deepest indentation of its first impact beside Hertz's: the elastic energy K d^(5/2) / (5/2)
at the deepest point d is the drop's m g (h + d).

Usage: PYTHONPATH=build/python python3 samples/embedding/python/drop_sweep.py \
           samples/integrators/bouncing_ball.toml
"""
import sys
import threading

import surfdb

model = surfdb.Model(sys.argv[1], set={"contact.ball_floor.stiffness": 1e8})
radius, mass, stiffness, g = 0.005, 0.004, 1e8, 9.81

heights = [0.5e-3, 1e-3, 2e-3, 4e-3]  # m, from the floor to the ball's lowest point
runs = []
for h in heights:
    data = surfdb.Data(model)
    data.position[0, 2] = radius + h  # written into the run: the next step starts from it
    runs.append(data)


def first_impact(data, result):
    """Steps until the ball leaves the floor again; the deepest indentation on the way."""
    deepest = 0.0
    while True:
        surfdb.step(model, data)
        depth = data.contacts()["indentation"]  # one entry per contact point carrying force
        if depth.size:
            deepest = max(deepest, depth.max())
        elif deepest > 0:
            break
    result.append((data.time, deepest, data.status))


results = [[] for _ in runs]
threads = [threading.Thread(target=first_impact, args=(d, r)) for d, r in zip(runs, results)]
for t in threads:
    t.start()
for t in threads:
    t.join()

print("drop_mm  rebound_s  indentation_um  closed_form_um  status")
for h, [(t, deepest, status)] in zip(heights, results):
    exact = 0.0
    for _ in range(50):  # d = (5/2 m g (h + d) / K)^(2/5), a contraction
        exact = (2.5 * mass * g * (h + exact) / stiffness) ** 0.4
    print(f"{h * 1e3:7.2f}  {t:9.6f}  {deepest * 1e6:14.5f}  {exact * 1e6:14.5f}  {status}")
