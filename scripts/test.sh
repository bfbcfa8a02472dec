#!/usr/bin/env bash
# Sets everything up and runs the whole test suite (what CI runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build"
ctest --parallel "$(nproc)" --output-on-failure
