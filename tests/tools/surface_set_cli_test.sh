#!/usr/bin/env bash
# `surfdb convert --all-faces | --faces` writing surface sets (issue 14), and `info` / `verify` on
# them (and `--strict` on a damaged part, issue 22): the manifest matches the part's face list, sets are byte-identical run to run, written
# whole or not at all, never mixed with another part's files, damage is named, and options that
# cannot apply are usage errors.
# Usage: surface_set_cli_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

part="$dir/cup.step"
cp "$(dirname "$0")/../../samples/slider_crank_cup_ball/cup.step" "$part"
"$surfdb" convert "$part" --list-faces >"$dir/faces.csv" 2>/dev/null || bad "list faces"
faces=$(($(wc -l <"$dir/faces.csv") - 1))

# Every face, with a manifest that agrees with --list-faces; info and verify read the set.
"$surfdb" convert "$part" --all-faces --grid 12x10 --record 5x5 -o "$dir/cup.sdbs" 2>"$dir/err" || bad "all faces: $(cat "$dir/err")"
if grep -q "wrote the surface set $dir/cup.sdbs: $faces faces of cup.step" "$dir/err"; then ok; else bad "set message: $(cat "$dir/err")"; fi
/usr/bin/python3 - "$dir/cup.sdbs/manifest.json" "$dir/faces.csv" <<'PY' && ok || bad "manifest against --list-faces"
import csv, json, sys
m = json.load(open(sys.argv[1]))
listed = list(csv.DictReader(open(sys.argv[2])))
assert m["format"] == "surfdb surface set" and m["format_version"] == 3 and m["edges"]["file"] == "edges.json"
assert "mass_frame" in m
assert m["source"] == {"kind": "step", "name": "cup.step", "faces": len(listed)}
assert [f["face"] for f in m["faces"]] == [int(r["face"]) for r in listed]
for f, r in zip(m["faces"], listed):
    assert f["surface_type"] == r["surface_type"] and f["orientation"] == r["orientation"], (f, r)
    assert f["file"] == "face_%04d.sdb" % f["face"] and f["grid"] == [12, 10]
    for a in f["adjacent_faces"]:  # adjacency is symmetric
        assert f["face"] in m["faces"][a - 1]["adjacent_faces"], (f["face"], a)
    lo, hi = f["bounding_box"]["min"], f["bounding_box"]["max"]
    assert all(l <= h for l, h in zip(lo, hi))
PY
"$surfdb" info "$dir/cup.sdbs" >"$dir/info.txt" || bad "info on a set"
if head -1 "$dir/info.txt" | grep -q "$faces of the $faces faces of cup.step (step), length unit mm"; then ok; else bad "info: $(head -1 "$dir/info.txt")"; fi
"$surfdb" info "$dir/cup.sdbs" --json | /usr/bin/python3 -c "
import json, sys; j = json.load(sys.stdin); assert len(j['faces']) == $faces and j['faces'][0]['grid'] == [12, 10]" && ok || bad "info --json on a set"
if "$surfdb" verify "$dir/cup.sdbs" | grep -q "intact (manifest and $faces tables"; then ok; else bad "verify a set"; fi

# The same part and options: the same bytes, manifest and tables.
"$surfdb" convert "$part" --all-faces --grid 12x10 --record 5x5 -o "$dir/again.sdbs" 2>/dev/null
if diff -r "$dir/cup.sdbs" "$dir/again.sdbs" >/dev/null; then ok; else bad "two conversions differ"; fi

# A subset, and a grid per face from a node spacing.
"$surfdb" convert "$part" --faces 1,3-4 --grid 8x8 -o "$dir/some.sdbs" 2>/dev/null || bad "--faces"
if [ "$(cd "$dir/some.sdbs" && ls | tr '\n' ' ')" = "edges.json face_0001.sdb face_0003.sdb face_0004.sdb manifest.json " ]; then ok
else bad "--faces 1,3-4 wrote: $(ls "$dir/some.sdbs")"; fi
"$surfdb" convert "$part" --all-faces --spacing 2 --max-grid 150 -o "$dir/spaced.sdbs" 2>/dev/null || bad "--spacing"
/usr/bin/python3 - "$dir/spaced.sdbs/manifest.json" <<'PY' && ok || bad "--spacing grids"
import json, sys
m = json.load(open(sys.argv[1]))
grids = {tuple(f["grid"]) for f in m["faces"]}
assert m["spacing"] == 2 and len(grids) > 1, grids        # faces of different sizes, different grids
assert all(2 <= n <= 150 for g in grids for n in g), grids
PY

# One table by spacing: a cylinder of radius 10 and height 100 at 5 mm, 62.8 / 5 -> 14 nodes
# around, 100 / 5 -> 21 along.
"$surfdb" convert --analytic cylinder --radius 10 --length 100 --spacing 5 -o "$dir/cyl.sdb" 2>/dev/null || bad "--spacing one table"
if [ "$("$surfdb" info "$dir/cyl.sdb" --json | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["u_points"], j["v_points"])')" = "14 21" ]; then ok
else bad "--spacing grid of the cylinder: $("$surfdb" info "$dir/cyl.sdb" | grep points)"; fi

# Never mixed with what was there: a non-empty directory is refused; --force replaces a set, and
# only a set.
expect_error "into a set" "the directory is not empty (give --force to replace a surface set)" \
  "$surfdb" convert "$part" --faces 2 --grid 8x8 -o "$dir/cup.sdbs"
if "$surfdb" verify "$dir/cup.sdbs" >/dev/null 2>&1; then ok; else bad "a refused conversion changed the set"; fi
"$surfdb" convert "$part" --faces 2 --grid 8x8 -o "$dir/cup.sdbs" --force 2>/dev/null || bad "--force"
if [ "$(cd "$dir/cup.sdbs" && ls | tr '\n' ' ')" = "edges.json face_0002.sdb manifest.json " ]; then ok; else bad "--force left: $(ls "$dir/cup.sdbs")"; fi
mkdir "$dir/mine" && echo notes >"$dir/mine/notes.txt"
expect_error "--force on a foreign directory" "it holds notes.txt, which is not part of a surface set" \
  "$surfdb" convert "$part" --all-faces --grid 8x8 -o "$dir/mine" --force
expect_error "a file where the set goes" "a file of that name exists, not a directory" \
  "$surfdb" convert "$part" --all-faces --grid 8x8 -o "$dir/faces.csv"
expect_error "a set under a file" "cannot write the set $dir/faces.csv/all: $dir/faces.csv is not a directory" \
  "$surfdb" convert "$part" --all-faces --grid 8x8 -o "$dir/faces.csv/all"
expect_error "a face the part lacks" "face 99 does not exist" \
  "$surfdb" convert "$part" --faces 2,99 --grid 8x8 -o "$dir/none.sdbs"
expect_error "a range past the part's faces" "face $((faces + 1)) does not exist (faces are 1..$faces)" \
  "$surfdb" convert "$part" --faces 2-999999999 --grid 8x8 -o "$dir/none.sdbs"
if [ ! -e "$dir/none.sdbs" ]; then ok; else bad "a refused set was written"; fi

# Damage is named: the face, the file, the problem.
cp -r "$dir/again.sdbs" "$dir/damaged.sdbs"
printf 'x' | dd of="$dir/damaged.sdbs/face_0002.sdb" bs=1 seek=5000 conv=notrunc 2>/dev/null
expect_error "a damaged table" "$dir/damaged.sdbs, face 2 (face_0002.sdb): data record" "$surfdb" verify "$dir/damaged.sdbs"
cp -r "$dir/again.sdbs" "$dir/swapped.sdbs"
cp "$dir/some.sdbs/face_0003.sdb" "$dir/swapped.sdbs/face_0003.sdb"
expect_error "a table from another conversion" "face 3 (face_0003.sdb): its header does not match" "$surfdb" verify "$dir/swapped.sdbs"
rm "$dir/swapped.sdbs/face_0003.sdb"
expect_error "a missing table" "face 3 (face_0003.sdb): the table is missing" "$surfdb" info "$dir/swapped.sdbs"
sed -i 's/"format_version": 3/"format_version": 7/' "$dir/swapped.sdbs/manifest.json"
expect_error "a manifest from the future" "surface set format version 7 is not supported" "$surfdb" verify "$dir/swapped.sdbs"
expect_error "a directory that is no set" "no manifest.json" "$surfdb" verify "$dir/mine"

# Killed mid-set (SIGKILL): the half-written directory is hidden, and the next run removes it.
set -m
"$surfdb" convert "$part" --all-faces --grid 1500x1500 --float32 -o "$dir/killed.sdbs" 2>/dev/null &
pid=$!
for k in $(seq 1 200); do [ -n "$(find "$dir" -maxdepth 2 -name '*.sdb.*')" ] && break; sleep 0.05; done
kill -KILL "$pid"; wait "$pid" 2>/dev/null
set +m
if [ ! -e "$dir/killed.sdbs" ] && ls -d "$dir"/.killed.sdbs."$pid".?????? >/dev/null 2>&1; then ok
else bad "SIGKILL left: $(ls -A "$dir" | grep killed)"; fi
"$surfdb" convert "$part" --all-faces --grid 8x8 -o "$dir/killed.sdbs" 2>/dev/null || bad "rerun after SIGKILL"
if [ -z "$(ls -A "$dir" | grep '^\.killed')" ]; then ok; else bad "the stale directory stayed: $(ls -A "$dir" | grep killed)"; fi

# A damaged part (one face's entity garbled): read with a warning naming what was lost; --strict
# refuses it.
ln=$(grep -n "ADVANCED_FACE('" "$part" | sed -n 2p | cut -d: -f1)
sed "${ln}s/ADVANCED_FACE('/ADVANCED_FACE((('/" "$part" >"$dir/damaged.step"
"$surfdb" convert "$dir/damaged.step" --list-faces >"$dir/damaged.csv" 2>"$dir/err" || bad "damaged part: $(cat "$dir/err")"
if grep -q "warning: damaged.step is damaged or partly unsupported: .* could not be converted, so the part may lack faces" "$dir/err" \
   && [ "$(wc -l <"$dir/damaged.csv")" -eq "$faces" ]; then ok; else bad "damaged part: $(cat "$dir/err"), $(wc -l <"$dir/damaged.csv") lines"; fi
expect_error "--strict on a damaged part" "could not be converted, so the part may lack faces (--strict)" \
  "$surfdb" convert "$dir/damaged.step" --all-faces --grid 8x8 --strict -o "$dir/strict.sdbs"
if [ ! -e "$dir/strict.sdbs" ]; then ok; else bad "--strict wrote the set"; fi
if "$surfdb" convert "$part" --list-faces --strict 2>"$dir/err" >/dev/null && [ ! -s "$dir/err" ]; then ok; else bad "--strict on an intact part: $(cat "$dir/err")"; fi
expect_usage "--strict with --analytic" "--strict applies to an INPUT file" "$surfdb" convert --analytic plane --strict -o "$dir/x.sdb"

# Options that cannot apply.
expect_usage "--list-faces with --all-faces" "--all-faces does not apply" "$surfdb" convert "$part" --list-faces --all-faces
expect_usage "--list-faces with --max-size" "--max-size does not apply" "$surfdb" convert "$part" --list-faces --max-size 1G
expect_usage "--all-faces with --face" "--face converts one face into a table" "$surfdb" convert "$part" --all-faces --face 2 -o "$dir/x.sdbs"
expect_usage "--all-faces with --faces" "give --all-faces or --faces LIST, not both" "$surfdb" convert "$part" --all-faces --faces 2 -o "$dir/x.sdbs"
expect_usage "--spacing with --grid" "give --grid or --spacing, not both" "$surfdb" convert "$part" --all-faces --spacing 2 --grid 9x9 -o "$dir/x.sdbs"
expect_usage "--max-grid alone" "--max-grid bounds the grids --spacing chooses" "$surfdb" convert "$part" --all-faces --max-grid 9 -o "$dir/x.sdbs"
expect_usage "--force for a table" "--force applies to a surface set" "$surfdb" convert "$part" --face 2 --force -o "$dir/x.sdb"
expect_usage "--skip-bad-faces for a table" "--skip-bad-faces applies to a surface set" "$surfdb" convert "$part" --skip-bad-faces -o "$dir/x.sdb"
expect_usage "--faces 0" "faces are numbered from 1" "$surfdb" convert "$part" --faces 0,2 -o "$dir/x.sdbs"
expect_usage "--faces words" "'two' is not a face number" "$surfdb" convert "$part" --faces 1,two -o "$dir/x.sdbs"
expect_usage "--spacing 0" "--spacing: must be positive" "$surfdb" convert "$part" --all-faces --spacing 0 -o "$dir/x.sdbs"
expect_usage "--max-size words" "--max-size: '12 parsecs' is not a size" "$surfdb" convert "$part" --all-faces --max-size "12 parsecs" -o "$dir/x.sdbs"
if [ ! -e "$dir/x.sdbs" ] && [ ! -e "$dir/x.sdb" ]; then ok; else bad "a refused command wrote its output"; fi

# Scenarios on a set: a ball (analytic sphere) in the cup's inner face (face 4), found by a glob.
"$surfdb" convert "$part" --all-faces --grid 40x40 --record 8x8 -o "$dir/scene.sdbs" 2>/dev/null || bad "set for the scenes"
scene() {  # FILE TABLE-LINE PATTERN
  cat >"$1" <<TOML
[simulation]
end_time = 0.002
[[body]]
name = "ball1"
mass = 0.03
inertia = [1e-6, 1e-6, 1e-6]
position = [0.0, 0.0, -0.03999]
[[surface]]
name = "ball1"
body = "ball1"
sphere_radius = 0.01
[[surface]]
name = "cup"
body = "ground"
$2
[[contact]]
name = "c"
surface_i = "$3"
surface_j = "cup"
stiffness = 1e10
TOML
}
scene "$dir/ok.toml" 'table = "scene.sdbs"
faces = [4]' "ball*"
if "$surfdb" simulate "$dir/ok.toml" -o "$dir/ok" >/dev/null 2>"$dir/err" &&
   /usr/bin/python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['contacts'][0]; assert c['name']=='c' and c['pairs_touched']==1 and c['max_points']==1, c" "$dir/ok/summary.json"; then
  ok
else
  bad "a sphere in a set's face: $(cat "$dir/err")"
fi
scene "$dir/glob.toml" 'table = "scene.sdbs"' "marble*"
expect_error "a pattern matching nothing" "contact 'c'.surface_i: the pattern 'marble*' matches no surface" "$surfdb" simulate "$dir/glob.toml" -o "$dir/glob"
scene "$dir/face.toml" 'table = "scene.sdbs"
faces = [99]' "ball1"
expect_error "a face the set does not hold" "holds no face 99" "$surfdb" simulate "$dir/face.toml" -o "$dir/face"
cp "$dir/ok/../scene.sdbs/face_0004.sdb" "$dir/single.sdb"
scene "$dir/single.toml" 'table = "single.sdb"
faces = [4]' "ball1"
expect_error "faces on a single table" "applies to a surface set (.sdbs), not to the single table" "$surfdb" simulate "$dir/single.toml" -o "$dir/single"
rm "$dir/scene.sdbs/face_0002.sdb"
expect_error "a set missing a table" "face 2 (face_0002.sdb): the table is missing" "$surfdb" simulate "$dir/ok.toml" -o "$dir/missing"
if [ ! -e "$dir/glob/summary.json" ] && [ ! -e "$dir/face/summary.json" ] && [ ! -e "$dir/missing/summary.json" ]; then ok; else bad "a refused scenario wrote outputs"; fi

finish
