#!/usr/bin/env bash
# Builds surfdb with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer into
# build-sanitizers/ and runs the whole test suite there; any report fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
dir=$root/build-sanitizers
# -g1: line tables only, all a report's stack needs (files, lines, functions); a quarter less
# compile time than -g and a fifth of the objects' size.
flags="-O2 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None -DSURFDB_BUILD_BENCHMARKS=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_Fortran_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
# Set before the build too: the build runs each doctest executable to list its tests. FreeImage,
# which OpenCASCADE's XCAF libraries load, frees with free() at exit what it allocated with
# operator new: not ours, so ASan's alloc-dealloc-mismatch check is off.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:alloc_dealloc_mismatch=0"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cmake --build "$dir" --parallel "$(nproc)"
# Python loads the module built with ASan: the runtime must come first, and Python's own
# interpreter-lifetime allocations are not leaks of ours.
export SURFDB_ASAN_PRELOAD
SURFDB_ASAN_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
cd "$dir"
# The 60 s soak, the new-user trial (6,000 processes) and the scene tests labelled slow (the
# hundred balls in a bowl, every primitive scene's energy, the polygonal demo ball: long runs of
# code that quicker tests run here too) run in the main suite; under the sanitizers each would
# take minutes more.
ctest --parallel "$(nproc)" --output-on-failure --label-exclude "soak|trial|mpi|slow"
# Open MPI keeps allocations until exit in components it loads and unloads again, which
# LeakSanitizer cannot name for a suppression: the MPI tests run under ASan and UBSan without
# leak detection.
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=1:alloc_dealloc_mismatch=0" \
  ctest --output-on-failure --label-regex mpi
