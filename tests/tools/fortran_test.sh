#!/usr/bin/env bash
# Builds samples/embedding/fortran against the runtime library and checks that it prints the same
# numbers as `surfdb query` (the same answer through C++ and through Fortran).
# Usage: fortran_test.sh SOURCE_DIR RUNTIME_LIBRARY_DIR PATH/TO/surfdb
set -euo pipefail
source=$1
libdir=$2
surfdb=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v gfortran >/dev/null; then echo "gfortran missing"; exit 1; fi
cd "$dir"
# shellcheck disable=SC2086
gfortran ${SURFDB_EXAMPLE_FLAGS:-} -J "$dir" "$source/samples/embedding/fortran/surfdb.f90" "$source/samples/embedding/fortran/probe_surface.f90" -L "$libdir" -lsurfdb_c -Wl,-rpath,"$libdir" -o probe
"$surfdb" convert --analytic octant --grid 200x200 --record 16x16 -o octant.sdb 2>/dev/null
./probe octant.sdb 0.3 0.9 >fortran.txt
"$surfdb" query octant.sdb --uv 0.3 0.9 | sed -n 2p >cpp.txt
python3 - <<'PY'
f = open("fortran.txt").read().split()
c = open("cpp.txt").read().strip().split(",")
p, n, status = [float(x) for x in f[0:3]], [float(x) for x in f[3:6]], int(f[6])
assert p == [float(x) for x in c[2:5]], (p, c[2:5])
assert n == [float(x) for x in c[5:8]], (n, c[5:8])
assert status == 0 and c[14] == "1"
p_d1, n_d1 = [float(x) for x in f[7:10]], [float(x) for x in f[10:13]]
assert p_d1 == p and n_d1 == n, (p_d1, n_d1)
PY
echo "1 passed, 0 failed"
