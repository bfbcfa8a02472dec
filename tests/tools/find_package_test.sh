#!/usr/bin/env bash
# Installs surfdb into a temporary prefix, builds samples/embedding/cpp against the installed CMake
# package, and checks its answer on the octant against the closed form.
# Usage: find_package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/lib/cmake/surfdb/surfdbConfigVersion.cmake"
test -f "$prefix/lib/pkgconfig/surfdb-runtime.pc"
cmake -S "$source/samples/embedding/cpp" -B "$prefix/example" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$prefix/example" >/dev/null
# The runtime alone: the example links no OpenCASCADE library.
if ldd "$prefix/example/probe_surface" | grep -q libTK; then echo "FAIL: example links OpenCASCADE"; exit 1; fi
"$prefix/bin/surfdb" convert --analytic octant --grid 301x301 --record 20x20 -o "$prefix/octant.sdb" 2>/dev/null
out=$("$prefix/example/probe_surface" "$prefix/octant.sdb")
echo "$out"
# The diagonal u = v = s pi/2 of the octant; the foot of (10, 20, 30) is 50 (10, 20, 30) / |.|.
python3 - "$out" <<'PY'
import math, re, sys
text = sys.argv[1]
length = float(re.search(r"diagonal length ([0-9.]+)", text).group(1))
f = lambda s: (50 * math.cos(s) * math.cos(s), 50 * math.cos(s) * math.sin(s), 50 * math.sin(s))
exact = sum(math.dist(f(math.pi / 2 * k / 100000), f(math.pi / 2 * (k + 1) / 100000)) for k in range(100000))
assert abs(length - exact) < 1e-3 * exact, (length, exact)
foot = [float(x) for x in re.search(r"\(([-0-9.]+), ([-0-9.]+), ([-0-9.]+)\), distance", text).groups()]
norm = math.sqrt(1400)
assert max(abs(a - 50 * b / norm) for a, b in zip(foot, (10, 20, 30))) < 1e-3, foot
PY
# The installed Python module, where the default prefix's python3 would look for it.
for site in "$prefix"/lib/python3*/dist-packages; do
  [ -d "$site/surfdb" ] || continue
  PYTHONPATH=$site /usr/bin/python3 - "$prefix/octant.sdb" <<'PY'
import math, sys, surfdb
q = surfdb.Database(sys.argv[1]).binding().query(0.3, 0.9)
exact = (50 * math.cos(0.3) * math.cos(0.9), 50 * math.cos(0.3) * math.sin(0.9), 50 * math.sin(0.3))
assert max(abs(a - b) for a, b in zip(q.p, exact)) < 1e-3, (q.p, exact)
PY
  if ldd "$site/surfdb/"_surfdb*.so | grep -q "$build"; then echo "FAIL: installed module links the build tree"; exit 1; fi
done
echo "1 passed, 0 failed"
