#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer) in
# build-fuzz/ and runs each for SECONDS (default 60) from its seed corpus in tests/fuzz/corpus/.
# New inputs go to build-fuzz/corpus/; a crash stops the run with its input saved and exit 1.
# Usage: scripts/fuzz.sh [SECONDS]     (a long run: scripts/fuzz.sh 3600)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
"$root/scripts/install-deps.sh"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"
cmake -S "$root" -B "$root/build-fuzz" -G Ninja -DSURFDB_FUZZ_ONLY=ON -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$root/build-fuzz" --parallel "$(nproc)" >/dev/null
for target in header scenario; do
  corpus="$root/build-fuzz/corpus/$target"
  mkdir -p "$corpus"
  echo "fuzz: $target for $seconds s"
  (cd "$root/build-fuzz" && ASAN_OPTIONS=detect_leaks=0 "./tests/fuzz/fuzz_$target" -max_total_time="$seconds" \
     -max_len=65536 -print_final_stats=1 "$corpus" "$root/tests/fuzz/corpus/$target" 2>&1 |
     grep -E "^stat::number_of_executed_units|^stat::peak_rss|ERROR|SUMMARY|Test unit written" || true)
  if ls "$root/build-fuzz"/crash-* >/dev/null 2>&1; then
    echo "fuzz: $target found a crash: $(ls "$root/build-fuzz"/crash-*)"
    exit 1
  fi
done
