#!/usr/bin/env bash
# Sets everything up and runs the main job: convert sample parts, inspect, verify, query, project
# and export them, then run the paper's slider-crank + cup + marble-ball demonstration, the
# parts-in-contact scenes, the primitive scenes and the polygonal-contact scenes with their plots. Outputs go to out/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
surfdb="$root/build/tools/surfdb"
out="$root/out/demo"
mkdir -p "$out"
step() { printf '\n== %s\n' "$*"; }

step "convert a sample part: the rational B-spline patch samples/nurbs/wavy_patch.nurbs"
"$surfdb" convert "$root/samples/nurbs/wavy_patch.nurbs" --list-faces
"$surfdb" convert "$root/samples/nurbs/wavy_patch.nurbs" --grid 999x999 --record 27x27 -o "$out/wavy_patch.sdb"
"$surfdb" verify "$out/wavy_patch.sdb"

step "query it at three (u,v) and project a point onto it"
printf '0.25 0.25\n0.5 0.5\n1 1\n' | "$surfdb" query "$out/wavy_patch.sdb" --batch -
"$surfdb" project "$out/wavy_patch.sdb" --xyz 30 25 20

step "the paper's octant (R = 50 mm) at 999 x 999 points in 27 x 27 records"
"$surfdb" convert --analytic octant --radius 50 -o "$out/octant.sdb"
"$surfdb" info "$out/octant.sdb"
"$surfdb" query "$out/octant.sdb" --uv 0.7853981633974483 0.7853981633974483 --json

step "export the patch for ParaView"
"$surfdb" export "$out/wavy_patch.sdb" --format vtk -o "$out/wavy_patch.vtk"

step "the demonstration: the cup (STEP) and the ball (IGES) as 999 x 999 tables in 27 x 27 records"
"$root/samples/slider_crank_cup_ball/prepare.sh" "$surfdb"
for scenario in hertz flores hertz_full_window hertz_analytic; do
  step "simulate $scenario (0.1 s, fixed step 1e-6 s)"
  "$surfdb" simulate "$root/samples/slider_crank_cup_ball/$scenario.toml" -o "$root/out/$scenario"
  cat "$root/out/$scenario/summary.json"
done
step "parts in contact: surface sets of multi-face parts, several points per pair, a hundred balls, edges, a rim, a rod and a block"
"$root/samples/parts_in_contact/prepare.sh" "$surfdb"
for scenario in v_groove seam fillet bowl_of_balls plate_edges rod_and_block; do
  step "simulate $scenario"
  "$surfdb" simulate "$root/samples/parts_in_contact/$scenario.toml" -o "$root/out/$scenario"
  cat "$root/out/$scenario/summary.json"
done
step "primitive scenes (Corral et al. 2021): the billiard, the bearing without and with axial load, the stairs"
for scenario in billiard bearing bearing_axial stairs; do
  step "simulate $scenario, with a ParaView animation at 20 ms"
  "$surfdb" simulate "$root/samples/primitive_scenes/$scenario.toml" -o "$root/out/$scenario" --animation \
    --animation-interval 0.02
  cat "$root/out/$scenario/summary.json"
done
step "polygonal contact (Hippmann 2003): the bouncing bubbles; a ball pressed into a socket, areal against point contact"
"$root/samples/polygonal/prepare.sh" "$surfdb"
"$surfdb" simulate "$root/samples/polygonal/bubbles.toml" -o "$root/out/bubbles" --animation --animation-interval 0.02
cat "$root/out/bubbles/summary.json"
"$surfdb" simulate "$root/samples/polygonal/socket_areal.toml" -o "$root/out/socket_areal" --animation --no-plots
"$surfdb" simulate "$root/samples/polygonal/socket_hertz.toml" -o "$root/out/socket_hertz" --no-plots
python=/usr/bin/python3  # Debian's, with python3-matplotlib (as surfdb simulate's plots)
[ -x "$python" ] || python=python3
"$python" "$root/tools/plots/plot_socket_pressure.py" "$root/out/socket_areal" "$root/out/socket_hertz" \
  --foundation-stiffness 2e10 --relative-radius 4.95
step "sliding contact as a constraint (paper 004): the cam-follower benchmark against its exact law"
"$root/samples/cam_follower/prepare.sh" "$surfdb"
cam="$root/samples/cam_follower"
for scenario in flat_constraint flat_hertz sphere_constraint sphere_hertz liftoff_constraint liftoff_hertz; do
  "$surfdb" simulate "$cam/$scenario.toml" -o "$root/out/cam_$scenario" --no-plots --quiet
done
for follower in flat sphere; do  # the coarser tables, 201 points along the profile
  for contact in constraint hertz; do
    "$surfdb" simulate "$cam/${follower}_$contact.toml" -o "$root/out/cam_${follower}_${contact}_201" --no-plots --quiet \
      --set "surface.cam_profile.table=\"tables/cam_${follower}_201.sdb\""
  done
done
"$python" "$root/tools/plots/plot_cam_follower.py" --scenario "$cam/flat_constraint.toml" \
  "$root"/out/cam_{flat,sphere}_{constraint,hertz}{,_201}
"$python" "$root/tools/plots/plot_cam_follower.py" --scenario "$cam/liftoff_constraint.toml" --no-plot \
  "$root"/out/cam_liftoff_{constraint,hertz}
step "plots and summaries are in out/<scenario>/ (docs/demo.md explains them)"
ls "$root/out/hertz"
