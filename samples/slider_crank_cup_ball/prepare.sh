#!/usr/bin/env bash
# Converts the demonstration's parts into lookup tables at the paper's resolution (999 x 999
# points in 27 x 27 records): tables/cup.sdb from cup.step (face 4, the inner sphere) and
# tables/ball.sdb from ball.igs. Idempotent: a table newer than its part that verifies is kept.
# Usage (from anywhere): samples/slider_crank_cup_ball/prepare.sh [PATH/TO/surfdb]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
surfdb=${1:-"$here/../../build/tools/surfdb"}
mkdir -p "$here/tables"

convert() {  # PART FACE TABLE
  local part="$here/$1" face=$2 table="$here/tables/$3"
  if [ -f "$table" ] && [ "$table" -nt "$part" ] && "$surfdb" verify "$table" >/dev/null 2>&1; then
    echo "prepare: $3 is up to date"
    return
  fi
  "$surfdb" convert "$part" --face "$face" --grid 999x999 --record 27x27 -o "$table"
}

convert cup.step 4 cup.sdb
convert ball.igs 1 ball.sdb
