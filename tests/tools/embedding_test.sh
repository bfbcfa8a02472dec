#!/usr/bin/env bash
# surfdb as other programs embed it: installs into a temporary prefix, builds the examples of
# samples/embedding against the install tree (C++ through find_package, C through pkg-config,
# Fortran through the C API, Python through the installed module), and checks their answers:
# the octant probe against its closed form, and the ball-in-cup loop in all four languages against
# each other (same arithmetic, same numbers) and against Hertz's closed-form impact, and the same
# drop in surfdb's own multibody loop (cpp/ball_in_cup_run.cpp) against them.
# Usage: embedding_test.sh BUILD_DIR SOURCE_DIR
# In a sanitizer build, SURFDB_EXAMPLE_FLAGS instruments the examples and SURFDB_PYTHON_PRELOAD
# loads the sanitizer runtimes into Python (tests/CMakeLists.txt sets both).
set -euo pipefail
flags=${SURFDB_EXAMPLE_FLAGS:-}
build=$1
source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/lib/cmake/surfdb/surfdbConfigVersion.cmake"
test -f "$prefix/lib/pkgconfig/surfdb-runtime.pc"
examples=$source/samples/embedding

# C++: find_package(surfdb) from the install tree; the runtime alone, no OpenCASCADE library.
cmake -S "$examples/cpp" -B "$prefix/cpp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$prefix/cpp" >/dev/null
for program in probe_surface ball_in_cup ball_in_cup_run; do
  if ldd "$prefix/cpp/$program" | grep -q libTK; then echo "FAIL: $program links OpenCASCADE"; exit 1; fi
done
# C: pkg-config; Fortran: the C API's module and its library.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046,SC2086
cc -std=c99 -O2 -Wall -Werror $flags "$examples/c/ball_in_cup.c" $(pkg-config --cflags --libs surfdb-runtime) -lm \
  -Wl,-rpath,"$prefix/lib" -o "$prefix/ball_in_cup_c"
# shellcheck disable=SC2086
gfortran -O2 $flags -J "$prefix" "$examples/fortran/surfdb.f90" "$examples/fortran/ball_in_cup.f90" -L "$prefix/lib" \
  -lsurfdb_c -Wl,-rpath,"$prefix/lib" -o "$prefix/ball_in_cup_f"
site=$(echo "$prefix"/lib/python3*/dist-packages)
surfdb_python() {  # Debian's python3 with the installed module
  if [ -n "${SURFDB_PYTHON_PRELOAD:-}" ]; then
    LD_PRELOAD=$SURFDB_PYTHON_PRELOAD ASAN_OPTIONS=detect_leaks=0:alloc_dealloc_mismatch=0 PYTHONPATH=$site /usr/bin/python3 "$@"
  else
    PYTHONPATH=$site /usr/bin/python3 "$@"
  fi
}

# The command: only its CAD commands' program (libexec/surfdb/surfdb-cad) loads OpenCASCADE.
if ldd "$prefix/bin/surfdb" | grep -q libTK; then echo "FAIL: bin/surfdb links OpenCASCADE"; exit 1; fi
"$prefix/bin/surfdb" convert --analytic octant --grid 301x301 --record 20x20 -o "$prefix/octant.sdb" 2>"$prefix/convert.err" ||
  { echo "FAIL: the installed surfdb convert:"; cat "$prefix/convert.err"; exit 1; }
out=$("$prefix/cpp/probe_surface" "$prefix/octant.sdb")
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
surfdb_python - "$prefix/octant.sdb" <<'PY'
import math, sys, surfdb
q = surfdb.Database(sys.argv[1]).binding().query(0.3, 0.9)
exact = (50 * math.cos(0.3) * math.cos(0.9), 50 * math.cos(0.3) * math.sin(0.9), 50 * math.sin(0.3))
assert max(abs(a - b) for a, b in zip(q.p, exact)) < 1e-3, (q.p, exact)
PY
if ldd "$site/surfdb/"_surfdb*.so | grep -q "$build"; then echo "FAIL: installed module links the build tree"; exit 1; fi

# The ball-in-cup loop on the demonstration's CAD parts, converted by the installed command.
parts=$source/samples/slider_crank_cup_ball
"$prefix/bin/surfdb" convert "$parts/ball.igs" --face 1 --grid 301x301 --record 20x20 -o "$prefix/ball.sdb" 2>/dev/null
"$prefix/bin/surfdb" convert "$parts/cup.step" --face 4 --grid 301x301 --record 20x20 -o "$prefix/cup.sdb" 2>/dev/null
tables=("$prefix/ball.sdb" "$prefix/cup.sdb")
"$prefix/cpp/ball_in_cup" "${tables[@]}" >"$prefix/cpp.txt"
"$prefix/cpp/ball_in_cup_run" "${tables[@]}" >"$prefix/run.txt"
"$prefix/ball_in_cup_c" "${tables[@]}" >"$prefix/c.txt"
"$prefix/ball_in_cup_f" "${tables[@]}" >"$prefix/fortran.txt"
surfdb_python "$examples/python/ball_in_cup.py" "${tables[@]}" >"$prefix/python.txt"
cat "$prefix/c.txt"
python3 - "$prefix" <<'PY'
import math, sys
runs = {}
for language in ("cpp", "c", "fortran", "python"):
    runs[language] = {k: float(v) for k, v in (line.split() for line in open(f"{sys.argv[1]}/{language}.txt"))}
c = runs["c"]
for language, r in runs.items():
    assert r.keys() == c.keys(), language
    for k in c:
        assert math.isclose(r[k], c[k], rel_tol=1e-9), (language, k, r[k], c[k])
# Hertz's impact (Johnson, Contact Mechanics, 1985, §11.4): a drop of h = 5 mm gives v = sqrt(2 g h); the peak indentation is
# (5 m v^2 / 4 K)^(2/5) and the contact lasts 2.9432 delta_max / v; an elastic law rebounds at v.
g, h, m, K, dt = 9.81, 0.005, 0.011, 5.0181e9, 1e-6
v = math.sqrt(2 * g * h)
delta = (5 * m * v * v / (4 * K)) ** 0.4
assert abs(c["first_contact_time"] - math.sqrt(2 * h / g)) <= 2 * dt, c
assert math.isclose(c["impact_speed"], v, rel_tol=1e-4), (c["impact_speed"], v)
assert math.isclose(c["max_indentation"], delta, rel_tol=2e-3), (c["max_indentation"], delta)
assert math.isclose(c["contact_duration"], 2.9432 * delta / v, rel_tol=3e-2), (c["contact_duration"], 2.9432 * delta / v)
assert math.isclose(c["rebound_speed"], c["impact_speed"], rel_tol=1e-3), c
# The same drop in surfdb's own loop (Simulation::run, AB4 at the same step): the same impact to
# the integrators' difference, far inside the closed form's tolerances above.
run = {k: float(v) for k, v in (line.split() for line in open(f"{sys.argv[1]}/run.txt"))}
assert run.keys() == c.keys(), run
assert abs(run["first_contact_time"] - c["first_contact_time"]) <= dt, run
for k in ("impact_speed", "max_indentation", "rebound_speed"):
    assert math.isclose(run[k], c[k], rel_tol=2e-4), (k, run[k], c[k])
assert abs(run["contact_duration"] - c["contact_duration"]) <= 2 * dt, run
PY
# A scenario run by surfdb's own loop from C and from Python, against the installed command.
scenario=$parts/hertz_analytic.toml
# shellcheck disable=SC2086
cc -std=c99 -O2 -Wall -Werror $flags "$examples/c/run_scenario.c" -I"$prefix/include" -L"$prefix/lib" \
  -lsurfdb_c_simulation -lsurfdb_c -Wl,-rpath,"$prefix/lib" -o "$prefix/run_scenario_c"
"$prefix/run_scenario_c" "$scenario" 0.025 >"$prefix/run_c.txt"
surfdb_python "$examples/python/run_scenario.py" "$scenario" 0.025 >"$prefix/run_py.txt"
SURFDB_PLOT_SCRIPT=/bin/true "$prefix/bin/surfdb" simulate "$scenario" -o "$prefix/sim" --end-time 0.025 2>/dev/null
cmp "$prefix/run_c.txt" "$prefix/run_py.txt"
python3 - "$prefix" <<'PY'
import csv, json, sys
run = {k: float(v) for k, v in (line.split() for line in open(f"{sys.argv[1]}/run_c.txt"))}
summary = json.load(open(f"{sys.argv[1]}/sim/summary.json"))
rows = list(csv.DictReader(open(f"{sys.argv[1]}/sim/time_series.csv")))
contact = summary["contacts"][0]
assert run["end_time"] == summary["end_time"] and run["steps"] == summary["steps"], run
assert run["outputs"] == len(rows), (run["outputs"], len(rows))
assert run["first_body_z"] == float(rows[-1][list(rows[-1])[3]]), run  # the first body's z column
assert run["energy_initial"] == summary["energy"]["initial"] and run["energy_final"] == summary["energy"]["final"]
assert run["contact0_first_contact_time"] == contact["first_contact_time"], run
assert run["contact0_impacts"] == contact["impacts"] and run["contact0_max_indentation"] == contact["max_indentation"]
PY
# A model stepped from Fortran through model.h against the installed command: the bouncing ball's
# steps (CVODE Adams), the time reached and the height, bit for bit.
ball=$source/samples/integrators/bouncing_ball.toml
# shellcheck disable=SC2086
gfortran -O2 $flags -J "$prefix" "$examples/fortran/surfdb.f90" "$examples/fortran/step_scenario.f90" -L "$prefix/lib" \
  -lsurfdb_c_simulation -lsurfdb_c -Wl,-rpath,"$prefix/lib" -o "$prefix/step_scenario_f"
"$prefix/step_scenario_f" "$ball" 0.05 >"$prefix/step_f.txt"
SURFDB_PLOT_SCRIPT=/bin/true "$prefix/bin/surfdb" simulate "$ball" -o "$prefix/ball" --end-time 0.05 2>/dev/null
python3 - "$prefix" <<'PY'
import csv, json, sys
run = {k: float(v) for k, v in (line.split() for line in open(f"{sys.argv[1]}/step_f.txt"))}
summary = json.load(open(f"{sys.argv[1]}/ball/summary.json"))
last = list(csv.DictReader(open(f"{sys.argv[1]}/ball/time_series.csv")))[-1]
assert run["end_time"] == summary["end_time"] and run["steps"] == summary["steps"], (run, summary["steps"])
assert run["first_body_z"] == float(last["ball_z"]), (run, last["ball_z"])
PY
echo "1 passed, 0 failed"
