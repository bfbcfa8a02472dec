#!/usr/bin/env bash
# surfdb sweep and convert under MPI (issue 19): a 12-case sweep of the demonstration's Hertz
# scenario (0.03 s, tables of 199 x 199 points) under `mpirun -n 1` and `mpirun -n 3` gives the
# same results.csv apart from the timing columns, its parameter columns are the values the file
# gives and a case's figures are those of `surfdb simulate --set` with its values; a sweep whose
# mpirun is killed with SIGKILL half-way and restarted runs only the cases left (the finished
# cases' summaries are the same files) and ends with the same results; a case with a bad value is
# a failed row with its message; bad paths, types and ranges fail before any case runs; a surface
# set converted under mpirun equals the serial one byte for byte; --emit-slurm writes a job script.
# Usage: sweep_cli_test.sh PATH/TO/surfdb PATH/TO/samples
set -u
surfdb=$1
samples=$2/slider_crank_cup_ball
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

if ! command -v mpirun >/dev/null; then
  echo "SKIP: no mpirun (scripts/install-deps.sh installs openmpi-bin)"
  exit 77
fi
# OpenMPI refuses root unless told; shared-memory transport without the kernel's cross-memory
# attach, which containers often forbid; more ranks than cores in this small test.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1

mkdir "$dir/tables"
"$surfdb" convert "$samples/cup.step" --face 4 --grid 199x199 --record 9x9 -o "$dir/tables/cup.sdb" 2>/dev/null
"$surfdb" convert "$samples/ball.igs" --face 1 --grid 199x199 --record 9x9 -o "$dir/tables/ball.sdb" 2>/dev/null
cp "$samples/hertz.toml" "$dir/hertz.toml"
cat >"$dir/sweep.toml" <<'TOML'
scenario = "hertz.toml"
end_time = 0.03
[[parameter]]
path = "contact.ball-cup.stiffness"
values = [1e9, 3e9, 1e10]
[[parameter]]
path = "body.ball.position"
values = [[0.4572, 0.0056, 0.012], [0.4572, 0.0, 0.012], [0.4572, 0.003, 0.014], [0.4572, -0.003, 0.012]]
TOML

# same_results A B: the two results.csv agree in every column but the timing ones.
same_results() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
def rows(f):
    return [{k: v for k, v in r.items() if k not in ("setup_cpu_seconds", "cpu_seconds")} for r in csv.DictReader(open(f))]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert a == b, [(x, y) for x, y in zip(a, b) if x != y][:2]
PY
}

# One rank, then three on two cores: the same rows.
mpirun -n 1 "$surfdb" sweep "$dir/sweep.toml" -o "$dir/a" 2>"$dir/a.err" || bad "mpirun -n 1: $(cat "$dir/a.err")"
mpirun -n 3 --oversubscribe "$surfdb" sweep "$dir/sweep.toml" -o "$dir/b" 2>"$dir/b.err" || bad "mpirun -n 3: $(cat "$dir/b.err")"
same_results "$dir/a/results.csv" "$dir/b/results.csv" && ok || bad "1 and 3 ranks differ"
grep -q "on 3 MPI ranks" "$dir/b.err" && ok || bad "3 ranks not used: $(cat "$dir/b.err")"
grep -q "^info: sweep: 12/12 cases done, [0-9.]* s elapsed" "$dir/b.err" && ok || bad "no progress line: $(cat "$dir/b.err")"

# The grid's values as given, the last parameter fastest; every case ran and touched the cup.
python3 - "$dir/a/results.csv" <<'PY' && ok || bad "results.csv against the sweep file"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
stiffness = ["1e+09", "3e+09", "1e+10"]
positions = ["[0.4572, 0.0056, 0.012]", "[0.4572, 0, 0.012]", "[0.4572, 0.003, 0.014]", "[0.4572, -0.003, 0.012]"]
assert [r["case"] for r in rows] == ["%04d" % k for k in range(1, 13)]
assert [(r["contact.ball-cup.stiffness"], r["body.ball.position"]) for r in rows] == [(s, p) for s in stiffness for p in positions]
for r in rows:
    assert r["status"] == "ok" and r["message"] == "" and r["steps"] == "30000", r
    assert 0.01 < float(r["first_contact_time"]) < 0.03 and int(r["impacts"]) >= 1, r
    assert float(r["max_indentation"]) > 0 and float(r["cpu_seconds"]) > 0, r
# A stiffer contact indents less, other things equal.
for p in positions:
    d = [float(r["max_indentation"]) for r in rows if r["body.ball.position"] == p]
    assert d[0] > d[1] > d[2], (p, d)
PY

# A case is `surfdb simulate` with its values as --set overrides: the same figures.
"$surfdb" simulate "$dir/hertz.toml" -o "$dir/one" --end-time 0.03 --no-plots -q \
  --set contact.ball-cup.stiffness=3e9 --set "body.ball.position=[0.4572, 0.003, 0.014]" || bad "simulate one case"
python3 - "$dir/one/summary.json" "$dir/a/results.csv" <<'PY' && ok || bad "case 0007 is not the simulate run"
import csv, json, sys
s = json.load(open(sys.argv[1]))
r = list(csv.DictReader(open(sys.argv[2])))[6]
c = s["contacts"][0]
assert float(r["max_indentation"]) == c["max_indentation"] and float(r["first_contact_time"]) == c["first_contact_time"], (r, c)
assert int(r["impacts"]) == c["impacts"] and float(r["energy_drift_relative"]) == s["energy"]["drift_relative"]
PY

# Run again into a finished sweep: nothing to run, the same results.
"$surfdb" sweep "$dir/sweep.toml" -o "$dir/a" 2>"$dir/again.err" || bad "rerun: $(cat "$dir/again.err")"
grep -q "sweep: 0 cases of 12 to run (12 finished before)" "$dir/again.err" && ok || bad "finished cases rerun: $(cat "$dir/again.err")"

# Killed half-way (SIGKILL to mpirun, which cannot pass it on: the ranks notice and exit), restarted.
set -m
mpirun -n 2 --oversubscribe "$surfdb" sweep "$dir/sweep.toml" -o "$dir/c" -q 2>/dev/null &
pid=$!
for _ in $(seq 1 600); do
  [ "$(find "$dir/c/cases" -name summary.json 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.05
done
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 1 40); do pgrep -f "sweep $dir/sweep.toml -o $dir/c" >/dev/null || break; sleep 0.1; done
if pgrep -f "sweep $dir/sweep.toml -o $dir/c" >/dev/null; then bad "ranks outlived the killed mpirun"; pkill -KILL -f "sweep $dir/sweep.toml -o $dir/c"; else ok; fi
finished=$(find "$dir/c/cases" -name summary.json | wc -l)
(cd "$dir/c/cases" && stat -c '%n %i %Y' ./*/summary.json) >"$dir/before.txt"
[ "$finished" -ge 4 ] && [ "$finished" -lt 12 ] && [ ! -e "$dir/c/results.csv" ] && ok \
  || bad "not killed half-way: $finished cases finished, results.csv $(ls "$dir/c")"
[ -z "$(find "$dir/c" -name '.*' -type f)" ] && ok || bad "temporaries left: $(find "$dir/c" -name '.*')"
mpirun -n 2 --oversubscribe "$surfdb" sweep "$dir/sweep.toml" -o "$dir/c" 2>"$dir/c.err" || bad "restart: $(cat "$dir/c.err")"
grep -q "sweep: $((12 - finished)) cases of 12 to run ($finished finished before)" "$dir/c.err" && ok \
  || bad "restart did not skip the $finished finished cases: $(cat "$dir/c.err")"
(cd "$dir/c/cases" && stat -c '%n %i %Y' $(cut -d' ' -f1 "$dir/before.txt")) | cmp -s - "$dir/before.txt" && ok \
  || bad "finished cases were rewritten"
same_results "$dir/a/results.csv" "$dir/c/results.csv" && ok || bad "the restarted sweep's results differ"

# A bad value of the right type is the case's failure, in results.csv; the other cases run.
cat >"$dir/bad.toml" <<'TOML'
scenario = "hertz.toml"
end_time = 0.001
[[parameter]]
path = "contact.ball-cup.stiffness"
values = [1e9, -1e9]
TOML
"$surfdb" sweep "$dir/bad.toml" -o "$dir/bad" -j 2 2>"$dir/bad.err" || bad "a failed case failed the sweep: $(cat "$dir/bad.err")"
python3 - "$dir/bad/results.csv" <<'PY' && ok || bad "failed case: $(cat "$dir/bad/results.csv")"
import csv, sys
a, b = csv.DictReader(open(sys.argv[1]))
assert a["status"] == "ok" and b["status"] == "failed", (a, b)
assert b["message"] == "--set contact.ball-cup.stiffness=-1e+09: contact 'ball-cup'.stiffness: must be positive", b
# A case that could not run has its CPU time in its own column, no warnings, no figures.
assert float(b["cpu_seconds"]) >= 0 and b["warnings"] == "" and b["steps"] == "", b
PY
grep -q "warning: 2 cases: 1 ok, 0 with warnings, 1 failed; wrote" "$dir/bad.err" && ok || bad "no warning: $(cat "$dir/bad.err")"

# Bad input: one line naming the path, before any case runs (no output directory made).
sweep_with() { printf 'scenario = "hertz.toml"\n[[parameter]]\n%s\n' "$1" >"$dir/in.toml"; }
sweep_with $'path = "contact.ball-cup.restitution"\nvalues = [0.5]'
expect_error "a path not in the scenario" "in.toml:3: parameter 'contact.ball-cup.restitution': $dir/hertz.toml leaves this key out (a swept key must be in the base scenario" \
  "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
sweep_with $'path = "body.marble.mass"\nvalues = [0.01]'
expect_error "an entry not in the scenario" "parameter 'body.marble.mass': $dir/hertz.toml: no [[body]] named 'marble'" \
  "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
sweep_with $'path = "contact.ball-cup.stiffness"\nvalues = [1e9, "stiff"]'
expect_error "a value of the wrong type" "parameter 'contact.ball-cup.stiffness': value 2 must be a number" \
  "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
sweep_with $'path = "body.ball.position"\nvalues = [[0.4572, 0.0]]'
expect_error "a vector of the wrong length" "value 1 must be a vector of 3 numbers" "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
sweep_with $'path = "contact.ball-cup.stiffness"\nrange = [1e9, 1e10]\ncount = 0'
expect_error "an empty range" "parameter 'contact.ball-cup.stiffness': count must be a whole number of at least 1" \
  "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
sweep_with $'path = "contact.ball-cup.stiffness"\nrange = [1e9, 1e9]\ncount = 4\nsample = "latin_hypercube"'
expect_error "a sampled range of no width" "an empty range" "$surfdb" sweep "$dir/in.toml" -o "$dir/none"
[ ! -e "$dir/none" ] && ok || bad "a refused sweep made its output directory"
sweep_with $'path = "contact.ball-cup.stifness"\nvalues = [1e9]'
mpirun -n 3 --oversubscribe "$surfdb" sweep "$dir/in.toml" -o "$dir/none" >/dev/null 2>"$dir/mpi.err" && bad "bad path under mpirun: exit 0"
[ "$(grep -c "parameter 'contact.ball-cup.stifness'" "$dir/mpi.err")" -eq 1 ] && ok || bad "under mpirun, not one message: $(cat "$dir/mpi.err")"

# --emit-slurm: a script sbatch takes as is.
"$surfdb" sweep "$dir/sweep.toml" -o "$dir/slurm" --emit-slurm --nodes 10 --tasks-per-node 32 --time-limit 02:00:00 2>/dev/null \
  || bad "--emit-slurm"
s="$dir/slurm/sweep.sbatch"
if [ -x "$s" ] && bash -n "$s" && grep -q '^#SBATCH --nodes=10$' "$s" && grep -q '^#SBATCH --ntasks-per-node=32$' "$s" \
  && grep -q '^#SBATCH --time=02:00:00$' "$s" && grep -q "^mpirun '.*surfdb' sweep '$dir/sweep.toml' -o '$dir/slurm'$" "$s"
then ok; else bad "job script: $(cat "$s")"; fi
[ ! -e "$dir/slurm/cases/0001" ] && ok || bad "--emit-slurm ran cases"
expect_usage "a time limit that is not a time" "--time-limit: must be a Slurm time" \
  "$surfdb" sweep "$dir/sweep.toml" -o "$dir/slurm" --emit-slurm --time-limit '1h; rm -rf /'
expect_usage "--nodes without --emit-slurm" "--nodes requires --emit-slurm" "$surfdb" sweep "$dir/sweep.toml" -o "$dir/x" --nodes 2

# A surface set converted under mpirun: the serial conversion's bytes.
"$surfdb" convert "$samples/cup.step" --all-faces --grid 40x30 --record 5x5 -o "$dir/serial.sdbs" 2>/dev/null || bad "serial set"
mpirun -n 3 --oversubscribe "$surfdb" convert "$samples/cup.step" --all-faces --grid 40x30 --record 5x5 -o "$dir/mpi.sdbs" \
  2>"$dir/set.err" || bad "set under mpirun: $(cat "$dir/set.err")"
diff -r "$dir/serial.sdbs" "$dir/mpi.sdbs" >/dev/null && ok || bad "the sets differ"
[ "$(grep -c "wrote the surface set" "$dir/set.err")" -eq 1 ] && ok || bad "not one rank reporting: $(cat "$dir/set.err")"
[ -z "$(find "$dir" -maxdepth 1 -name '.mpi.sdbs*')" ] && ok || bad "temporary set directory left"

finish
