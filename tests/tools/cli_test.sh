#!/usr/bin/env bash
# The surfdb command as a user meets it: outputs, exit codes, one-line errors, nothing half-written.
# Usage: cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect_fail DESCRIPTION MESSAGE-SUBSTRING COMMAND...: non-zero exit, one line on stderr naming it.
expect_fail() {
  local what=$1 message=$2
  shift 2
  "$@" >"$dir/out" 2>"$dir/err"
  local rc=$?
  if [ $rc -eq 0 ]; then bad "$what: exit 0"; return; fi
  if ! grep -qF -- "$message" "$dir/err"; then bad "$what: stderr lacks '$message': $(cat "$dir/err")"; return; fi
  if [ "$(wc -l <"$dir/err")" -ne 1 ]; then bad "$what: more than one line on stderr"; return; fi
  ok
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
   && [ -f "$dir/all/face_0001.sdb" ] && grep -q "^1,face_0001.sdb,BSplineSurface" "$dir/all/index.csv"; then ok; else bad "all faces"; fi

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
expect_fail "grid syntax" "not of the form NUxNV" "$surfdb" convert "$dir/patch.nurbs" --grid 20by20 -o "$dir/x.sdb"
expect_fail "record larger than grid" "larger than the grid" "$surfdb" convert "$dir/patch.nurbs" --grid 10x10 --record 11x2 -o "$dir/x.sdb"
expect_fail "unwritable output" "cannot create a temporary file" "$surfdb" convert "$dir/patch.nurbs" --grid 10x10 --record 2x2 -o "$dir/no/such/dir/x.sdb"
expect_fail "unknown analytic" "unknown analytic surface" "$surfdb" convert --analytic cube -o "$dir/x.sdb"
expect_fail "negative radius" "radius must be a positive number" "$surfdb" convert --analytic sphere --radius -1 -o "$dir/x.sdb"
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
head -c $((size - 100)) "$dir/o.sdb" >"$dir/short.sdb"
expect_fail "truncated info" "truncated" "$surfdb" info "$dir/short.sdb"
expect_fail "truncated verify" "truncated" "$surfdb" verify "$dir/short.sdb"
expect_fail "not a database" "wrong magic" "$surfdb" info "$dir/garbage.step"
expect_fail "missing database" "no such file" "$surfdb" verify "$dir/none.sdb"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
