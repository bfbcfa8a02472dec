#!/usr/bin/env bash
# [[body]] inertia as a full tensor or as principal moments with principal_axes, and the time
# series' orientation and angular velocity columns, against the torque-free rigid body: spinning
# about a principal axis of a tensor with products of inertia it keeps its angular velocity;
# spinning about another axis it keeps its angular momentum A J w (world) and its energy; the two
# ways of giving the same tensor give the same run. A body given a density takes its mass and
# inertia from its sphere, box or cylinder. Bad input is refused naming the field.
# Usage: inertia_cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

# J = R diag(1, 2, 2.5) R^T with R the rotation by 30 degrees about z then 20 degrees about x;
# the rows of P = R^T are the principal axes in body axes.
read -r tensor axes <<<"$(python3 -c "
import math
c, s = math.cos(math.pi / 6), math.sin(math.pi / 6)
C, S = math.cos(math.pi / 9), math.sin(math.pi / 9)
Rz = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
Rx = [[1, 0, 0], [0, C, -S], [0, S, C]]
R = [[sum(Rx[i][k] * Rz[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
I = [1e-3, 2e-3, 2.5e-3]
J = [[sum(R[i][k] * I[k] * R[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
rows = lambda M: '[' + ', '.join('[' + ', '.join(repr(x) for x in r) + ']' for r in M) + ']'
print(rows(J).replace(' ', ''), rows([[R[i][k] for i in range(3)] for k in range(3)]).replace(' ', ''))")"

scene() {  # $1: the inertia lines, $2: the angular velocity (world)
  cat <<TOML
[simulation]
end_time = 0.5
integrator = "rk4"
step = 1e-4
output_interval = 0.01
gravity = [0, 0, 0]

[[body]]
name = "top"
mass = 1.0
$1
position = [0, 0, 0]
angular_velocity = $2
TOML
}

# About the first principal axis (the first row of P): steady.
w1=$(python3 -c "a = $axes; print([10 * x for x in a[0]])")
scene "inertia = $tensor" "$w1" >"$dir/steady.toml"
if "$surfdb" simulate "$dir/steady.toml" -o "$dir/steady" --no-plots -q && python3 - "$dir/steady/time_series.csv" "$w1" <<'PY'
import csv, sys
w = eval(sys.argv[2])
for r in csv.DictReader(open(sys.argv[1])):
    got = [float(r["top_w" + c]) for c in "xyz"]
    assert max(abs(a - b) for a, b in zip(got, w)) < 1e-9, (r["t"], got, w)
    assert abs(sum(float(r["top_e" + c]) ** 2 for c in "0123") - 1) < 1e-12
PY
then ok; else bad "a full tensor spun about its principal axis does not stay steady"; fi

# About another axis: angular momentum A J w_body = A J A^T w (world) and energy conserved.
scene "inertia = $tensor" "[3.0, -2.0, 7.0]" >"$dir/tumble.toml"
scene "inertia = [1e-3, 2e-3, 2.5e-3]
principal_axes = $axes" "[3.0, -2.0, 7.0]" >"$dir/axes.toml"
if "$surfdb" simulate "$dir/tumble.toml" -o "$dir/tumble" --no-plots -q &&
   "$surfdb" simulate "$dir/axes.toml" -o "$dir/axes" --no-plots -q && python3 - "$dir/tumble/time_series.csv" "$tensor" <<'PY'
import csv, sys
J = eval(sys.argv[2])
def A(e0, e1, e2, e3):
    return [[e0*e0+e1*e1-e2*e2-e3*e3, 2*(e1*e2-e0*e3), 2*(e1*e3+e0*e2)],
            [2*(e1*e2+e0*e3), e0*e0-e1*e1+e2*e2-e3*e3, 2*(e2*e3-e0*e1)],
            [2*(e1*e3-e0*e2), 2*(e2*e3+e0*e1), e0*e0-e1*e1-e2*e2+e3*e3]]
mv = lambda M, v: [sum(M[i][k] * v[k] for k in range(3)) for i in range(3)]
mt = lambda M: [[M[j][i] for j in range(3)] for i in range(3)]
first = None
for r in csv.DictReader(open(sys.argv[1])):
    a = A(*(float(r["top_e" + c]) for c in "0123"))
    w = [float(r["top_w" + c]) for c in "xyz"]
    L = mv(a, mv(J, mv(mt(a), w)))
    T = 0.5 * sum(x * y for x, y in zip(w, L))
    first = first or (L, T)
    assert max(abs(x - y) for x, y in zip(L, first[0])) < 1e-8 * max(map(abs, first[0])), (r["t"], L, first[0])
    assert abs(T / first[1] - 1) < 1e-8
moved = max(abs(float(r["top_wx"]) - 3.0) for r in csv.DictReader(open(sys.argv[1])))
assert moved > 0.1, moved  # it tumbles: w is not constant
PY
then ok; else bad "a tumbling body with a full tensor: momentum or energy not conserved"; fi
if cmp -s "$dir/tumble/time_series.csv" "$dir/axes/time_series.csv" ||
   python3 - "$dir/tumble/time_series.csv" "$dir/axes/time_series.csv" <<'PY'
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:])
assert len(a) == len(b)
for r, s in zip(a, b):
    for k in r:
        assert abs(float(r[k]) - float(s[k])) <= 1e-9 * max(1.0, abs(float(r[k]))), (k, r[k], s[k])
PY
then ok; else bad "the tensor and the moments with principal_axes gave different runs"; fi

# [[body]] density: mass and inertia from the body's sphere, box or (turned) cylinder, checked by
# the spinning bodies' kinetic energy at t = 0 against the closed forms.
cat >"$dir/density.toml" <<'TOML'
[simulation]
end_time = 0.01
integrator = "rk4"
step = 1e-4
output_interval = 0.01
gravity = [0, 0, 0]

[[body]]
name = "box"
density = 1000
position = [0, 0, 0]
angular_velocity = [1, 2, 3]

[[body]]
name = "ball"
density = 7850
position = [1, 0, 0]
angular_velocity = [0, 0, 10]

[[body]]
name = "can"
density = 2700
position = [2, 0, 0]
angular_velocity = [0, 5, 0]

[[surface]]
name = "box"
body = "box"
box_size = [0.1, 0.2, 0.3]

[[surface]]
name = "ball"
body = "ball"
sphere_radius = 0.05

[[surface]]
name = "can"
body = "can"
cylinder_radius = 0.02
cylinder_length = 0.1
rotation = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]   # the cylinder's axis along body y
TOML
if "$surfdb" simulate "$dir/density.toml" -o "$dir/density" --no-plots -q && python3 - "$dir/density/time_series.csv" <<'PY'
import csv, math, sys
first = next(csv.DictReader(open(sys.argv[1])))
m = 1000 * 0.1 * 0.2 * 0.3
box = 0.5 * (m / 12 * (0.04 + 0.09) * 1 + m / 12 * (0.01 + 0.09) * 4 + m / 12 * (0.01 + 0.04) * 9)
m = 7850 * 4 / 3 * math.pi * 0.05 ** 3
ball = 0.5 * 0.4 * m * 0.05 ** 2 * 100
m = 2700 * math.pi * 0.02 ** 2 * 0.1
can = 0.5 * m * 0.02 ** 2 / 2 * 25
e = float(first["energy_mechanical"])
assert abs(e / (box + ball + can) - 1) < 1e-12, (e, box + ball + can)
PY
then ok; else bad "bodies given a density: kinetic energy off the closed forms"; fi
sed 's/^density = 1000$/density = 1000\nmass = 6.0/' "$dir/density.toml" >"$dir/bad.toml"
expect_error "density with mass" "body 'box'.mass: a body given a density takes its mass and inertia from its surface" \
  "$surfdb" simulate "$dir/bad.toml" -o "$dir/bad" --no-plots
sed 's/^sphere_radius = 0.05$/sphere_radius = 0.05\norigin = [0.01, 0, 0]/' "$dir/density.toml" >"$dir/bad.toml"
expect_error "density with an off-centre surface" "must be centred at the body's centre of mass" \
  "$surfdb" simulate "$dir/bad.toml" -o "$dir/bad" --no-plots
sed 's/^density = 7850$/density = -1/' "$dir/density.toml" >"$dir/bad.toml"
expect_error "a negative density" "body 'ball'.density: must be positive" "$surfdb" simulate "$dir/bad.toml" -o "$dir/bad" --no-plots

# Bad tensors, one line naming the field.
bad_scene() { scene "$1" "[0, 0, 1]" >"$dir/bad.toml"; expect_error "$2" "$3" "$surfdb" simulate "$dir/bad.toml" -o "$dir/bad" --no-plots; }
bad_scene "inertia = [[1e-3, 1e-4, 0], [0, 1e-3, 0], [0, 0, 1e-3]]" "an unsymmetric tensor" "body 'top'.inertia: the inertia tensor must be symmetric"
bad_scene "inertia = [[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 3e-3]]" "a tensor beyond the triangle inequality" "violates the triangle inequality"
bad_scene "inertia = [[1e-3, 2e-3, 0], [2e-3, 1e-3, 0], [0, 0, 1e-3]]" "an indefinite tensor" "must be positive"
bad_scene "inertia = [[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]]
principal_axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]" "principal_axes with a tensor" "goes with principal moments"
bad_scene "inertia = [1e-3, 1e-3, 1e-3]
principal_axes = [[1, 0, 0], [0, 1, 0], [0, 1, 0]]" "principal_axes not a rotation" "principal_axes: must be a rotation"

finish
