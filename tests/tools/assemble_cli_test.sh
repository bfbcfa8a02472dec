#!/usr/bin/env bash
# From a CAD assembly to a scene, from the command line: an assembly written with XCAF (a base and
# loose parts 2 mm above it, one part used twice) listed and assembled; assembly.json against the
# closed forms; the scene runs as written and the parts come to rest on the base; parts that touch
# in the assembly fastened; the same input
# gives the same bytes; `mesh --part` meshes one part alone; bad input (no solids, bad densities, names matching nothing, an output
# that exists) is one line, exit 1 and nothing left behind, so is an interrupted run.
# Usage: assemble_cli_test.sh PATH/TO/surfdb PATH/TO/make_test_assembly CAD_DIR
set -u
surfdb=$1
make_assembly=$2
cad=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

"$make_assembly" "$dir" || { echo "FAIL: make_test_assembly"; exit 1; }

# --list-parts --json: names, instances, placements (mm).
if "$surfdb" convert "$dir/drop.step" --list-parts --json >"$dir/parts.json" 2>"$dir/err" && python3 - "$dir/parts.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
parts = {p["name"]: p for p in j["parts"]}
assert sorted(parts) == ["base", "block", "puck"], parts.keys()
assert parts["block"]["instances"] == ["block_1", "block_2"]
assert parts["block"]["faces"] == 6 and parts["puck"]["solids"] == 1
assert parts["puck"]["density"] == 8500 and parts["block"]["density"] is None  # brass, from the file
assert abs(parts["block"]["volume"] - 6000) < 1e-6
inst = {i["name"]: i for i in j["instances"]}
assert inst["block_2"]["position"] == [25, -20, 2], inst["block_2"]
assert abs(inst["block_2"]["rotation"][1][0] - 0.479425538604203) < 1e-12
PY
then ok; else bad "convert --list-parts --json: $(cat "$dir/err")"; fi

# assemble: the contract's figures against closed forms (steel, 7850 kg/m^3).
if "$surfdb" assemble "$dir/drop.step" -o "$dir/a" --material steel --ground base 2>"$dir/err" && python3 - "$dir/a/assembly.json" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
assert j["length_unit"] == "m"
parts = {p["name"]: p for p in j["parts"]}
rho = 7850.0
m = rho * 0.030 * 0.020 * 0.010
assert abs(parts["block"]["mass"] / m - 1) < 1e-9, parts["block"]["mass"]
moments = sorted(m * (a * a + b * b) / 12 for a, b in ((0.02, 0.01), (0.03, 0.01), (0.03, 0.02)))
got = [parts["block"]["inertia"][k][k] for k in range(3)]
assert all(abs(g / e - 1) < 1e-9 for g, e in zip(got, moments)), got
mp = 8500 * math.pi * 0.01 ** 2 * 0.008  # brass: the file's own material wins over --material
assert abs(parts["puck"]["mass"] / mp - 1) < 1e-9, parts["puck"]["mass"]
assert parts["puck"]["set"] == "parts/puck.sdbs" and parts["puck"]["mesh"] == "parts/puck.mesh"
inst = {i["name"]: i for i in j["instances"]}
assert inst["base_1"]["ground"] and not inst["block_1"]["ground"]
p = inst["block_2"]["position"]  # the centre of mass, world, m
assert max(abs(a - b) for a, b in zip(p, (0.025, -0.020, 0.007))) < 1e-12, p
q = inst["block_2"]["orientation"]
assert abs(sum(x * x for x in q) - 1) < 1e-12
PY
then ok; else bad "assemble: $(cat "$dir/err")"; fi
if [ -d "$dir/a/parts/block.sdbs" ] && "$surfdb" verify "$dir/a/parts/block.sdbs" >/dev/null &&
   "$surfdb" verify "$dir/a/parts/block.mesh" >/dev/null; then ok; else bad "the part's set and mesh do not verify"; fi
if "$surfdb" info "$dir/a/parts/puck.mesh" | grep -q "closed  *true"; then ok; else bad "the puck's mesh is not closed"; fi

# A part's tables in its body frame, moved by the body's pose, lie on the part where the assembly
# placed it: block_2 is the box [-15, 15] x [-10, 10] x [0, 10] mm turned 0.5 rad about z and
# moved by (25, -20, 2) mm (make_test_assembly.cpp).
if python3 - "$surfdb" "$dir/a" <<'PY'
import json, math, subprocess, sys
surfdb, out = sys.argv[1:]
pose = {i["name"]: i for i in json.load(open(out + "/assembly.json"))["instances"]}["block_2"]
e0, e1, e2, e3 = pose["orientation"]
A = [[e0*e0+e1*e1-e2*e2-e3*e3, 2*(e1*e2-e0*e3), 2*(e1*e3+e0*e2)],
     [2*(e1*e2+e0*e3), e0*e0-e1*e1+e2*e2-e3*e3, 2*(e2*e3-e0*e1)],
     [2*(e1*e3-e0*e2), 2*(e2*e3+e0*e1), e0*e0-e1*e1-e2*e2+e3*e3]]
c, s = math.cos(0.5), math.sin(0.5)
checked = 0
for face in range(1, 7):
    table = f"{out}/parts/block.sdbs/face_{face:04d}.sdb"
    h = json.loads(subprocess.check_output([surfdb, "info", table, "--json"]))
    for fu, fv in ((0.5, 0.5), (0.1, 0.8), (0.9, 0.3)):
        u, v = h["u0"] + fu * (h["u1"] - h["u0"]), h["v0"] + fv * (h["v1"] - h["v0"])
        q = json.loads(subprocess.check_output([surfdb, "query", table, "--uv", repr(u), repr(v), "--json"]))
        assert q["valid"] == 1, q
        b = [q[k] * 1e-3 for k in "xyz"]  # body frame, m
        w = [pose["position"][i] + sum(A[i][k] * b[k] for k in range(3)) for i in range(3)]
        x, y, z = w[0] * 1e3 - 25, w[1] * 1e3 + 20, w[2] * 1e3 - 2  # undo the placement, mm
        p = (c * x + s * y, -s * x + c * y, z)
        inside = all(lo - 1e-9 <= a <= hi + 1e-9 for a, lo, hi in zip(p, (-15, -10, 0), (15, 10, 10)))
        on_face = any(abs(a - bound) < 1e-9 for a, bound in zip(p * 2, (-15, -10, 0, 15, 10, 10)))
        assert inside and on_face, (face, u, v, p)
        checked += 1
assert checked == 18
PY
then ok; else bad "the body-frame tables at the body's pose are not on the placed part"; fi

# The same input gives the same bytes, whatever the thread count.
"$surfdb" assemble "$dir/drop.step" -o "$dir/b" --material steel --ground base --threads 1 2>/dev/null
if diff -r "$dir/a" "$dir/b" >/dev/null; then ok; else bad "assembling twice (and on one thread) gave different files"; fi
if grep -q "^\[\[body\]\]   # part 'block' (product \"Block\"), 7850 kg/m^3$" "$dir/a/scene.toml"; then ok
else bad "the scene's comment does not give the block's density as 7850 kg/m^3"; fi

# The scene runs as written: the loose parts fall 2 mm onto the base and rest there.
if "$surfdb" simulate "$dir/a/scene.toml" -o "$dir/run" --end-time 0.3 --no-plots -q 2>"$dir/err" &&
   python3 - "$dir/run" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["status"] == "ok", s["warnings"]
assert all(c["solver_failures"] == 0 for c in s["contacts"])
last = list(csv.DictReader(open(sys.argv[1] + "/time_series.csv")))[-1]
for body, rest in (("block_1", 0.005), ("block_2", 0.005), ("puck_1", 0.004)):
    z, vz = float(last[body + "_z"]), float(last[body + "_vz"])
    assert abs(z - rest) < 1e-5 and abs(vz) < 1e-4, (body, z, vz)  # on the base, not through it
assert s["energy"]["dissipated"] > 0
PY
then ok; else bad "the generated scene: $(cat "$dir/err")"; fi

# Parts that touch where the assembly places them are fastened: the bracket standing on the fixed
# base and the pin pressed into the bracket's hole (20 um into its wall) are
# welded by fixed joints, a spanning forest (the pin-bracket pair closes a loop: no joint); the
# loose puck falls onto the bracket and rests there while the welded parts stay put. --loose
# fastens nothing, and that scene is refused at t = 0 for the pin inside the bracket's wall.
if "$surfdb" assemble "$dir/bolted.step" -o "$dir/f" --material steel --ground base 2>"$dir/err" &&
   [ "$(grep -c '^type = "fixed"' "$dir/f/scene.toml")" = 2 ] &&
   python3 -c "
import json
assert json.load(open('$dir/f/assembly.json'))['fastened'] == [['base_1', 'bracket_1'], ['base_1', 'pin_1']]" &&
   "$surfdb" simulate "$dir/f/scene.toml" -o "$dir/frun" --end-time 0.04 --no-plots -q --animation \
     --animation-interval 0.01 2>>"$dir/err" &&
   python3 - "$dir/frun" "$dir/f/scene.toml" "$(dirname "$0")" <<'PY'
import csv, json, sys, tomllib
sys.path.insert(0, sys.argv[3])
from check_animation import read_vtp
# The bracket and the pin, fastened to the base (on the ground), never move: drawn once in ground.vtp;
# every frame holds the puck alone.
names = [b["name"] for b in tomllib.load(open(sys.argv[2], "rb"))["body"]]
ground_bodies = {names[b] if b >= 0 else "ground" for (b,) in read_vtp(sys.argv[1] + "/animation/ground.vtp")[1]["body"]}
frame_bodies = {names[b] for (b,) in read_vtp(sys.argv[1] + "/animation/frame_000001.vtp")[1]["body"]}
assert ground_bodies == {"ground", "bracket_1", "pin_1"} and frame_bodies == {"puck_1"}, (ground_bodies, frame_bodies)
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["status"] == "ok", s["warnings"]
rows = list(csv.DictReader(open(sys.argv[1] + "/time_series.csv")))
first, last = rows[0], rows[-1]
z, vz = float(last["puck_1_z"]), float(last["puck_1_vz"])
assert abs(z - 0.0225) < 1e-5 and abs(vz) < 1e-3, (z, vz)  # on the bracket's top (20 mm), half its 5 mm up
for body in ("bracket_1", "pin_1"):
    for axis in "xyz":
        key = body + "_" + axis
        assert abs(float(last[key]) - float(first[key])) < 1e-7, (key, first[key], last[key])
PY
then ok; else bad "fastened parts: $(cat "$dir/err")"; fi
"$surfdb" assemble "$dir/bolted.step" -o "$dir/g" --material steel --ground base --loose 2>"$dir/err"
if ! grep -q '^type = "fixed"' "$dir/g/scene.toml" &&
   ! "$surfdb" simulate "$dir/g/scene.toml" -o "$dir/grun" --end-time 0.01 --no-plots -q 2>"$dir/err" &&
   grep -q "inside each other" "$dir/err" && [ ! -e "$dir/grun" ]; then ok
else bad "--loose: the pin in its hole was not refused: $(cat "$dir/err")"; fi

# --contacts pairs parts by name patterns, --density NAME=RHO per part.
if "$surfdb" assemble "$dir/drop.step" -o "$dir/c" --density 1000 --density 'puck=2000' --contacts 'block:base' \
     --contacts 'puck:*' 2>"$dir/err" &&
   grep -q 'surface_i = "block_1"' "$dir/c/scene.toml" && ! grep -q 'surface_i = "\*"' "$dir/c/scene.toml" &&
   python3 -c "
import json, math, sys
p = {x['name']: x for x in json.load(open('$dir/c/assembly.json'))['parts']}
assert abs(p['puck']['mass'] / (2000 * math.pi * 1e-4 * 0.008) - 1) < 1e-9
assert abs(p['block']['mass'] / (1000 * 6e-6) - 1) < 1e-9"; then ok; else bad "--contacts, --density NAME=RHO: $(cat "$dir/err")"; fi

# mesh --part: one part of the assembly as its own closed mesh, in its own coordinates; --faces a few.
if "$surfdb" mesh "$dir/drop.step" --part puck --deflection 0.01 -o "$dir/puck.mesh" >"$dir/out" 2>"$dir/err" &&
   grep -q "closed  *yes" "$dir/out" &&
   python3 -c "
import math, re, sys
v = float(re.search(r'volume +(\S+)', open('$dir/out').read()).group(1))
assert abs(v / (math.pi * 100 * 8) - 1) < 1e-3, v"; then ok; else bad "mesh --part puck: $(cat "$dir/err" "$dir/out")"; fi
if "$surfdb" mesh "$dir/drop.step" --part block --faces 1-2 --deflection 0.1 -o "$dir/two.mesh" >"$dir/out" 2>"$dir/err" &&
   grep -q "open_edges  *[1-9]" "$dir/out"; then ok; else bad "mesh --part --faces: $(cat "$dir/err")"; fi
expect_error "mesh --part naming no part" "no part named 'bolt'" \
  "$surfdb" mesh "$dir/drop.step" --part bolt --deflection 0.1 -o "$dir/x.mesh"

# A part 200 m long is said to be implausible for its unit, and assembled all the same.
if "$surfdb" assemble "$dir/huge.step" -o "$dir/huge" --material steel --spacing 5000 --deflection 100 2>"$dir/err" &&
   grep -q "warning: part 'beam' is 200.0000[0-9]* m across: is huge.step's length unit right?" "$dir/err"; then ok
else bad "a 200 m part: $(cat "$dir/err")"; fi

# A surface model given its mass: its faces a shell of uniform areal density, a closed cube skin
# of side a whose moments are 5/18 M a^2.
if "$surfdb" assemble "$dir/surface.step" -o "$dir/skin" --material steel --mass 'skin=0.5' 2>"$dir/err" && python3 -c "
import json
p = {x['name']: x for x in json.load(open('$dir/skin/assembly.json'))['parts']}['skin']
assert p['mass'] == 0.5 and p['volume'] == 0
for k in range(3): assert abs(p['inertia'][k][k] / (5 / 18 * 0.5 * 0.02 ** 2) - 1) < 1e-9, p['inertia']"
then ok; else bad "a surface model given its mass: $(cat "$dir/err")"; fi
expect_error "a mass that is not positive" "not '0'" \
  "$surfdb" assemble "$dir/surface.step" -o "$dir/x" --material steel --mass 'skin=0'
expect_error "a mass pattern matching nothing" "--mass 'bolt=1': no part matches 'bolt'" \
  "$surfdb" assemble "$dir/surface.step" -o "$dir/x" --material steel --mass 'bolt=1'

# Bad input: one line naming the value, exit 1, nothing left behind.
expect_error "a surface model without a mass" "has no closed solid (a surface model)" "$surfdb" assemble "$dir/surface.step" -o "$dir/x" --material steel
expect_error "density 0" "not '0'" "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --density 0
expect_error "density nan" "not 'nan'" "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --density nan
expect_error "density -5 for a part" "not '-5'" "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --density 'block=-5'
expect_error "a density pattern matching nothing" "no part matches 'bolt*'" \
  "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --material steel --density 'bolt*=7000'
expect_error "a missing --ground part" "--ground 'plate': no part or instance matches it" \
  "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --material steel --ground plate
expect_error "a --contacts pattern matching nothing" "no part matches 'bolt'" \
  "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --material steel --contacts 'bolt:base'
expect_error "no density" "has no density" "$surfdb" assemble "$dir/drop.step" -o "$dir/x"
expect_error "an output that is not empty" "is not empty" "$surfdb" assemble "$dir/drop.step" -o "$dir/a" --material steel
expect_usage "an unknown material" "unknown material" "$surfdb" assemble "$dir/drop.step" -o "$dir/x" --material cheese
expect_usage "--json without --list-parts" "--json applies to --list-parts" "$surfdb" convert "$dir/drop.step" --json
expect_usage "--list-parts with -o" "--list-parts only lists the parts; --output does not apply" \
  "$surfdb" convert "$dir/drop.step" --list-parts -o "$dir/x.sdb"
expect_usage "--list-parts with --strict" "not to --list-parts" "$surfdb" convert "$dir/drop.step" --list-parts --strict
if [ ! -e "$dir/x" ] && [ -z "$(ls -A "$dir" | grep '^\.')" ]; then ok; else bad "a refused run left $(ls -A "$dir")"; fi

# An interrupted run (SIGTERM: a background job of a script ignores SIGINT) leaves nothing: killed
# while it reads and meshes, and while it writes (once its temporary directory is there).
for when in early writing; do
  "$surfdb" assemble "$dir/drop.step" -o "$dir/killed" --material steel --spacing 0.2 2>/dev/null &
  pid=$!
  if [ $when = early ]; then
    sleep 0.05
  else
    for _ in $(seq 500); do
      [ -n "$(ls -A "$dir" | grep '^\.killed')" ] && break
      sleep 0.01
    done
  fi
  kill -TERM $pid 2>/dev/null
  wait $pid
  rc=$?
  if [ $rc -eq 143 ] && [ ! -e "$dir/killed" ] && [ -z "$(ls -A "$dir" | grep '^\.killed')" ]; then ok
  else bad "interrupted ($when): exit $rc, left $(ls -A "$dir")"; fi
done

# The as1 assembly written by two CAD systems: the same parts with the same masses.
if [ -f "$cad/trj2_as1-ac-214.stp" ] && [ -f "$cad/trj2_as1-ug-214.stp" ]; then
  for w in ac ug; do
    "$surfdb" assemble "$cad/trj2_as1-$w-214.stp" -o "$dir/as1-$w" --material steel --ground plate 2>/dev/null
  done
  if python3 - "$dir/as1-ac/assembly.json" "$dir/as1-ug/assembly.json" <<'PY'
import json, sys
a, b = (sorted((p["mass"] for p in json.load(open(f))["parts"]), reverse=True) for f in sys.argv[1:])
assert len(a) == len(b) == 5
for k in (0, 1, 2, 4):  # plate, l-bracket, rod, nut (the ac file's bolt is 40 mm long, not 37)
    assert abs(a[k] / b[k] - 1) < 1e-9, (k, a[k], b[k])
PY
  then ok; else bad "as1 from two CAD systems: different masses"; fi
fi

finish
