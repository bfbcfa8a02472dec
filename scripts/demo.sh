#!/usr/bin/env bash
# Sets everything up and runs the main job: convert a sample part, inspect, verify and query it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
surfdb="$root/build/tools/surfdb"
out="$root/out/demo"
mkdir -p "$out"

echo "== convert the paper's octant (R = 50 mm) at 999 x 999 points in 27 x 27 records"
"$surfdb" convert --analytic octant --radius 50 -o "$out/octant.sdb"
"$surfdb" info "$out/octant.sdb"
"$surfdb" verify "$out/octant.sdb"
