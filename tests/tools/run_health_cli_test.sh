#!/usr/bin/env bash
# Runs that tell the truth, from the command line: a run's status and warnings in summary.json,
# one line per warning on standard error, the exit codes with and without --strict, a sweep with
# a failing case among good ones; absurd end times refused before anything is written; inputs
# that are FIFOs refused at once by every command that reads a file; the messages a new user met;
# an interrupted run leaves no output directory behind.
# Usage: run_health_cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

# A 4 g ball of radius 5 mm, 1 mm above a floor plane; Hertz K as given.
scene() {
  cat <<TOML
[simulation]
end_time = 0.05
output_interval = 1e-3
$2

[[body]]
name = "ball"
mass = 0.004
inertia = [4e-8, 4e-8, 4e-8]
position = [0.0, 0.0, 0.006]

[[surface]]
name = "ball"
body = "ball"
sphere_radius = 0.005

[[surface]]
name = "floor"
body = "ground"
plane_normal = [0.0, 0.0, 1.0]

[[contact]]
name = "ball_floor"
surface_i = "ball"
surface_j = "floor"
stiffness = $1
$3
TOML
}
scene 1e8 "" 'law = "hunt_crossley"
restitution = 0.5' >"$dir/good.toml"
# A spring of 1e308 N/m stretched 10 m: its force overflows, the state turns infinite at once.
spring() {
  cat <<TOML
[simulation]
end_time = 0.05
integrator = "rk4"
step = 1e-4

[[body]]
name = "ball"
mass = 0.004
inertia = [4e-8, 4e-8, 4e-8]
position = [0.0, 0.0, 0.0]

[[spring]]
name = "rubber"
body_i = "ground"
body_j = "ball"
point_i = [0.0, 0.0, 10.0]
point_j = [0.0, 0.0, 0.0]
stiffness = $1
free_length = 10.0
TOML
}
spring 1e308 | sed 's/^free_length = 10.0/free_length = 0.0/' >"$dir/nan.toml"
# A pendulum whose joint drift (a few 1e-9 m with rk4 at 1 ms) is beyond a bound of 1e-15 m.
cat >"$dir/drift.toml" <<'TOML'
[simulation]
end_time = 0.2
integrator = "rk4"
step = 1e-3
max_constraint_drift = 1e-15

[[body]]
name = "bob"
mass = 1.0
inertia = [1e-3, 1e-3, 1e-3]
position = [0.1, 0.0, 0.0]

[[joint]]
name = "pivot"
type = "spherical"
body_i = "ground"
body_j = "bob"
point = [0.0, 0.0, 0.0]
TOML

# status OUTDIR: the summary's status.
status() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$1/summary.json"; }

# A healthy run: status ok, exit 0 even with --strict, no warning line.
if "$surfdb" simulate "$dir/good.toml" -o "$dir/good" --no-plots --quiet --strict 2>"$dir/err" &&
  [ "$(status "$dir/good")" = ok ] && [ ! -s "$dir/err" ]; then ok; else bad "good run: $(cat "$dir/err")"; fi

# A failed run: exit 1, the outputs written, one warning line and one error line.
"$surfdb" simulate "$dir/nan.toml" -o "$dir/nan" --no-plots --quiet 2>"$dir/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(status "$dir/nan")" = failed ] && [ -s "$dir/nan/time_series.csv" ] &&
  grep -q "^warning: body 'ball': NaN or infinity in its state at t = 0.0001 s; the run stopped at the step before" "$dir/err" &&
  grep -q "^surfdb: error: the run failed; its outputs up to then are in $dir/nan" "$dir/err" &&
  [ "$(wc -l <"$dir/err")" -eq 2 ]; then ok; else bad "failed run: exit $rc, $(cat "$dir/err")"; fi
python3 - "$dir/nan/summary.json" <<'PY' && ok || bad "failed run's summary"
import json, sys
s = json.load(open(sys.argv[1]))
w = s["warnings"]
assert [x["kind"] for x in w] == ["non_finite_state"], w
assert w[0]["subject"] == "body 'ball'" and w[0]["count"] == 1, w
assert w[0]["first_time"] == 1e-4 and s["end_time"] == 0 and s["steps"] == 0, s  # the NaN step undone: the last state is the finite one
PY

# A run with warnings: exit 0 and one line; --strict makes it exit 1, the outputs still written.
"$surfdb" simulate "$dir/drift.toml" -o "$dir/drift" --no-plots --quiet 2>"$dir/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(status "$dir/drift")" = warnings ] && [ "$(wc -l <"$dir/err")" -eq 1 ] &&
  grep -q "^warning: joints: position-level violation up to .* (first beyond the bound 1e-15 at t = " "$dir/err"
then ok; else bad "warnings: exit $rc, $(cat "$dir/err")"; fi
rm -rf "$dir/drift"
"$surfdb" simulate "$dir/drift.toml" -o "$dir/drift" --no-plots --quiet --strict 2>"$dir/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(status "$dir/drift")" = warnings ] && grep -q "1 warning under --strict" "$dir/err"
then ok; else bad "--strict: exit $rc, $(cat "$dir/err")"; fi

# A sweep with one failing case among good ones: statuses and kinds in results.csv, counted in the
# last line; --strict fails the sweep.
# A spring at its free length: at rest, healthy, unless its stretch overflows the force.
spring 1 >"$dir/rest.toml"
cat >"$dir/sweep.toml" <<'TOML'
scenario = "rest.toml"
combine = "zip"
[[parameter]]
path = "spring.rubber.free_length"
values = [10.0, 0.0, 10.0]
[[parameter]]
path = "spring.rubber.stiffness"
values = [1.0, 1e308, 2.0]
TOML
"$surfdb" sweep "$dir/sweep.toml" -o "$dir/sweep" -j 1 2>"$dir/err"
rc=$?
python3 - "$dir/sweep/results.csv" <<'PY' && ok || bad "sweep results: $(cat "$dir/sweep/results.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["status"] for r in rows] == ["ok", "failed", "ok"], [r["status"] for r in rows]
assert rows[1]["warnings"] == "non_finite_state", rows[1]
assert "body 'ball': NaN or infinity in its state at t = 0.0001 s" in rows[1]["message"], rows[1]["message"]
assert rows[0]["warnings"] == "" and rows[2]["warnings"] == ""
PY
if [ $rc -eq 0 ] && grep -q "3 cases: 2 ok, 0 with warnings, 1 failed" "$dir/err"; then ok; else bad "sweep: exit $rc, $(cat "$dir/err")"; fi
"$surfdb" sweep "$dir/sweep.toml" -o "$dir/sweep" -j 1 --strict 2>"$dir/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "1 case not ok under --strict" "$dir/err"; then ok; else bad "sweep --strict: exit $rc, $(cat "$dir/err")"; fi

# Absurd end times are refused before anything is written.
expect_error "end time 1e300" "the time series (1e+300 s every 0.001 s) would take" \
  "$surfdb" simulate "$dir/good.toml" -o "$dir/forever" --end-time 1e300 --no-plots
if [ -e "$dir/forever" ]; then bad "a refused run left $dir/forever"; else ok; fi
expect_error "--max-size" "more than --max-size 1 KiB" \
  "$surfdb" simulate "$dir/good.toml" -o "$dir/small" --max-size 1K --no-plots
expect_error "ab4 steps overflow" "is 1e+306 steps, more than 1e12" \
  "$surfdb" simulate "$dir/good.toml" -o "$dir/forever" --end-time 1e300 --set simulation.integrator=ab4 \
  --set simulation.output_interval=1e298 --no-plots
if [ -e "$dir/forever" ]; then bad "a refused ab4 run left $dir/forever"; else ok; fi

# Messages.
scene 1e8 "" 'law = "foo"' >"$dir/foo.toml"
expect_error "unknown law" "contact 'ball_floor'.law: unknown law 'foo' (hertz, hunt_crossley," \
  "$surfdb" simulate "$dir/foo.toml" -o "$dir/foo" --no-plots
cat >"$dir/missing.toml" <<'TOML'
[simulation]
end_time = 0.01
[[body]]
name = "ball"
mass = 0.004
inertia = [4e-8, 4e-8, 4e-8]
position = [0.0, 0.0, 0.0]
[[surface]]
name = "plate"
body = "ground"
table = "no_such.sdbs"
faces = [1, 2]
TOML
expect_error "missing table with faces" "surface 'plate'.table: no such file or directory: $dir/no_such.sdbs" \
  "$surfdb" simulate "$dir/missing.toml" -o "$dir/missing" --no-plots
mkdir -p "$dir/set.sdbs" && echo '{}' >"$dir/set.sdbs/manifest.json"
for command in query project export; do
  case $command in
    query) args=(--uv 0 0) ;;
    project) args=(--xyz 0 0 0) ;;
    export) args=(-o "$dir/set.vtk") ;;
  esac
  expect_error "$command on a set" "$dir/set.sdbs: a surface set (a directory of tables, one per face), not a table" \
    "$surfdb" "$command" "$dir/set.sdbs" "${args[@]}"
done
expect_usage "unknown command" "unknown command 'simulat': the commands are convert, info, verify" \
  "$surfdb" simulat "$dir/good.toml"

# A FIFO as input: every command that reads a file answers at once (a reader would block forever).
mkfifo "$dir/fifo"
for args in "info $dir/fifo" "verify $dir/fifo" "query $dir/fifo --uv 0 0" "project $dir/fifo --xyz 0 0 0" \
  "export $dir/fifo -o $dir/fifo.vtk" "convert $dir/fifo --list-faces" "mesh $dir/fifo --deflection 0.1 -o $dir/fifo.mesh" \
  "simulate $dir/fifo -o $dir/fifo_out --no-plots" "sweep $dir/fifo -o $dir/fifo_sweep"; do
  # shellcheck disable=SC2086
  timeout 20 "$surfdb" $args >/dev/null 2>"$dir/err"
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "fifo" "$dir/err"; then ok; else bad "FIFO to '$args': exit $rc, $(cat "$dir/err")"; fi
done
if [ -e "$dir/fifo_out" ]; then bad "simulate of a FIFO left its OUTDIR"; else ok; fi

# An interrupted run leaves no output directory that was not there (its files are temporaries
# until the run ends). SIGTERM: a background job of a script ignores SIGINT.
scene 1e8 "" "" | sed 's/^end_time = 0.05/end_time = 1e3/; s/^output_interval = 1e-3/output_interval = 1.0/' >"$dir/long.toml"
"$surfdb" simulate "$dir/long.toml" -o "$dir/new/interrupted" --no-plots --quiet 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -d "$dir/new/interrupted" ] && break; sleep 0.1; done
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -eq 143 ] && [ ! -e "$dir/new" ]; then ok; else bad "interrupted run: exit $rc, left $(ls -R "$dir/new" 2>&1)"; fi

finish
