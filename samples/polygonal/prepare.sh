#!/usr/bin/env bash
# Makes the polygonal samples' surfaces: the bubbles' and the container's meshes from the
# parts-in-contact sample's STEP parts (surfdb mesh), and the ball-in-socket tables (a ball of
# 49.5 mm and a 50 mm socket, analytic spheres sampled as 999 x 999 tables, whose grids serve as
# meshes). Idempotent: an output that verifies and is newer than its input is kept.
# Usage (from anywhere): samples/polygonal/prepare.sh [PATH/TO/surfdb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
surfdb=${1:-"$here/../../build/tools/surfdb"}
parts="$here/../parts_in_contact"
mkdir -p "$here/meshes" "$here/tables"

fresh() {  # OUTPUT INPUT: whether OUTPUT is newer than INPUT and verifies
  [ -e "$1" ] && [ "$1" -nt "$2" ] && "$surfdb" verify "$1" >/dev/null 2>&1
}
mesh() {  # PART NAME DEFLECTION
  local out="$here/meshes/$2.mesh"
  if fresh "$out" "$parts/$1.step"; then echo "prepare: $2.mesh is up to date"; return; fi
  "$surfdb" mesh "$parts/$1.step" --deflection "$3" -o "$out"
}
sphere() {  # NAME RADIUS [--flip-normals]
  local out="$here/tables/$1.sdb"
  if fresh "$out" "$0"; then echo "prepare: $1.sdb is up to date"; return; fi
  "$surfdb" convert --analytic sphere --radius "$2" "${@:3}" -o "$out"
}

mesh ball bubble 0.1        # 970 triangles, like the paper's bubbles of about 950
mesh bowl container 1       # the hemispherical bowl (inner radius 60 mm), 740 triangles
# The ball whole; the socket the half x >= 0 of its sphere (u from -pi/2 to pi/2), its normals
# towards the centre. The scenarios turn the surface x axis down, so that the contact lies at
# (u, v) = (0, 0), away from the parameterisation's poles (on the horizontal axis).
sphere socket_ball 49.5
sphere socket 50 --u-range -1.5707963267948966 1.5707963267948966 --flip-normals
