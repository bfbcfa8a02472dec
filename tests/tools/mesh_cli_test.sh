#!/usr/bin/env bash
# surfdb mesh as a user meets it: real parts meshed closed, read back by info and verify, the same
# bytes on every run; open and non-manifold parts, bad options and damaged files refused.
# Usage: mesh_cli_test.sh PATH/TO/surfdb CAD-DIRECTORY (exits 77, skipped, without the directory)
set -u
surfdb=$1
cad=$2
[ -f "$cad/README.md" ] || { echo "no CAD directory at $cad: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

# json_check FILE PYTHON-EXPRESSION...: each expression, with j the JSON in FILE, is true.
json_check() {
  local what=$1 file=$2
  shift 2
  if python3 - "$file" "$@" <<'PY'; then ok; else bad "$what"; fi
import json, sys
j = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    if not eval(e):
        sys.exit(f"false: {e} (in {j})")
PY
}

# A multi-face STEP part (18 faces: planes, half cylinders) that meshes closed.
plate=$cad/bug3883_xr2-ct-214_plate.stp
if "$surfdb" mesh "$plate" --deflection 0.1 -o "$dir/plate.mesh" >"$dir/report" 2>"$dir/err"; then ok; else bad "mesh the plate: $(cat "$dir/err")"; fi
if grep -q "^closed  *yes" "$dir/report" && grep -q "^consistent  *yes" "$dir/report" && grep -q "^turned_over  *no" "$dir/report"; then ok
else bad "the plate's report: $(cat "$dir/report")"; fi
[ -s "$dir/err" ] && bad "mesh wrote to standard error: $(cat "$dir/err")"
"$surfdb" info "$dir/plate.mesh" --json >"$dir/info.json" || bad "info --json on a mesh"
json_check "info --json: unit, source, counts, box, closed" "$dir/info.json" \
  'j["length_unit"] == "mm"' 'j["source"] == {"kind": "step", "name": "bug3883_xr2-ct-214_plate.stp"}' \
  'j["vertices"] > 100 and j["triangles"] > 2 * j["vertices"] - 10' \
  'j["bounding_box"]["min"] == [0, 0, 0] and j["bounding_box"]["max"] == [180, 150, 20]' \
  'j["open_edges"] == 0 and j["non_manifold_edges"] == 0 and j["misoriented_edges"] == 0 and j["closed"]' \
  '530000 < j["volume"] < 540000' 'j["area"] > 0'
if "$surfdb" info "$dir/plate.mesh" | grep -q "^open_edges  *0$"; then ok; else bad "info as text"; fi
if "$surfdb" verify "$dir/plate.mesh" | grep -q "intact (header, .* closed and consistently oriented)"; then ok
else bad "verify an intact mesh"; fi

# The same part and options give the same bytes; a finer deflection more triangles.
"$surfdb" mesh "$plate" --deflection 0.1 -o "$dir/again.mesh" >/dev/null 2>&1
if cmp -s "$dir/plate.mesh" "$dir/again.mesh"; then ok; else bad "the same part and options give different bytes"; fi
"$surfdb" mesh "$plate" --all-faces --deflection 0.02 --angle 5 -o "$dir/fine.mesh" >/dev/null 2>&1 || bad "a finer mesh"
"$surfdb" info "$dir/fine.mesh" --json >"$dir/fine.json"
json_check "a finer deflection gives more triangles" "$dir/fine.json" \
  "j['triangles'] > $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["triangles"])' "$dir/info.json")"
# B-spline faces close too.
if "$surfdb" mesh "$cad/xr1-tu-plt.stp" --deflection 0.05 -o "$dir/bspline.mesh" >/dev/null 2>&1; then ok
else bad "mesh a part with B-spline faces"; fi

# Parts that bound no solid are refused, nothing written, unless --allow-open; an old file stays.
cp "$dir/plate.mesh" "$dir/kept.mesh"
expect_error "an open part" "not writing $dir/kept.mesh: 4 open edges (the mesh is not closed); --allow-open writes it anyway" \
  "$surfdb" mesh "$cad/trj6_c1-ct-203.stp" --deflection 0.1 -o "$dir/kept.mesh"
if cmp -s "$dir/plate.mesh" "$dir/kept.mesh"; then ok; else bad "a refused mesh replaced the old file"; fi
expect_error "a non-manifold part" "used by more than two triangles (non-manifold)" \
  "$surfdb" mesh "$cad/trj12_is1-oc-214.stp" --deflection 0.1 -o "$dir/nm.mesh"
expect_error "faces disagreeing in orientation (IGES faces are not sewn)" "disagree in orientation" \
  "$surfdb" mesh "$cad/OCC8842_cone_CATIA.igs" --deflection 0.1 -o "$dir/cone.mesh"
[ -e "$dir/nm.mesh" ] || [ -e "$dir/cone.mesh" ] && bad "a refused mesh was written"
if "$surfdb" mesh "$cad/trj6_c1-ct-203.stp" --deflection 0.1 --allow-open -o "$dir/open.mesh" >/dev/null 2>&1; then ok
else bad "--allow-open writes an open mesh"; fi
"$surfdb" info "$dir/open.mesh" --json >"$dir/open.json"
json_check "an open mesh's info" "$dir/open.json" 'j["open_edges"] == 4 and not j["closed"] and j["volume"] is None'
if "$surfdb" verify "$dir/open.mesh" | grep -q "intact (.*; 4 open edges)"; then ok; else bad "verify an open mesh"; fi
# One face is open by nature: allowed without --allow-open.
if "$surfdb" mesh "$plate" --face 3 --deflection 0.1 -o "$dir/face.mesh" >"$dir/report" 2>&1 && grep -q "face 3" "$dir/report"
then ok; else bad "mesh one face: $(cat "$dir/report")"; fi

# Bad options and inputs: one line, no output.
expect_usage "deflection zero" "--deflection: must be positive" "$surfdb" mesh "$plate" --deflection 0 -o "$dir/x.mesh"
expect_usage "no deflection" "--deflection D is required" "$surfdb" mesh "$plate" -o "$dir/x.mesh"
expect_usage "no output" "--output is required" "$surfdb" mesh "$plate" --deflection 0.1
expect_usage "--face and --all-faces" "not both" "$surfdb" mesh "$plate" --face 2 --all-faces --deflection 0.1 -o "$dir/x.mesh"
expect_usage "angle beyond 180 degrees" "at most 180" "$surfdb" mesh "$plate" --deflection 0.1 --angle 200 -o "$dir/x.mesh"
expect_error "a face that does not exist" "face 19 does not exist (faces are 1..18)" \
  "$surfdb" mesh "$plate" --face 19 --deflection 0.1 -o "$dir/x.mesh"
expect_error "a missing part" "no such file" "$surfdb" mesh "$dir/none.step" --deflection 0.1 -o "$dir/x.mesh"
echo "not a STEP file" >"$dir/junk.step"
expect_error "an unreadable part" "cannot read this as a STEP file" "$surfdb" mesh "$dir/junk.step" --deflection 0.1 -o "$dir/x.mesh"
expect_error "output is a directory" "it is a directory" "$surfdb" mesh "$plate" --deflection 0.1 -o "$dir"
cp "$plate" "$dir/copy.step"
expect_error "output is the input" "it is the input" "$surfdb" mesh "$dir/copy.step" --deflection 0.1 -o "$dir/copy.step"
if cmp -s "$plate" "$dir/copy.step"; then ok; else bad "the input was overwritten"; fi
[ -e "$dir/x.mesh" ] && bad "a failed command left x.mesh"

# STL: repeated vertices merged; a solid written inside out is turned over.
python3 - "$dir" <<'PY'
import sys
p = [(0, 0, 0), (10, 0, 0), (0, 10, 0), (0, 0, 10)]
out = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
for name, tris in (("tet.stl", out), ("inside_out.stl", [(a, c, b) for a, b, c in out])):
    with open(f"{sys.argv[1]}/{name}", "w") as f:
        f.write("solid t\n")
        for t in tris:
            f.write(" facet normal 0 0 0\n  outer loop\n")
            for i in t:
                f.write("   vertex %g %g %g\n" % p[i])
            f.write("  endloop\n endfacet\n")
        f.write("endsolid t\n")
PY
"$surfdb" mesh "$dir/tet.stl" -o "$dir/tet.mesh" >"$dir/report" 2>&1 || bad "mesh an STL: $(cat "$dir/report")"
"$surfdb" info "$dir/tet.mesh" --json >"$dir/tet.json"
json_check "an STL's mesh" "$dir/tet.json" 'j["vertices"] == 4 and j["triangles"] == 4 and j["closed"]' \
  'abs(j["volume"] - 1000 / 6) < 1e-9' 'j["source"]["kind"] == "stl"'
if "$surfdb" mesh "$dir/inside_out.stl" -o "$dir/io.mesh" | grep -q "^turned_over  *yes"; then ok; else bad "inside-out STL turned over"; fi
echo "not an STL file" >"$dir/junk.stl"
expect_error "an unreadable STL" "junk.stl: OpenCASCADE cannot read this as an STL file" "$surfdb" mesh "$dir/junk.stl" -o "$dir/x.mesh"
[ -s "$dir/out" ] && bad "an unreadable STL: OpenCASCADE wrote to standard output: $(cat "$dir/out")"
expect_usage "--deflection with an STL" "--deflection does not apply to an STL file" \
  "$surfdb" mesh "$dir/tet.stl" --deflection 0.1 -o "$dir/x.mesh"

# Damage anywhere is found by verify (and info), naming the problem.
damage() {  # damage SOURCE DEST OFFSET: DEST is SOURCE with the byte at OFFSET (negative: from the end) flipped
  python3 - "$@" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[int(sys.argv[3])] ^= 0x20
open(sys.argv[2], "wb").write(b)
PY
}
damage "$dir/plate.mesh" "$dir/d1.mesh" 100
expect_error "a damaged header" "header is damaged" "$surfdb" verify "$dir/d1.mesh"
damage "$dir/plate.mesh" "$dir/d2.mesh" 600
expect_error "a damaged vertex" "vertex block damaged" "$surfdb" verify "$dir/d2.mesh"
damage "$dir/plate.mesh" "$dir/d3.mesh" -5
expect_error "a damaged triangle" "triangle block damaged" "$surfdb" verify "$dir/d3.mesh"
expect_error "info on a damaged mesh" "triangle block damaged" "$surfdb" info "$dir/d3.mesh"
head -c 2000 "$dir/plate.mesh" >"$dir/short.mesh"
expect_error "a truncated mesh" "(truncated)" "$surfdb" verify "$dir/short.mesh"
damage "$dir/plate.mesh" "$dir/magic.mesh" 0
expect_error "a .mesh with a damaged magic" "not a mesh file (wrong magic bytes)" "$surfdb" verify "$dir/magic.mesh"

finish
