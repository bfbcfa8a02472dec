#!/usr/bin/env bash
# simulate in scripts and sweeps: --set overrides (each changes what the run does, checked against
# closed forms of a ball dropped on a plane), --no-plots, --quiet, the impacts in summary.json, and
# surfaces that start inside each other; bad overrides fail before anything is written.
# Usage: simulate_cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

# A 11 g ball of radius 10 mm, its lowest point 20 mm above the ground plane; Hertz K = 1e8.
# No integrator: the default (adams) is what --set must be able to replace.
cat >"$dir/drop.toml" <<'TOML'
[simulation]
end_time = 0.07
output_interval = 1e-3

[[body]]
name = "ball"
mass = 0.011
inertia = [4.4e-7, 4.4e-7, 4.4e-7]
position = [0.0, 0.0, 0.03]

[[surface]]
name = "ball"
body = "ball"
sphere_radius = 0.01

[[surface]]
name = "floor"
body = "ground"
plane_normal = [0.0, 0.0, 1.0]

[[contact]]
name = "ball-floor"
surface_i = "ball"
surface_j = "floor"
stiffness = 1e8
TOML
run() { "$surfdb" simulate "$dir/drop.toml" --no-plots "$@"; }

# summary OUTDIR PYTHON: runs the Python with `s` the summary and `c` its one contact.
summary() {
  python3 - "$1/summary.json" "$2" <<'PY'
import json, math, sys
s = json.load(open(sys.argv[1]))
c = s["contacts"][0]
exec(sys.argv[2])
PY
}

# The closed forms, in Python: free fall from h, then Hertz K delta^2.5 / 2.5 = m v^2 / 2 + m g delta.
closed_forms='
m, g = 0.011, 9.81
def speed(h): return math.sqrt(2 * g * h)
def deepest(v, K):
    d = (5 * m * v * v / (4 * K)) ** 0.4
    for _ in range(30):
        d -= (K * d ** 2.5 / 2.5 - m * v * v / 2 - m * g * d) / (K * d ** 1.5 - m * g)
    return d
def check_impact(i, h, K, peak_tolerance=1e-5):  # the peak is the largest at the accepted steps
    v, d = speed(h), deepest(speed(h), K)
    assert math.sqrt(2 * h / g) <= i["start"] <= math.sqrt(2 * h / g) + 1e-6, (i, h)
    assert abs(i["approach_velocity"] / v - 1) < 1e-4, (i, v)
    assert abs(i["max_indentation"] / d - 1) < peak_tolerance, (i, d)
    assert abs(i["max_force"] / (K * d ** 1.5) - 1) < 1.5 * peak_tolerance, (i, K * d ** 1.5)
'

# --set simulation.integrator (absent from the file, a bare word read as a string) and the
# impacts in summary.json against the closed forms; max_indentation the largest of them.
if run -o "$dir/rk4" --set simulation.integrator=rk4 2>"$dir/err"; then ok; else bad "rk4 run: $(cat "$dir/err")"; fi
summary "$dir/rk4" "$closed_forms"'
assert s["steps"] == 70000 and s["rhs_evaluations"] == 4 * 70000, (s["steps"], s["rhs_evaluations"])
assert s["integrator_failures"] == 0, s["integrator_failures"]
assert c["impacts"] == 1 and len(c["impacts_detail"]) == 1, c
i = c["impacts_detail"][0]
assert list(i) == ["start", "end", "approach_velocity", "max_indentation", "max_force"], list(i)
check_impact(i, 0.02, 1e8)
assert abs((i["end"] - i["start"]) / (2.9432 * i["max_indentation"] / i["approach_velocity"]) - 1) < 4e-3, i
assert c["max_indentation"] == i["max_indentation"]
' && ok || bad "impacts_detail against free fall and Hertz"
# The body's columns in free fall (t < 0.0638 s, before the ball reaches the floor): right after
# its position, its velocity g t and its acceleration g, its orientation and angular velocity, then
# the contact's columns.
python3 - "$dir/rk4/time_series.csv" <<'PY' && ok || bad "velocity and acceleration columns in free fall"
import csv, sys
header = next(csv.reader(open(sys.argv[1])))
assert header[:17] == ["t"] + ["ball_" + c for c in ("x", "y", "z", "vx", "vy", "vz", "ax", "ay", "az", "e0", "e1", "e2",
                                                      "e3", "wx", "wy", "wz")], header
assert header[17] == "ball-floor_touching", header
rows = [r for r in csv.DictReader(open(sys.argv[1])) if float(r["t"]) < 0.06]
assert len(rows) > 50, len(rows)
for r in rows:
    t = float(r["t"])
    assert abs(float(r["ball_vz"]) + 9.81 * t) < 1e-12, r
    assert abs(float(r["ball_z"]) - (0.03 - 9.81 * t * t / 2)) < 1e-12, r
    assert abs(float(r["ball_az"]) + 9.81) < 1e-12 and float(r["ball_ax"]) == float(r["ball_ay"]) == 0, r
    assert float(r["ball_vx"]) == float(r["ball_vy"]) == 0, r
PY
# The same value quoted as a TOML string: the same run.
if run -o "$dir/rk4q" --set 'simulation.integrator="rk4"' 2>/dev/null && cmp -s "$dir/rk4/time_series.csv" "$dir/rk4q/time_series.csv"
then ok; else bad "a quoted string and a bare word differ"; fi
# The default integrator (CVODE's variable steps) is not what ran above.
run -o "$dir/adams" 2>/dev/null
summary "$dir/adams" 'assert s["steps"] != 70000 and s["rhs_evaluations"] != 4 * s["steps"], s' && ok || bad "default integrator"
# Dormand-Prince (ARKODE) by --set: the impact on the closed forms too; steps across the contact's
# onset and release (where the Hertz force K delta^1.5 is not smooth) fail the error test and are
# counted.
run -o "$dir/dp" --set simulation.integrator=dormand_prince 2>/dev/null
summary "$dir/dp" "$closed_forms"'
assert c["impacts"] == 1, c
# Dormand-Prince steps 3-5 us at the peak of this 0.37 ms impact: the nearest accepted step may
# land 2 us off it, where the indentation is up to 1.5e-4 below it (about (pi dt / T)^2 / 2).
check_impact(c["impacts_detail"][0], 0.02, 1e8, peak_tolerance=1.5e-4)
assert s["integrator_failures"] > 0, s
' && ok || bad "dormand_prince against the closed forms"

# simulation.step and simulation.end_time: the step count follows; repeated --set apply in order.
run -o "$dir/step" --set simulation.integrator=rk4 --set simulation.end_time=0.002 --set simulation.step=5e-7 \
  --set simulation.end_time=0.001 2>/dev/null
summary "$dir/step" 'assert s["end_time"] == 0.001 and s["steps"] == 2000, (s["end_time"], s["steps"])' && ok ||
  bad "simulation.step and end_time"

# contact.NAME.stiffness (the name quoted too) and body.NAME.position: the closed forms move with them.
run -o "$dir/stiff" --set simulation.integrator=rk4 --set 'contact."ball-floor".stiffness=4e9' 2>/dev/null
summary "$dir/stiff" "$closed_forms"'check_impact(c["impacts_detail"][0], 0.02, 4e9)' && ok || bad "contact stiffness"
run -o "$dir/high" --set simulation.integrator=rk4 --set 'body.ball.position=[0.0, 0.0, 0.035]' \
  --set simulation.end_time=0.08 2>/dev/null
summary "$dir/high" "$closed_forms"'check_impact(c["impacts_detail"][0], 0.025, 1e8)' && ok || bad "body position"

# --no-plots: no PNG and no word about plots; without it, plots or the warning that they failed.
if ls "$dir"/rk4/*.png >/dev/null 2>&1 || grep -q plot "$dir/err"; then bad "--no-plots plotted"; else ok; fi
"$surfdb" simulate "$dir/drop.toml" -o "$dir/plots" --end-time 0.001 2>"$dir/plots.err"
python=python3  # the one the command runs
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
if "$python" -c "import matplotlib" 2>/dev/null; then
  if ls "$dir"/plots/*.png >/dev/null 2>&1; then ok; else bad "no plots by default"; fi
else
  if grep -q "warning: plots not written" "$dir/plots.err"; then ok; else bad "no plot warning: $(cat "$dir/plots.err")"; fi
fi

# --quiet: nothing on standard error for a run that goes well, no bar on a terminal; errors still.
run -o "$dir/quiet" --end-time 0.001 --quiet 2>"$dir/quiet.err"
if [ ! -s "$dir/quiet.err" ] && [ -f "$dir/quiet/summary.json" ]; then ok; else bad "--quiet: $(cat "$dir/quiet.err")"; fi
run -o "$dir/loud" --end-time 0.001 2>"$dir/loud.err"
if grep -q "info: simulated" "$dir/loud.err"; then ok; else bad "no info without --quiet"; fi
if on_terminal true >/dev/null; then
  on_terminal "$surfdb" simulate "$dir/drop.toml" -o "$dir/quiet_tty" --no-plots --quiet >"$dir/tty.txt"
  if [ ! -s "$dir/tty.txt" ]; then ok; else bad "--quiet on a terminal: $(head -c 300 "$dir/tty.txt")"; fi
fi
expect_error "--quiet keeps errors" "--set simulation.step=-1: simulation.step: must be positive" \
  run -o "$dir/never" --quiet --set simulation.step=-1

# Bad overrides: exit 1, one line naming the override, before anything is written.
bad_set() {  # DESCRIPTION MESSAGE OVERRIDE
  expect_error "$1" "$2" run -o "$dir/never" --set "$3"
  if [ -e "$dir/never" ]; then bad "$1: wrote $dir/never"; rm -rf "$dir/never"; fi
}
bad_set "unknown table" "--set sim.step=1e-6: no table 'sim' in a scenario (simulation, body" "sim.step=1e-6"
bad_set "unknown key" "--set simulation.stepsize=1e-6: no key 'stepsize' in [simulation] (end_time, integrator" \
  "simulation.stepsize=1e-6"
bad_set "unknown body" "--set body.marble.mass=0.01: no [[body]] named 'marble'" "body.marble.mass=0.01"
bad_set "path too short" "--set body.mass=0.01: expected body.NAME.KEY" "body.mass=0.01"
bad_set "no value" "--set simulation.step: expected PATH=VALUE" "simulation.step"
bad_set "a string for a number" "--set simulation.step=fast: simulation.step: must be a number" "simulation.step=fast"
bad_set "a number for a string" "--set simulation.integrator=4: simulation.integrator: must be a string" \
  "simulation.integrator=4"
bad_set "a number for a vector" "--set body.ball.position=1: body 'ball'.position: must be an array of 3 numbers" \
  "body.ball.position=1"
bad_set "not TOML" "--set body.ball.position=[0, 0: the value is not a TOML value" "body.ball.position=[0, 0"
bad_set "nan" "--set contact.ball-floor.stiffness=nan: contact 'ball-floor'.stiffness: must be a finite number" \
  "contact.ball-floor.stiffness=nan"
bad_set "a cap on a plane" "surface 'floor'.cavity_cap_height: applies to a cavity" "surface.floor.cavity_cap_height=0.01"

# Initial penetration: 2.4 mm into the floor is an error naming the pair, the depth and the
# surfaces, and nothing is written; 1 nm is a warning (kept by --quiet) and the run goes on; an
# explicit tolerance admits the 2.4 mm.
expect_error "2.4 mm inside" "drop.toml: contact 'ball-floor': surfaces 'ball' and 'floor' start 0.0024 m inside each other" \
  run -o "$dir/never" --set 'body.ball.position=[0, 0, 0.0076]'
if [ -e "$dir/never" ]; then bad "initial penetration wrote $dir/never"; fi
run -o "$dir/nm" --end-time 0.001 --quiet --set 'body.ball.position=[0, 0, 0.009999999]' 2>"$dir/nm.err"
if [ $? -eq 0 ] && grep -q "warning: contact 'ball-floor': surfaces 'ball' and 'floor' start 1e-09 m inside" "$dir/nm.err"
then ok; else bad "1 nm inside: $(cat "$dir/nm.err")"; fi
if run -o "$dir/tolerated" --end-time 0.001 --quiet --set 'body.ball.position=[0, 0, 0.0076]' \
  --set contact.ball-floor.initial_penetration_tolerance=3e-3 2>/dev/null; then ok; else bad "explicit tolerance"; fi

finish
