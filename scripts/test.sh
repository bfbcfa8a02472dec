#!/usr/bin/env bash
# Sets everything up and runs the whole test suite (what CI runs): the main build's tests with
# the 60 s soak, short fuzz runs, then everything again under ASan + UBSan in a second build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
"$root/scripts/fuzz.sh" 60  # header and scenario readers under libFuzzer + ASan + UBSan
(cd "$root/build" && ctest --parallel "$(nproc)" --output-on-failure)
"$root/scripts/test-sanitizers.sh"
