#!/usr/bin/env bash
# What `surfdb` does to its outputs (issue 22, data loss and debris): a device node or any other
# existing non-regular file is refused, a symbolic link is written through, an output that is an
# input is refused, interrupted runs leave no temporary file (SIGINT, SIGTERM, SIGHUP; after
# SIGKILL the next writer removes it), and a table too large for --max-size or the file system is
# refused before anything is written.
# Usage: output_safety_test.sh PATH/TO/surfdb
set -u
surfdb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"

temporaries() { find "$dir" -maxdepth 2 -name '.*.??????' | sort; }

samples=$(cd "$(dirname "$0")/../../samples/slider_crank_cup_ball" && pwd)
"$surfdb" convert --analytic octant --grid 60x50 --record 7x9 -o "$dir/o.sdb" 2>/dev/null || bad "convert octant"

# A device node is refused, and stays a device (as root, -o /dev/null would have replaced it).
if [ "$(id -u)" -eq 0 ]; then
  mknod "$dir/null" c 1 3
  expect_error "export to a device" "is a character device, not a regular file" \
    "$surfdb" export "$dir/o.sdb" -o "$dir/null"
  expect_error "convert to a device" "is a character device, not a regular file" \
    "$surfdb" convert --analytic octant --grid 20x20 --record 5x5 -o "$dir/null"
  if [ -c "$dir/null" ]; then ok; else bad "the device node was replaced"; fi
  rm -f "$dir/null"
else
  echo "device node checks skipped: mknod needs root"
fi
mkfifo "$dir/fifo"
expect_error "export to a FIFO" "is a FIFO, not a regular file" "$surfdb" export "$dir/o.sdb" -o "$dir/fifo"
if [ -p "$dir/fifo" ]; then ok; else bad "the FIFO was replaced"; fi
ln -s fifo "$dir/to_fifo"
expect_error "export through a link to a FIFO" "is a FIFO, not a regular file" \
  "$surfdb" export "$dir/o.sdb" -o "$dir/to_fifo"

# A symbolic link is written through: the link stays, its target gets the new content.
cp "$dir/o.sdb" "$dir/target.sdb"
ln -s target.sdb "$dir/link.sdb"
"$surfdb" convert --analytic sphere --grid 30x30 --record 5x5 -o "$dir/link.sdb" 2>/dev/null || bad "convert through a link"
if [ -L "$dir/link.sdb" ] && "$surfdb" info "$dir/target.sdb" | grep -q Sphere && "$surfdb" verify "$dir/target.sdb" >/dev/null
then ok; else bad "convert through a link: link $(ls -l "$dir/link.sdb"), target $(stat -c %s "$dir/target.sdb")"; fi
ln -s target.csv "$dir/link.csv"  # dangling: the export creates the file it names
"$surfdb" export "$dir/o.sdb" -o "$dir/link.csv" || bad "export through a dangling link"
if [ -L "$dir/link.csv" ] && [ "$(wc -l <"$dir/target.csv")" -eq 3001 ]; then ok; else bad "export through a dangling link"; fi
mkdir "$dir/sub"
ln -s sub "$dir/link_dir"
expect_error "export onto a link to a directory" "is a directory" "$surfdb" export "$dir/o.sdb" -o "$dir/link_dir"
ln -s loop_b "$dir/loop_a" && ln -s loop_a "$dir/loop_b"
expect_error "export onto a loop of links" "too many levels of symbolic links" \
  "$surfdb" export "$dir/o.sdb" -o "$dir/loop_a"

# An output that is an input is refused, the input kept: by name, through a link, a hard link.
cp "$samples/cup.step" "$dir/v.stp"
cp "$dir/v.stp" "$dir/v_copy.stp"
expect_error "convert onto its input" "is the input" \
  "$surfdb" convert "$dir/v.stp" --face 4 --grid 20x20 --record 5x5 -o "$dir/v.stp"
if cmp -s "$dir/v.stp" "$dir/v_copy.stp"; then ok; else bad "convert destroyed its input"; fi
ln -s v.stp "$dir/v_link.sdb"
expect_error "convert onto a link to its input" "is the input" \
  "$surfdb" convert "$dir/v.stp" --face 4 --grid 20x20 --record 5x5 -o "$dir/v_link.sdb"
mkdir "$dir/faces" && ln "$dir/v.stp" "$dir/faces/face_0004.sdb"
expect_error "convert --all-faces onto its input" "is the input" \
  "$surfdb" convert "$dir/v.stp" --all-faces --grid 20x20 --record 5x5 -o "$dir/faces" --force
if cmp -s "$dir/v.stp" "$dir/v_copy.stp"; then ok; else bad "convert --all-faces destroyed its input"; fi
cp "$dir/o.sdb" "$dir/o_copy.sdb"
expect_error "export onto its input" "is the input" "$surfdb" export "$dir/o.sdb" -o "$dir/o.sdb"
ln "$dir/o.sdb" "$dir/o_hard.csv"
expect_error "export onto a hard link to its input" "is the input" "$surfdb" export "$dir/o.sdb" -o "$dir/o_hard.csv"
if cmp -s "$dir/o.sdb" "$dir/o_copy.sdb"; then ok; else bad "export destroyed its input"; fi
cp "$samples/hertz_analytic.toml" "$dir/scenario.toml"
cp "$dir/scenario.toml" "$dir/scenario_copy.toml"
mkdir "$dir/sim_self" && ln -s ../scenario.toml "$dir/sim_self/summary.json"
expect_error "simulate onto its scenario" "is the input" \
  "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim_self" --end-time 0.001
if cmp -s "$dir/scenario.toml" "$dir/scenario_copy.toml"; then ok; else bad "simulate destroyed its scenario"; fi
mkdir -p "$dir/tables" "$dir/sim_table"
"$surfdb" convert "$samples/cup.step" --face 4 --grid 31x31 --record 6x6 -o "$dir/tables/cup.sdb" 2>/dev/null
"$surfdb" convert "$samples/ball.igs" --face 1 --grid 31x31 --record 6x6 -o "$dir/tables/ball.sdb" 2>/dev/null
cp "$samples/hertz.toml" "$dir/hertz.toml"
cp "$dir/tables/cup.sdb" "$dir/cup_copy.sdb"
ln "$dir/tables/cup.sdb" "$dir/sim_table/time_series.csv"
expect_error "simulate onto one of its tables" "is the input" \
  "$surfdb" simulate "$dir/hertz.toml" -o "$dir/sim_table" --end-time 1e-4
if cmp -s "$dir/tables/cup.sdb" "$dir/cup_copy.sdb"; then ok; else bad "simulate destroyed its table"; fi

# Interrupted runs leave no temporary file and die of the signal (exit 128 + signal).
# Job control on: background jobs of a script otherwise start with SIGINT ignored.
set -m
# interrupt SIGNAL DESCRIPTION COMMAND...: starts COMMAND, signals it once its temporary exists.
interrupt() {
  local sig=$1 what=$2
  shift 2
  "$@" 2>/dev/null &
  local pid=$! k
  for k in $(seq 1 200); do
    [ -n "$(temporaries)" ] && break
    sleep 0.05
  done
  if [ -z "$(temporaries)" ]; then bad "$what: no temporary file seen while it ran"; fi
  kill "-$sig" "$pid"
  wait "$pid"
  local rc=$? expected=$((128 + $(kill -l "$sig")))
  if [ $rc -eq $expected ]; then ok; else bad "$what: SIG$sig gave exit $rc, not $expected"; fi
  local left
  left=$(temporaries)
  if [ -z "$left" ]; then ok; else bad "$what: SIG$sig left $left"; rm -f $left; fi
}
big=(convert --analytic torus --grid 3000x3000 --record 20x20 --float32)
interrupt INT "convert" "$surfdb" "${big[@]}" -o "$dir/big.sdb"
interrupt TERM "convert" "$surfdb" "${big[@]}" -o "$dir/big.sdb"
interrupt HUP "convert" "$surfdb" "${big[@]}" -o "$dir/big.sdb"
"$surfdb" convert --analytic torus --grid 1000x1000 --record 20x20 -o "$dir/export_me.sdb" 2>/dev/null
interrupt TERM "export" "$surfdb" export "$dir/export_me.sdb" -o "$dir/export_me.csv"
interrupt INT "convert --all-faces" "$surfdb" convert "$dir/v.stp" --all-faces --grid 2000x2000 --float32 -o "$dir/set.sdbs"
interrupt INT "simulate" "$surfdb" simulate "$dir/scenario.toml" -o "$dir/sim_interrupted" --end-time 100
# SIGKILL cannot be caught: the next run writing the same output removes what it left, and
# keeps a temporary whose process still runs (PID 1) or whose name carries no PID.
"$surfdb" "${big[@]}" -o "$dir/big.sdb" 2>/dev/null &
pid=$!
for k in $(seq 1 200); do [ -n "$(temporaries)" ] && break; sleep 0.05; done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
stale=$(temporaries)
case "$stale" in *"/.big.sdb.$pid."??????) ok ;; *) bad "SIGKILL left '$stale', not .big.sdb.$pid.XXXXXX" ;; esac
touch "$dir/.big.sdb.1.AbCdEf" "$dir/.big.sdb.XyZ123"
"$surfdb" convert --analytic torus --grid 20x20 --record 5x5 -o "$dir/big.sdb" 2>/dev/null || bad "rerun after SIGKILL"
left=$(cd "$dir" && ls -A | grep '^\.big' | tr '\n' ' ')
if [ "$left" = ".big.sdb.1.AbCdEf .big.sdb.XyZ123 " ]; then ok; else bad "after the rerun: '$left'"; fi
rm -f "$dir"/.big.sdb.*
set +m

# Sizes are checked before writing, with the figure in the message. Each command runs under a
# file size limit of 100 MiB, so a regression fails here instead of filling the disk.
limited() { (ulimit -f 102400 && "$@"); }
expect_error "default --max-size" "the table would take 1520353131264 bytes (1.38 TiB), more than --max-size 64G" \
  limited "$surfdb" convert --analytic octant --grid 100000x100000 -o "$dir/huge.sdb"
expect_error "--max-size 500M" "(1.29 GiB), more than --max-size 500M (500 MiB)" \
  limited "$surfdb" convert --analytic octant --grid 3000x3000 --max-size 500M -o "$dir/huge.sdb"
expect_error "free space" "free on its file system (No space left on device)" \
  limited "$surfdb" convert --analytic octant --grid 1000000x1000000 --max-size 1000T -o "$dir/huge.sdb"
expect_error "--all-faces free space" "tables would take" \
  limited "$surfdb" convert "$dir/v.stp" --all-faces --grid 1000000x1000000 --max-size 1000T -o "$dir/huge_faces"
expect_usage "bad --max-size" "usage error: --max-size: '12 parsecs' is not a size" \
  limited "$surfdb" convert --analytic octant --grid 30x30 --max-size "12 parsecs" -o "$dir/huge.sdb"
if [ -z "$(cd "$dir" && ls -A | grep huge)" ]; then ok; else bad "refused sizes left files: $(ls -A "$dir" | grep huge)"; fi
"$surfdb" convert --analytic octant --grid 60x50 --record 7x9 --max-size 536256 -o "$dir/fits.sdb" 2>"$dir/err" \
  || bad "a table of exactly --max-size: $(cat "$dir/err")"
if grep -qF "wrote $dir/fits.sdb (524 KiB)" "$dir/err"; then ok; else bad "size in the info line: $(cat "$dir/err")"; fi

finish
