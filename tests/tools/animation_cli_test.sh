#!/usr/bin/env bash
# simulate --animation: the collection and every frame read back (check_animation.py, standard
# library only) against the run's time_series.csv, for a ball dropped on a floor beside a spinning
# bob and for the sample cup on its slider-crank with the ball landing in it, analytic and as
# lookup tables (converted here at 199 x 199, drawn at 100 x 100 nodes); byte-identical output
# from identical runs; a shorter run replacing the frames of a longer one; the final frame's PNG;
# outputs that would destroy an input or a user's files refused before anything is written.
# Usage: animation_cli_test.sh PATH/TO/surfdb PATH/TO/samples
set -u
surfdb=$1
samples=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# shellcheck source=test_lib.sh
source "$(dirname "$0")/test_lib.sh"
check="python3 $(dirname "$0")/check_animation.py"

# A 10 mm ball 20 mm above the floor (its impact at 64 ms), and a 5 mm bob 20 mm off the centre of
# a body spinning at 30 rad/s about z, falling freely: the floor patch is sized from it.
cat >"$dir/drop.toml" <<'TOML'
[simulation]
end_time = 0.07
output_interval = 1e-3

[[body]]
name = "ball"
mass = 0.011
inertia = [4.4e-7, 4.4e-7, 4.4e-7]
position = [0.0, 0.0, 0.03]

[[body]]
name = "spinner"
mass = 0.02
inertia = [1e-6, 1e-6, 1e-6]
position = [0.1, 0.0, 0.05]
angular_velocity = [0.0, 0.0, 30.0]

[[surface]]
name = "ball"
body = "ball"
sphere_radius = 0.01

[[surface]]
name = "floor"
body = "ground"
plane_normal = [0.0, 0.0, 1.0]

[[surface]]
name = "bob"
body = "spinner"
sphere_radius = 0.005
origin = [0.02, 0.0, 0.0]

[[contact]]
name = "ball-floor"
surface_i = "ball"
surface_j = "floor"
stiffness = 1e8
TOML
run() { "$surfdb" simulate "$dir/drop.toml" --no-plots --animation "$@"; }

# The frames against the time series; the one line saying where the animation is.
if run -o "$dir/a" 2>"$dir/a.err" && $check "$dir/a" drop >"$dir/check.txt"; then ok
else bad "drop: $(cat "$dir/a.err" "$dir/check.txt")"; fi
if grep -q "^info: animation: [0-9]* frames in $dir/a/animation.pvd" "$dir/a.err"; then ok
else bad "no line naming the animation: $(cat "$dir/a.err")"; fi
grep -q " [1-9][0-9]* with contact points" "$dir/check.txt" && ok || bad "the drop had no contact: $(cat "$dir/check.txt")"
if "$surfdb" simulate "$samples/slider_crank_cup_ball/hertz_analytic.toml" -o "$dir/cup" --end-time 0.0185 \
  --output-interval 1e-4 --no-plots --animation -q && $check "$dir/cup" cup >"$dir/check.txt"; then ok
else bad "cup: $(cat "$dir/check.txt")"; fi
grep -q " [1-9][0-9]* with contact points" "$dir/check.txt" && ok || bad "the ball never landed in the cup"
for part in "cup.step --face 4" "ball.igs --face 1"; do
  # shellcheck disable=SC2086  # the part and its face are two words
  "$surfdb" convert "$samples/slider_crank_cup_ball/"$part --grid 199x199 --record 9x9 -o "$dir/${part%%.*}.sdb" 2>/dev/null
done
if "$surfdb" simulate "$samples/slider_crank_cup_ball/hertz.toml" -o "$dir/tables" --end-time 0.01812 \
  --output-interval 1e-3 --no-plots --animation -q --set "surface.ball.table=\"$dir/ball.sdb\"" \
  --set "surface.cup.table=\"$dir/cup.sdb\"" && $check "$dir/tables" cup_tables >"$dir/check.txt"; then ok
else bad "cup of tables: $(cat "$dir/check.txt")"; fi
grep -q " [1-9][0-9]* with contact points" "$dir/check.txt" && ok || bad "the ball's table never met the cup's"

# Determinism: a second run writes the same bytes.
run -o "$dir/b" -q
if diff -r "$dir/a/animation" "$dir/b/animation" >/dev/null && cmp -s "$dir/a/animation.pvd" "$dir/b/animation.pvd"
then ok; else bad "two runs differ"; fi

# A shorter run into the same directory replaces the frames whole: none of the longer run is left.
run -o "$dir/b" -q --end-time 0.01
frames=$(find "$dir/b/animation" -name 'frame_*.vtp' | wc -l)
listed=$(grep -c 'part="0"' "$dir/b/animation.pvd")
if [ "$frames" -eq 11 ] && [ "$listed" -eq 11 ] && [ "$(find "$dir/b" -name '.*' | wc -l)" -eq 0 ]; then ok
else bad "after a shorter run: $frames frames, $listed listed, $(ls -A "$dir/b")"; fi

# --animation-interval: a frame at the first output instant (1 ms apart, variable steps) at or
# after each 10 ms, and the last, out of 71 rows.
run -o "$dir/sparse" -q --animation-interval 0.01
steps=$(grep -o 'timestep="[^"]*" part="0"' "$dir/sparse/animation.pvd" | cut -d'"' -f2 | tr '\n' ' ')
if python3 -c "
import sys
t = [float(x) for x in sys.argv[1].split()]
assert len(t) == 8 and t[-1] == 0.07, t
assert all(0.01 * k <= x < 0.01 * k + 0.001 for k, x in enumerate(t)), t
" "$steps" && [ "$(find "$dir/sparse/animation" -name 'frame_*' | wc -l)" -eq 8 ]
then ok; else bad "--animation-interval 0.01: frames at $steps"; fi

# Without --animation, nothing of it; the final frame's PNG only with plots (and matplotlib).
"$surfdb" simulate "$dir/drop.toml" -o "$dir/plain" --no-plots -q --end-time 0.001
if [ ! -e "$dir/plain/animation" ] && [ ! -e "$dir/plain/animation.pvd" ]; then ok; else bad "animation without --animation"; fi
[ ! -e "$dir/a/final_frame.png" ] && ok || bad "--no-plots wrote final_frame.png"
"$surfdb" simulate "$dir/drop.toml" -o "$dir/png" --animation --end-time 0.065 2>"$dir/png.err"
python=python3  # the one the command runs
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
if "$python" -c "import matplotlib" 2>/dev/null; then
  [ -s "$dir/png/final_frame.png" ] && ok || bad "no final_frame.png: $(cat "$dir/png.err")"
else
  grep -q "warning: plots not written" "$dir/png.err" && ok || bad "no plot warning: $(cat "$dir/png.err")"
fi

# Outputs that would destroy an input or files surfdb did not write: exit 1, one line, nothing written.
refused() {  # DESCRIPTION MESSAGE OUTDIR
  expect_error "$1" "$2" run -o "$3" --end-time 0.001
  if [ -e "$3/time_series.csv" ] || [ -n "$(find "$3" -name '.*' -o -name '*.vtp')" ]; then bad "$1: wrote into $3"; fi
}
mkdir -p "$dir/file" "$dir/foreign/animation" "$dir/input"
touch "$dir/file/animation" "$dir/foreign/animation/notes.txt"
ln -s "$dir/drop.toml" "$dir/input/animation.pvd"
refused "animation a file" "cannot write $dir/file/animation: a file of that name exists, not a directory" "$dir/file"
refused "a foreign file in animation/" "cannot replace $dir/foreign/animation: it holds notes.txt" "$dir/foreign"
refused "the collection is the scenario" "cannot write $dir/input/animation.pvd: it is the input" "$dir/input"
[ -f "$dir/foreign/animation/notes.txt" ] && [ -L "$dir/input/animation.pvd" ] && ok || bad "a refused output was touched"

finish
