#!/usr/bin/env bash
# The surfdb command as a user meets it: outputs, exit codes, one-line errors, nothing half-written.
# Usage: cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

# expect_fail DESCRIPTION MESSAGE-SUBSTRING COMMAND...: non-zero exit, one line on stderr naming it.
expect_fail() { check_failure "$1" "$2" any "${@:3}"; }

# expect_quiet_fail DESCRIPTION MESSAGE-SUBSTRING COMMAND...: as expect_fail, with nothing on standard
# output (no CSV header before the error).
expect_quiet_fail() {
  local before=$failed
  expect_fail "$@"
  [ "$failed" -ne "$before" ] && return
  if [ -s "$dir/out" ]; then passed=$((passed - 1)); bad "$1: wrote to standard output: $(head -c 200 "$dir/out")"; fi
}

cat >"$dir/patch.nurbs" <<'NURBS'
surfdb-nurbs 1
degree 1 2
poles 2 3
uknots 0 1
umults 2 2
vknots 0 1
vmults 3 3
points
0 0 0
0 5 2
0 10 0
10 0 0
10 5 2
10 10 0
NURBS

# A good conversion, its header and its checksums.
if "$surfdb" convert --analytic octant --grid 60x50 --record 7x9 -o "$dir/o.sdb" 2>/dev/null; then ok; else bad "convert octant"; fi
"$surfdb" info "$dir/o.sdb" --json >"$dir/info.json" || bad "info --json"
python3 - "$dir/info.json" <<'PY' && ok || bad "info --json keys and values"
import json, sys
j = json.load(open(sys.argv[1]))
keys = ["format_version", "u_points", "v_points", "u_record_points", "v_record_points", "u0", "v0",
        "du", "dv", "record_bytes", "data_records", "file_bytes", "columns", "scalar", "length_unit",
        "meters_per_unit", "periodic_u", "periodic_v", "invalid_points", "source"]
missing = [k for k in keys if k not in j]
assert not missing, missing
assert j["u_points"] == 60 and j["v_points"] == 50 and j["data_records"] == 9 * 6
assert j["columns"][:3] == ["u", "v", "x"] and j["scalar"] == "f64" and j["length_unit"] == "mm"
assert j["source"]["kind"] == "analytic" and j["source"]["name"] == "octant"
PY
if "$surfdb" verify "$dir/o.sdb" >/dev/null; then ok; else bad "verify intact file"; fi
"$surfdb" convert --analytic octant --grid 60x50 --record 7x9 -o "$dir/o2.sdb" 2>/dev/null
if cmp -s "$dir/o.sdb" "$dir/o2.sdb"; then ok; else bad "same input and options give different bytes"; fi

# NURBS text: list faces, convert.
"$surfdb" convert "$dir/patch.nurbs" --list-faces >"$dir/faces.csv" 2>/dev/null || bad "list faces"
if [ "$(sed -n 2p "$dir/faces.csv" | cut -d, -f1-2)" = "1,BSplineSurface" ]; then ok; else bad "list faces: $(cat "$dir/faces.csv")"; fi
if "$surfdb" convert "$dir/patch.nurbs" --grid 20x20 --record 5x5 -o "$dir/patch.sdb" 2>/dev/null; then ok; else bad "convert nurbs"; fi
if "$surfdb" convert "$dir/patch.nurbs" --all-faces --grid 20x20 --record 5x5 -o "$dir/all" 2>/dev/null \
   && [ -f "$dir/all/face_0001.sdb" ] && grep -q '"surface_type": "BSplineSurface"' "$dir/all/manifest.json"; then ok; else bad "all faces"; fi

# Bad input: a clear line, a non-zero exit, nothing written.
mkdir "$dir/a_directory"
: >"$dir/empty.step"
head -c 3000 /dev/urandom >"$dir/garbage.step"
expect_fail "missing file" "no such file" "$surfdb" convert "$dir/none.step" -o "$dir/x.sdb"
expect_fail "directory" "is a directory" "$surfdb" convert "$dir/a_directory" -o "$dir/x.sdb"
expect_fail "empty file" "empty" "$surfdb" convert "$dir/empty.step" -o "$dir/x.sdb"
expect_fail "garbage STEP" "cannot read this as a STEP file" "$surfdb" convert "$dir/garbage.step" -o "$dir/x.sdb"
expect_fail "face out of range" "face 3 does not exist" "$surfdb" convert "$dir/patch.nurbs" --face 3 -o "$dir/x.sdb"
expect_fail "grid too small" "at least 2x2" "$surfdb" convert "$dir/patch.nurbs" --grid 1x5 -o "$dir/x.sdb"
expect_usage "grid syntax" "not of the form NUxNV" "$surfdb" convert "$dir/patch.nurbs" --grid 20by20 -o "$dir/x.sdb"
expect_fail "record larger than grid" "larger than the grid" "$surfdb" convert "$dir/patch.nurbs" --grid 10x10 --record 11x2 -o "$dir/x.sdb"
expect_fail "unwritable output" "cannot create a temporary file" "$surfdb" convert "$dir/patch.nurbs" --grid 10x10 --record 2x2 -o "$dir/no/such/dir/x.sdb"
expect_fail "unknown analytic" "unknown analytic surface" "$surfdb" convert --analytic cube -o "$dir/x.sdb"
expect_usage "negative radius" "--radius: must be positive, not -1" "$surfdb" convert --analytic sphere --radius -1 -o "$dir/x.sdb"
if [ -e "$dir/x.sdb" ]; then bad "a failed conversion left x.sdb"; else ok; fi
if [ -z "$(find "$dir" -name '.*.sdb.*')" ]; then ok; else bad "temporary files left behind"; fi

# A failed conversion keeps the file it would have replaced.
cp "$dir/o.sdb" "$dir/keep.sdb"
"$surfdb" convert "$dir/patch.nurbs" --face 9 -o "$dir/keep.sdb" 2>/dev/null
if cmp -s "$dir/o.sdb" "$dir/keep.sdb"; then ok; else bad "failed conversion changed the existing file"; fi

# Queries, projections and exports.
row=$("$surfdb" query "$dir/o.sdb" --uv 0.5 0.7 | sed -n 2p)
python3 - "$row" <<'PY' && ok || bad "query row: $row"
import math, sys
v = [float(x) for x in sys.argv[1].split(",")]
u, w = v[0], v[1]
exact = [50 * math.cos(u) * math.cos(w), 50 * math.cos(u) * math.sin(w), 50 * math.sin(u)]
assert len(v) == 15 and v[14] == 1
assert max(abs(a - b) for a, b in zip(v[2:5], exact)) < 0.05  # 60 x 50 grid: chord error < 0.05 mm
PY
if "$surfdb" query "$dir/o.sdb" --uv 5 0.1 | sed -n 2p | grep -q ',0$'; then ok; else bad "outside query not valid=0"; fi
printf '0.1 0.2\n# comment\n\n0.3,0.4\n' | "$surfdb" query "$dir/o.sdb" --batch - >"$dir/batch.csv" || bad "batch query"
if [ "$(wc -l <"$dir/batch.csv")" -eq 3 ]; then ok; else bad "batch rows: $(cat "$dir/batch.csv")"; fi
printf '0.1 0.2\n0.3 oops\n' >"$dir/bad_batch.txt"
expect_fail "malformed batch line" "bad_batch.txt:2: expected 2 numbers" "$surfdb" query "$dir/o.sdb" --batch "$dir/bad_batch.txt"
"$surfdb" project "$dir/o.sdb" --xyz 20 20 20 --json >"$dir/p.json" || bad "project"
python3 - "$dir/p.json" <<'PY' && ok || bad "project answer"
import json, math, sys
j = json.load(open(sys.argv[1]))
assert abs(j["distance"] - (50 - math.sqrt(1200))) < 0.05 and j["valid"] == 1
PY
"$surfdb" export "$dir/o.sdb" -o "$dir/o.csv" || bad "export csv"
if [ "$(wc -l <"$dir/o.csv")" -eq 3001 ]; then ok; else bad "export csv rows"; fi
"$surfdb" export "$dir/o.sdb" --format vtk -o "$dir/o.vtk" || bad "export vtk"
if head -c 200 "$dir/o.vtk" | grep -q "DIMENSIONS 50 60 1"; then ok; else bad "vtk header"; fi
expect_fail "export format" "--format must be csv or vtk" "$surfdb" export "$dir/o.sdb" --format obj -o "$dir/o.obj"

# Scenarios and simulate.
samples=$(cd "$(dirname "$0")/../../samples/slider_crank_cup_ball" && pwd)
cp "$samples/hertz_analytic.toml" "$dir/scenario.toml"
if "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim" --end-time 0.025 >/dev/null 2>&1; then ok; else bad "simulate analytic scenario"; fi
python3 - "$dir/sim" <<'PY' && ok || bad "simulate outputs"
import csv, json, sys
j = json.load(open(sys.argv[1] + "/summary.json"))
for key in ["end_time", "steps", "rhs_evaluations", "cpu_seconds", "contacts", "energy", "constraint_drift"]:
    assert key in j, key
c = j["contacts"][0]
for key in ["name", "first_contact_time", "impacts", "max_indentation", "window_updates", "records_read", "solver_failures"]:
    assert key in c, key
assert abs(c["first_contact_time"] - 0.018094) < 2e-6 and c["impacts"] == 1
assert "solves_skipped" not in c  # an analytic contact solves in closed form
for key in ["initial", "final", "dissipated", "drift_relative"]:
    assert key in j["energy"], key
assert j["energy"]["drift_relative"] < 1e-6
rows = list(csv.DictReader(open(sys.argv[1] + "/time_series.csv")))
assert len(rows) > 2000 and "ball-cup_indentation" in rows[0]
PY
scenario_error() {  # DESCRIPTION MESSAGE PYTHON-EDIT
  python3 - "$dir/scenario.toml" "$dir/broken.toml" "$3" <<'PY'
import sys
text = open(sys.argv[1]).read()
old, new = sys.argv[3].replace("\\n", "\n").split("|")
assert old in text, old
open(sys.argv[2], "w").write(text.replace(old, new, 1))
PY
  expect_fail "$1" "$2" "$surfdb" simulate "$dir/broken.toml" -o "$dir/broken"
}
scenario_error "negative mass" "broken.toml:18: body 'crank'.mass: must be positive" 'mass = 1.726|mass = -1.726'
scenario_error "singular inertia" "body 'crank'.inertia: principal moments must be positive" 'inertia = [1.726e-4, 3.3407e-3, 3.3407e-3]|inertia = [0.0, 3.3407e-3, 3.3407e-3]'
scenario_error "unknown key" "unknown key 'colour'" 'mass = 3.451|mass = 3.451\ncolour = "red"'
scenario_error "wrong type" "body 'slider'.mass: must be a number" 'mass = 1.726\ninertia = [1e-3|mass = "heavy"\ninertia = [1e-3'
scenario_error "unknown surface" "no surface named 'bowl'" 'surface_j = "cup"|surface_j = "bowl"'
scenario_error "unknown body" "no body named 'crank2'" 'body_j = "crank"|body_j = "crank2"'
scenario_error "contradictory joints" "some joints are redundant or contradictory" 'name = "pin"\ntype = "spherical"|name = "pin"\ntype = "revolute"'
scenario_error "missing field" "simulation.end_time: missing" 'end_time = 0.1|'
scenario_error "bad toml" "broken.toml:" '[simulation]|[simulation'

# Each surface's residency applies to its own table (surface_j's was once read from surface_i):
# the cup (surface_j) loaded whole, the ball (surface_i) in a 5 x 11 window of direct mapping.
mkdir -p "$dir/tables"
"$surfdb" convert "$samples/cup.step" --face 4 --grid 101x101 --record 9x9 -o "$dir/tables/cup.sdb" 2>/dev/null
"$surfdb" convert "$samples/ball.igs" --face 1 --grid 101x101 --record 9x9 -o "$dir/tables/ball.sdb" 2>/dev/null
python3 - "$samples/hertz.toml" "$dir/residency.toml" <<'PY'
import sys
text = open(sys.argv[1]).read()
old = 'window = [5, 7]\nresidency = "direct"'
assert old in text
open(sys.argv[2], "w").write(text.replace(old, 'window = [5, 7]\nresidency = "full"', 1))
PY
if "$surfdb" simulate "$dir/residency.toml" -o "$dir/residency" --end-time 1e-4 >/dev/null 2>&1; then ok; else bad "simulate tables"; fi
python3 - "$dir/residency/summary.json" "$dir/tables/cup.sdb" <<'PY' && ok || bad "surface_j residency"
import json, os, sys
j = json.load(open(sys.argv[1]))
# 12 x 12 records of 9 x 9 nodes of 19 float64 columns; the ball's window holds 5 x 11 at most.
record = 9 * 9 * 19 * 8
assert j["memory"]["window_bytes"] >= 144 * record, j["memory"]
assert j["memory"]["window_bytes"] <= (144 + 55) * record, j["memory"]
PY

# Damaged databases.
size=$(stat -c %s "$dir/o.sdb")
cp "$dir/o.sdb" "$dir/flipped.sdb"
printf '\xff' | dd of="$dir/flipped.sdb" bs=1 seek=$((size / 2)) conv=notrunc status=none
expect_fail "flipped byte" "data record" "$surfdb" verify "$dir/flipped.sdb"
# The file's last byte is the checksum table's unused end, which no hash covers: verify requires it
# zero. Catches a verify that checks the hashes only.
cp "$dir/o.sdb" "$dir/padding.sdb"
printf '\x01' | dd of="$dir/padding.sdb" bs=1 seek=$((size - 1)) conv=notrunc status=none
expect_fail "flipped padding byte" "byte $((size - 1)) is not zero" "$surfdb" verify "$dir/padding.sdb"
if "$surfdb" query "$dir/padding.sdb" --uv 0.1 0.2 >/dev/null 2>&1; then ok; else bad "readers ignore unused bytes"; fi
head -c $((size - 100)) "$dir/o.sdb" >"$dir/short.sdb"
expect_fail "truncated info" "truncated" "$surfdb" info "$dir/short.sdb"
expect_fail "truncated verify" "truncated" "$surfdb" verify "$dir/short.sdb"
expect_fail "not a database" "wrong magic" "$surfdb" info "$dir/garbage.step"
expect_fail "missing database" "no such file" "$surfdb" verify "$dir/none.sdb"

# Messages and options (issue 22).
if [ "$("$surfdb" --version)" = "surfdb 0.1.0" ]; then ok; else bad "--version: $("$surfdb" --version 2>&1)"; fi
# Range errors say what the value must be, not a 309-digit maximum.
expect_usage "face 0" "--face: must be at least 1, not 0" "$surfdb" convert "$dir/patch.nurbs" --face 0 -o "$dir/x.sdb"
expect_usage "end time 0" "--end-time: must be positive, not 0" "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim0" --end-time 0
expect_usage "end time -1" "--end-time: must be positive, not -1" "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim0" --end-time -1
expect_usage "grid too large" "99999999999 is too large" "$surfdb" convert "$dir/patch.nurbs" --grid 99999999999x2 -o "$dir/x.sdb"
expect_usage "grid letters" "not of the form NUxNV" "$surfdb" convert "$dir/patch.nurbs" --grid abc -o "$dir/x.sdb"
expect_usage "export format stl" "--format must be csv or vtk" "$surfdb" export "$dir/o.sdb" --format stl -o "$dir/o.stl"
# Non-finite numbers: on the command line, in batch files, in scenarios.
expect_usage "project nan" "--xyz: must be a finite number, not nan" "$surfdb" project "$dir/o.sdb" --xyz nan 0 0
expect_usage "project inf" "--xyz: must be a finite number, not inf" "$surfdb" project "$dir/o.sdb" --xyz inf 0 0
expect_usage "project guess nan" "--uv: must be a finite number" "$surfdb" project "$dir/o.sdb" --xyz 1 2 3 --uv 0 nan
expect_usage "query nan" "--uv: must be a finite number, not nan" "$surfdb" query "$dir/o.sdb" --uv nan nan
expect_usage "simulate end time nan" "--end-time: must be a finite number, not nan" "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim0" --end-time nan
expect_usage "analytic radius inf" "--radius: must be a finite number" "$surfdb" convert --analytic sphere --radius inf -o "$dir/x.sdb"
expect_usage "analytic range nan" "--u-range: must be a finite number" "$surfdb" convert --analytic octant --u-range 0 nan -o "$dir/x.sdb"
printf '0.1 0.2\nnan 0\n' >"$dir/nan_batch.txt"
expect_fail "batch nan" "nan_batch.txt:2: 'nan' is not a finite number" "$surfdb" query "$dir/o.sdb" --batch "$dir/nan_batch.txt"
printf '1 2 3\n4 -inf 6\n' >"$dir/inf_batch.txt"
expect_fail "batch inf" "inf_batch.txt:2: '-inf' is not a finite number" "$surfdb" project "$dir/o.sdb" --batch "$dir/inf_batch.txt"
scenario_error "nan end time" "broken.toml:8: simulation.end_time: must be a finite number, not nan" 'end_time = 0.1|end_time = nan'
scenario_error "inf in an array" "simulation.gravity: must be a finite number, not -inf" 'gravity = [0.0, 0.0, -9.81]|gravity = [0.0, 0.0, -inf]'
scenario_error "inf in a rotation row" "broken.toml:105: surface 'cup'.rotation: must be a finite number, not inf" \
  'cavity_radius = 0.050|cavity_radius = 0.050\nrotation = [\n  [1.0, 0.0, 0.0],\n  [0.0, 1.0, 0.0],\n  [0.0, 0.0, inf]]'
scenario_error "nan the law does not use" "contact 'ball-cup'.restitution: must be a finite number, not nan" 'exponent = 1.5|exponent = 1.5\nrestitution = nan'
scenario_error "nan window of an analytic surface" "surface 'cup'.window: must be a finite number" 'cavity_radius = 0.050|cavity_radius = 0.050\nwindow = [nan, 2]'
# A directory where a file is expected; no CSV header on standard output before an error.
expect_quiet_fail "batch directory" "is a directory" "$surfdb" query "$dir/o.sdb" --batch "$dir/a_directory"
expect_quiet_fail "batch missing" "No such file or directory" "$surfdb" query "$dir/o.sdb" --batch "$dir/none.txt"
expect_quiet_fail "project batch missing" "cannot open for reading" "$surfdb" project "$dir/o.sdb" --batch "$dir/none.txt"
expect_quiet_fail "query damaged record" "data record" "$surfdb" query "$dir/flipped.sdb" --uv 0.05 0.05
expect_fail "scenario directory" "is a directory" "$surfdb" simulate "$dir/a_directory" -o "$dir/sim0"
: | "$surfdb" query "$dir/o.sdb" --batch - >"$dir/empty_batch.csv"
if [ "$(cat "$dir/empty_batch.csv")" = "u,v,x,y,z,nx,ny,nz,tx,ty,tz,bx,by,bz,valid" ]; then ok; else bad "empty batch: $(cat "$dir/empty_batch.csv")"; fi
# The system's reason when an output directory cannot be made.
expect_fail "output directory under a file" "cannot create output directory $dir/o.sdb/sim: Not a directory" \
  "$surfdb" simulate "$dir/scenario.toml" -o "$dir/o.sdb/sim" --end-time 1e-4
# Options that cannot apply are refused.
expect_usage "list faces with -o" "--list-faces only lists the faces; --output does not apply" "$surfdb" convert "$dir/patch.nurbs" --list-faces -o "$dir/x.sdb"
expect_usage "radius with a CAD input" "--radius applies to --analytic surfaces" "$surfdb" convert "$dir/patch.nurbs" --radius 5 -o "$dir/x.sdb"
expect_usage "minor radius on a sphere" "--minor-radius applies to the torus only" "$surfdb" convert --analytic sphere --minor-radius 5 -o "$dir/x.sdb"
expect_usage "threads 0" "--threads: must be at least 1" "$surfdb" convert "$dir/patch.nurbs" --threads 0 -o "$dir/x.sdb"
# Units in the face list; counts in the right number.
if sed -n '1p;2p' "$dir/faces.csv" | cut -d, -f9-10 | tr '\n' ' ' | grep -qx "length_unit,area_unit mm,mm^2 "; then ok; else bad "list faces units: $(cat "$dir/faces.csv")"; fi
"$surfdb" convert "$dir/patch.nurbs" --all-faces --grid 10x10 --record 5x5 -o "$dir/all1" 2>"$dir/all1.err"
"$surfdb" convert "$dir/patch.nurbs" --grid 10x10 --record 5x5 -o "$dir/four.sdb" 2>>"$dir/all1.err"
if grep -q ": 1 face of patch.nurbs" "$dir/all1.err" && grep -q "in 4 records of" "$dir/all1.err"; then ok; else bad "count grammar: $(cat "$dir/all1.err")"; fi
"$surfdb" convert --analytic plane --grid 3x3 --record 3x3 -o "$dir/one.sdb" 2>"$dir/one.err"
if grep -q "in 1 record of" "$dir/one.err"; then ok; else bad "one record: $(cat "$dir/one.err")"; fi
# The end time as given, not as the steps summed it.
"$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim_short" --end-time 1e-4 2>"$dir/short.err" >/dev/null
if grep -q "simulated 1e-04 s in 100 steps" "$dir/short.err"; then ok; else bad "simulate end time: $(cat "$dir/short.err")"; fi
# Progress on a terminal: an ETA on a job of some seconds, the bar ends at 100% and ends its line
# before the final message.
# Where no pseudo-terminal can be had, the bar cannot be seen and both checks are skipped.
if ! on_terminal true >/dev/null; then
  echo "progress checks skipped: no pseudo-terminal"
else
on_terminal "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim_tty" --end-time 0.5 >"$dir/tty.txt"
python3 - "$dir/tty.txt" <<'PY' && ok || bad "progress on a terminal"
import sys
lines = open(sys.argv[1], newline="").read().split("\n")  # keep the bar's CRs
bar = [l for l in lines if "simulating [" in l]
assert len(bar) == 1, "the bar shares its line with a message: %r" % [l[-200:] for l in lines]
assert bar[0].split("\r")[-1].strip().startswith("simulating [" + "#" * 40 + "] 100.0%"), bar[0][-200:]
assert "ETA" in bar[0], "no ETA"
info = [l for l in lines if "simulated" in l]
assert len(info) == 1 and "simulating" not in info[0] and "simulated 0.5 s in" in info[0], info
PY
on_terminal "$surfdb" convert --analytic torus --grid 300x300 -o "$dir/torus.sdb" >"$dir/tty_convert.txt"
python3 - "$dir/tty_convert.txt" <<'PY' && ok || bad "convert progress"
import sys
lines = open(sys.argv[1], newline="").read().split("\n")
bar = [l for l in lines if "converting torus.sdb (15.4 MiB) [" in l]  # the size known before writing
assert len(bar) == 1 and "wrote" not in bar[0] and "100.0%" in bar[0].split("\r")[-1], [l[-200:] for l in lines]
assert any("wrote" in l for l in lines), [l[-200:] for l in lines]
PY
fi

finish
