#!/usr/bin/env bash
# Converts the parts-in-contact sample's parts (made by build/tools/make_contact_parts, committed
# here) into surface sets, every face with nodes about 1 mm apart (the balls 0.1 mm), and writes
# the bowl-of-balls scenario. Idempotent: a set newer than its part that verifies is kept.
# Usage (from anywhere): samples/parts_in_contact/prepare.sh [PATH/TO/surfdb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
surfdb=${1:-"$here/../../build/tools/surfdb"}
mkdir -p "$here/tables"

convert() {  # PART SPACING
  local part="$here/$1.step" set="$here/tables/$1.sdbs"
  if [ -d "$set" ] && [ "$set" -nt "$part" ] && "$surfdb" verify "$set" >/dev/null 2>&1; then
    echo "prepare: $1.sdbs is up to date"
    return
  fi
  "$surfdb" convert "$part" --all-faces --spacing "$2" --max-grid 999 --force -o "$set"
}

convert v_groove 1
convert seam_plate 1
convert fillet_ramp 1
convert bowl 1
convert holed_plate 1
convert ball 0.1
convert rod 1
convert block 1
python3 "$here/bowl_of_balls.py" > "$here/bowl_of_balls.toml"
