#!/usr/bin/env python3
"""Writes bowl_of_balls.toml on standard output: a hundred steel balls (analytic spheres, r 5 mm)
in a 5 x 5 x 4 lattice poured into the bowl (inner radius 60 mm, face 4 of tables/bowl.sdbs), Hertz
contact in two groups named by glob patterns: every two balls, every ball with the bowl. A scene of
many bodies is written by a script like this one rather than by hand. Change N_SIDE and LAYERS for
more or fewer balls.

Usage: samples/parts_in_contact/bowl_of_balls.py > samples/parts_in_contact/bowl_of_balls.toml
"""
import math

N_SIDE, LAYERS = 5, 4
r = 0.005                                   # m
mass = 7850 * 4 / 3 * math.pi * r**3        # kg, steel
inertia = 0.4 * mass * r * r
E_star = 2.07e11 / (2 * (1 - 0.3**2))       # Pa, steel on steel
K_balls = 4 / 3 * E_star * math.sqrt(r / 2)                 # Hertz, ball on ball: R_eff = r / 2
K_bowl = 4 / 3 * E_star * math.sqrt(1 / (1 / r - 1 / 0.060))  # ball in the bowl: R_eff = 1 / (1/r - 1/R)

print(f"""# {N_SIDE * N_SIDE * LAYERS} balls poured into a bowl, written by bowl_of_balls.py.
# Run from the repository root after samples/parts_in_contact/prepare.sh:
#   build/tools/surfdb simulate samples/parts_in_contact/bowl_of_balls.toml -o out/bowl_of_balls

[simulation]
end_time = 0.06
integrator = "adams"  # balls in flight and bouncing: 4 times less CPU than BDF (docs/scenario.md)
relative_tolerance = 1e-10
max_step = 1e-4
output_interval = 1e-4

[[surface]]
name = "bowl"
body = "ground"
table = "tables/bowl.sdbs"
faces = [4]   # the inner sphere
""")
for k in range(N_SIDE * N_SIDE * LAYERS):
    # 11 mm apart in x and y, 10.4 mm in z, nudged off the lattice so that the pile is not symmetric
    x = 0.011 * (k % N_SIDE - N_SIDE // 2) + 3e-4 * math.sin(k)
    y = 0.011 * (k // N_SIDE % N_SIDE - N_SIDE // 2) + 3e-4 * math.cos(k)
    z = -0.040 + 0.0104 * (k // (N_SIDE * N_SIDE))
    print(f"""[[body]]
name = "ball{k}"
mass = {mass:.9g}
inertia = [{inertia:.9g}, {inertia:.9g}, {inertia:.9g}]
position = [{x:.9g}, {y:.9g}, {z:.9g}]

[[surface]]
name = "ball{k}"
body = "ball{k}"
sphere_radius = {r}
""")
print(f"""[[contact]]
name = "balls"
surface_i = "ball*"
surface_j = "ball*"
stiffness = {K_balls:.9g}

[[contact]]
name = "bowl"
surface_i = "ball*"
surface_j = "bowl"
stiffness = {K_bowl:.9g}""")
