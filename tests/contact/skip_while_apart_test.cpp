// ContactOptions::skip_while_apart (contact_newton.hpp, contact_sphere_table.hpp): detectors that
// skip their solve while the surfaces are surely apart, against the same detectors solving at
// every step. The contact must begin at the same step and the same depth; while apart the skipped
// answers' gaps must be lower bounds of the solved ones.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "../support/ball_and_cup.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_sphere_table.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;

namespace {

ContactOptions skipping() {
  ContactOptions o;
  o.skip_while_apart = true;
  return o;
}

// Steps a path of body states of i (j at `body_j`) through a solving and a skipping detector;
// returns the first touching step (or -1) after checking every step's answers against each other.
// Body j stays at rest at `body_j`.
template <typename Detector, typename Path>
int first_touch(Detector& solving, Detector& skipping, Path&& body_i, const BodyState& body_j, int steps) {
  int first = -1, skipped = 0;
  double worst_depth = 0, worst_rate = 0;
  ContactResult solved;  // the skipping detector's last solve, and body i then
  BodyState solved_i;
  for (int k = 0; k < steps; ++k) {
    const BodyState i = body_i(k);
    const ContactResult a = solving.evaluate(i, body_j), b = skipping.evaluate(i, body_j);
    REQUIRE(a.status == b.status);
    if (b.iterations > 0) solved = b, solved_i = i;
    if (a.status == ContactStatus::separated && b.iterations == 0) {
      ++skipped;
      CHECK(b.gap >= 0);
      CHECK(b.gap <= a.gap + 1e-15);  // a lower bound
      // The last solve's points carried with their bodies, the velocity taken at them now.
      // catches: the frames of i and j swapped, velocities left from the solve.
      const Vector3d carried_i = i.pose.r + i.pose.A * solved_i.pose.A.transpose() * (solved.point_i - solved_i.pose.r);
      CHECK((b.point_i - carried_i).norm() < 1e-15);
      CHECK((b.point_j - solved.point_j).norm() < 1e-15);
      CHECK((b.normal - solved.normal).norm() < 1e-15);
      CHECK(b.indentation_rate == doctest::Approx(-i.point_velocity(b.point_i).dot(b.normal)).epsilon(1e-12));
    }
    if (a.in_contact()) {
      if (first < 0) first = k;
      worst_depth = std::max(worst_depth, std::abs(a.indentation - b.indentation));
      worst_rate = std::max(worst_rate, std::abs(a.indentation_rate - b.indentation_rate));
    }
  }
  MESSAGE(skipped << " of " << steps << " evaluations skipped; touching from step " << first
                  << "; largest differences in depth " << worst_depth << " m, rate " << worst_rate << " m/s");
  // Both solve the touching steps to the solve's tolerance, from warm starts of different ages.
  CHECK(worst_depth < 1e-15);
  CHECK(worst_rate < 1e-12);
  CHECK(skipped > steps / 2);
  CHECK(skipping.skipped_solves() == static_cast<std::uint64_t>(skipped));
  return first;
}

}  // namespace

// catches: a skip bound without the translation (the ball would fall through unseen), a gap
// not lowered by the motion since the solve.
TEST_CASE("skip while apart: a ball dropped sideways into the cup touches at the same step as when every step solves") {
  const BallAndCup& t = ball_and_cup();
  const double gap = 2e-3, h = 1e-5;  // m, s
  const auto falling = [&](int k) {
    const double s = k * h;
    BodyState b;
    b.pose.r = Vector3d(0.05 * s, -0.02 * s, -(t.cup_radius - t.ball_radius) + gap - 0.5 * 9.81 * s * s);
    b.velocity = Vector3d(0.05, -0.02, -9.81 * s);
    return b;
  };
  const BodyState cup;
  SUBCASE("two tables") {
    FreeformContact solving(t.ball, t.mount, t.cup, t.mount), skipper(t.ball, t.mount, t.cup, t.mount, skipping());
    CHECK(first_touch(solving, skipper, falling, cup, 2200) > 1900);  // free fall of 2 mm: 20.2 ms
  }
  SUBCASE("a sphere on a table") {
    SphereTableContact solving({Vector3d::Zero(), t.ball_radius}, t.cup, t.mount, {}),
        skipper({Vector3d::Zero(), t.ball_radius}, t.cup, t.mount, skipping());
    CHECK(first_touch(solving, skipper, falling, cup, 2200) > 1900);
  }
}

// A plane 100 mm square turning about its own centre (its bounding sphere's centre stays put)
// lifts its edge 30 mm from the centre into a ball hanging 1 mm above it.
// catches: a skip bound without the rotation term (the plane would pass into the ball unseen).
TEST_CASE("skip while apart: a plane turning about its centre into a ball touches at the same step") {
  static TempDir dir;
  AnalyticSpec plane;
  plane.kind = AnalyticKind::plane;
  plane.length = 100;  // mm
  ConvertOptions o;
  o.grid = {101, 101};
  o.record = {10, 10};
  convert_surface(*make_analytic_surface(plane), o, dir / "plane.sdb");
  const auto table = Database::open(dir / "plane.sdb");
  const BallAndCup& t = ball_and_cup();
  SurfaceMount corner;  // the plane's (0, 0) corner, 50 mm from its body's reference point
  corner.offset = Vector3d(-0.05, -0.05, 0);
  BodyState ball;
  ball.pose.r = Vector3d(0.03, 0, t.ball_radius + 1e-3);
  const auto turning = [](int k) {
    BodyState b;
    b.pose.A = Eigen::AngleAxisd(-2e-4 * k, Vector3d::UnitY()).toRotationMatrix();
    b.angular_velocity = Vector3d(0, -2e-4, 0);  // rad per step: any value, both detectors see it
    return b;
  };
  FreeformContact solving(table, corner, t.ball, t.mount), skipper(table, corner, t.ball, t.mount, skipping());
  // 30 mm sin(a) = 1 mm at a = 0.0333 rad, step 167.
  const int first = first_touch(solving, skipper, turning, ball, 250);
  CHECK(first >= 160);
  CHECK(first <= 175);
}
