#!/usr/bin/env bash
# Converts the cam-follower benchmark's parts (made by build/tools/make_cam_follower, committed
# here) into lookup tables in tables/: each cam's lateral face (face 1, u = the cam angle theta,
# periodic, v along the 10 mm extrusion) at 201 and at 999 points along the profile, 5 across
# (the extrusion is straight, so the table is exact across), and the flat follower's crowned
# contact face (face 1, a cylinder of radius 500 mm across z: 15 x 41 points, 1 mm apart). Then checks the cam tables against the
# closed-form profiles (check_tables.py). Idempotent: a table newer than its part that verifies
# is kept.
# Usage (from anywhere): samples/cam_follower/prepare.sh [PATH/TO/surfdb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
surfdb=${1:-"$here/../../build/tools/surfdb"}
mkdir -p "$here/tables"

convert() {  # PART FACE GRID RECORD TABLE
  local part="$here/$1.step" table="$here/tables/$5.sdb"
  if [ -f "$table" ] && [ "$table" -nt "$part" ] && "$surfdb" verify "$table" >/dev/null 2>&1; then
    echo "prepare: $5.sdb is up to date"
    return
  fi
  "$surfdb" convert "$part" --face "$2" --grid "$3" --record "$4" -o "$table"
  "$surfdb" verify "$table"
}

for cam in flat sphere; do
  convert "cam_$cam" 1 201x5 27x5 "cam_${cam}_201"
  convert "cam_$cam" 1 999x5 27x5 "cam_${cam}_999"
done
convert follower_flat 1 15x41 15x41 follower_flat

python=python3  # numpy is needed; Debian's python3 has it where another first on PATH may not
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
"$python" "$here/check_tables.py" "$surfdb" "$here/tables"
