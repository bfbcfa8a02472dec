#!/usr/bin/env bash
# Sets everything up and runs the whole test suite (what CI runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
"$root/scripts/fuzz.sh" 60  # header and scenario readers under libFuzzer + ASan + UBSan
cd "$root/build"
ctest --parallel "$(nproc)" --output-on-failure
