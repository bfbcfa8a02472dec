// The paper's marble ball (R 10 mm) and cup (a spherical bowl, inner radius 50 mm) as 999 x 999
// lookup tables, converted once per test program. Both are mounted with their parameterisation's
// poles horizontal (surface z axis along body x), so the contact region at the bottom of the cup
// and of the ball sits at (u, v) = (0, 0), far from the poles.
#pragma once

#include <memory>
#include <numbers>

#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/contact/body_state.hpp"
#include "surfdb/table/database.hpp"
#include "temp_dir.hpp"

namespace surfdb::test {

struct BallAndCup {
  std::shared_ptr<const Database> ball, cup;
  SurfaceMount mount;  // surface x -> body -z, y -> y, z (pole) -> x
  static constexpr double ball_radius = 0.010, cup_radius = 0.050;  // m
};

inline const BallAndCup& ball_and_cup() {
  static TempDir dir;
  static BallAndCup tables = [] {
    constexpr double pi = std::numbers::pi;
    AnalyticSpec ball;
    ball.kind = AnalyticKind::sphere;
    ball.radius = 10;
    AnalyticSpec cup = ball;
    cup.radius = 50;
    cup.u_range = std::pair{-pi / 2, pi / 2};  // the half of the sphere below the rim
    ConvertOptions o;  // 999 x 999 in 27 x 27 records
    convert_surface(*make_analytic_surface(ball), o, dir / "ball.sdb");
    o.flip_normals = true;  // the cup's material is outside the sphere: n points to the centre
    convert_surface(*make_analytic_surface(cup), o, dir / "cup.sdb");
    BallAndCup t;
    t.ball = Database::open(dir / "ball.sdb");
    t.cup = Database::open(dir / "cup.sdb");
    t.mount.rotation << 0, 0, 1, 0, 1, 0, -1, 0, 0;
    return t;
  }();
  return tables;
}

}  // namespace surfdb::test
