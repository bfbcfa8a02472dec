// Free-form contact on lookup tables against the analytic sphere-sphere solutions (Corral et al.,
// Ramalho and Ambrósio, spatial algorithms for contact detection, §3.2).
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_sphere_table.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <random>

#include "../support/approx.hpp"
#include "../support/ball_and_cup.hpp"
#include "../support/damaged_table.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/table/node_tree.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;

namespace {

BodyState at(const Vector3d& r, const Vector3d& velocity = Vector3d::Zero()) {
  BodyState s;
  s.pose.r = r;
  s.velocity = velocity;
  return s;
}

// A direction tilted from straight down by up to `tilt` radians.
Vector3d downwards(std::mt19937_64& rng, double tilt) {
  std::uniform_real_distribution<double> a(0, tilt), b(0, 2 * std::numbers::pi);
  const double t = a(rng), p = b(rng);
  return {std::sin(t) * std::cos(p), std::sin(t) * std::sin(p), -std::cos(t)};
}

}  // namespace

TEST_CASE("ball inside the cup: indentation, points and normal match internal sphere-sphere contact") {
  const BallAndCup& t = ball_and_cup();
  const double Rb = t.ball_radius, Rc = t.cup_radius;
  const double spacing = Rc * std::numbers::pi / 998;  // grid spacing on the cup, m
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  std::mt19937_64 rng(1);
  double worst_relative = 0, worst_absolute = 0, worst_point = 0, worst_normal = 0, worst_curvature = 0;
  int cases = 0;
  for (double delta : {1e-6, 3e-6, 1e-5, 1e-4, 1e-3}) {
    for (int k = 0; k < 40; ++k) {
      const Vector3d dir = downwards(rng, 0.6);
      const Vector3d centre = (Rc - Rb + delta) * dir;
      const ContactResult r = pair.evaluate(at(centre), at(Vector3d::Zero()));
      REQUIRE(r.status == ContactStatus::touching);
      worst_relative = std::max(worst_relative, std::abs(r.indentation - delta) / delta);
      worst_absolute = std::max(worst_absolute, std::abs(r.indentation - delta));
      worst_point = std::max({worst_point, (r.point_i - (centre + Rb * dir)).norm(), (r.point_j - Rc * dir).norm()});
      worst_normal = std::max(worst_normal, std::acos(std::min(1.0, r.normal.dot(-dir))));
      worst_curvature = std::max({worst_curvature, std::abs(r.curvature_i * Rb - 1), std::abs(r.curvature_j * Rc + 1)});
      ++cases;
    }
  }
  MESSAGE(cases << " ball-in-cup cases: worst relative indentation error " << worst_relative << ", point error "
                << worst_point << " m (grid spacing " << spacing << " m), normal " << worst_normal << " rad");
  MESSAGE("absolute indentation error " << worst_absolute << " m, curvature relative " << worst_curvature);
  // The bounds, each a few times the measured error (old bounds in brackets):
  // - indentation: the curved interpolant leaves a radial error of order R h^4 (h = pi/998, the
  //   cell's angle): (Rc + Rb) h^4 = 5.9e-12 m; measured 1.4e-13 m absolute, 1.3e-7 of the
  //   smallest indentation 1e-6 m. Bounds 5e-13 m and 5e-7 [0.01 relative, 80000 times].
  //   catches: bilinear instead of curved interpolation (chord error Rc h^2 / 8 = 6e-11 m), the
  //   indentation measured along the ball's normal at the wrong point, a sign error (2 delta).
  CHECK(worst_absolute < 5e-13);
  CHECK(worst_relative < 5e-7);
  // - points: Newton stops when its next step is under 1e-7 cells, 1.6e-11 m on the cup; measured
  //   1.5e-11 m. Bound 5e-11 m [spacing / 10 = 1.6e-5 m, a million times].
  //   catches: point_i and point_j swapped (30 mm apart), a point in the surface's own axes rather
  //   than the world's (the mount's rotation left out).
  CHECK(worst_point < 5e-11);
  // - normal: the cup's blended unit normal; along each parameter the normalised blend of two
  //   normals h apart departs from the true one by O(h^3) = 3.1e-8 rad; measured 2.1e-8 rad.
  //   Bound 1e-7 rad [1e-5 rad, 470 times].
  //   catches: the normal of body i reported instead of minus it (pi rad), n in surface axes.
  CHECK(worst_normal < 1e-7);
  // - curvatures: the mean of the stored k1 and k2, whose sum has no umbilic square root: rounding
  //   only, measured 4.4e-16. Bound 1e-14, 50 ulps for other compilers' rounding [1e-3].
  //   catches: the cup's curvature with the ball's sign convention (+1/Rc), 1/mm not 1/m (k1 alone
  //   would pass: on a sphere k1 = k2).
  CHECK(worst_curvature < 1e-14);
  MESSAGE("global searches: " << pair.global_searches() << " (a warm start far from a random case falls back to one)");

  // Apart: the ball hangs near the middle of the cup.
  const ContactResult apart = pair.evaluate(at({0.001, 0.002, -0.030}), at(Vector3d::Zero()));
  CHECK(apart.status == ContactStatus::separated);
  // Measured 9.9e-14 m, the radial error of the curved interpolants as above: bound 5e-13 m (was
  // Approx(...).epsilon(1e-6), 1e-6 m absolute, ten million times the error).
  // catches: the gap reported as a negative indentation, measured centre to centre.
  const double gap = Rc - Rb - Vector3d(0.001, 0.002, -0.030).norm();
  MESSAGE("apart: gap error " << apart.gap - gap << " m");
  CHECK(std::abs(apart.gap - gap) < 5e-13);
}

TEST_CASE("two balls, convex against convex, match external sphere-sphere contact") {
  const BallAndCup& t = ball_and_cup();
  const double Rb = t.ball_radius;
  FreeformContact pair(t.ball, t.mount, t.ball, t.mount);
  std::mt19937_64 rng(2);
  double worst_relative = 0, bb_point = 0, bb_normal = 0, bb_rate = 0;
  for (double delta : {1e-6, 1e-5, 1e-4}) {
    for (int k = 0; k < 20; ++k) {
      const Vector3d dir = downwards(rng, 0.5);  // from ball i's centre towards ball j's
      const Vector3d ci(0.1, 0.2, 0.3), cj = ci + (2 * Rb - delta) * dir;
      const ContactResult r = pair.evaluate(at(ci, {0, 0, -0.5}), at(cj));
      REQUIRE(r.status == ContactStatus::touching);
      worst_relative = std::max(worst_relative, std::abs(r.indentation - delta) / delta);
      bb_point = std::max(bb_point, (r.point_i - (ci + Rb * dir)).norm());
      bb_normal = std::max(bb_normal, std::atan2(r.normal.cross(-dir).norm(), r.normal.dot(-dir)));
      bb_rate = std::max(bb_rate, std::abs(r.indentation_rate / (-0.5 * dir.z()) - 1));  // i moves down, towards j
    }
  }
  MESSAGE("ball on ball: worst relative indentation error " << worst_relative << ", point " << bb_point
                                                            << " m, normal " << bb_normal << " rad, rate relative " << bb_rate);
  // Measured 3.4e-7 of the smallest indentation (3.4e-13 m, the curved interpolants' O(R h^4)
  // radial error): bound 1e-6 [0.01].
  CHECK(worst_relative < 1e-6);
  // Measured 4.0e-12 m, about Newton's stopping tolerance of 1e-7 cells (3.1e-12 m on the ball):
  // bound 1.5e-11 m [1e-6 m]. catches: point_i on ball j's surface (20 mm off).
  CHECK(bb_point < 1.5e-11);
  // Measured 4.0e-10 rad (these cases sit where the O(h^3) blend error is small): bound 2e-9 rad.
  // The old check, n . d > 1 - 1e-10, allowed 1.4e-5 rad. catches: the normal pointing from j
  // into i (pi rad), the normal of ball i's surface at its own foot point.
  CHECK(bb_normal < 2e-9);
  // The rate is -v_rel . n, so its relative error is about the normal's tilt: measured 1.4e-10,
  // bound 5e-10 [1.5e-6 absolute]. catches: v_rel = v_j - v_i (sign flipped), the tangential
  // part left in.
  CHECK(bb_rate < 5e-10);
}

TEST_CASE("a tracked path converges every step in a few warm-started iterations") {
  const BallAndCup& t = ball_and_cup();
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  const double Rb = t.ball_radius, Rc = t.cup_radius;
  std::map<int, int> histogram;
  double tracked = 0;
  for (int step = 0; step < 10000; ++step) {
    const double s = step * 1e-4;  // the ball rolls around the bottom, indentation 5..15 um
    const Vector3d dir = Vector3d(0.4 * std::sin(3 * s), 0.3 * std::sin(5 * s), -1).normalized();
    const double delta = 1e-5 + 5e-6 * std::sin(40 * s);
    const ContactResult r = pair.evaluate(at((Rc - Rb + delta) * dir), at(Vector3d::Zero()));
    REQUIRE(r.status == ContactStatus::touching);
    tracked = std::max(tracked, std::abs(r.indentation - delta) / delta);
    ++histogram[r.iterations];
  }
  std::string report;
  for (auto [iterations, count] : histogram) report += std::to_string(iterations) + " its: " + std::to_string(count) + "  ";
  MESSAGE("iterations per step over 10,000 steps: " << report << "; worst relative indentation error " << tracked);
  // Measured 3.0e-8 (a few 1e-13 m at 5 um): bound 1e-7 [0.01, every step]. catches: a warm start
  // accepted before convergence (one Newton step from the last step's answer).
  CHECK(tracked < 1e-7);
  CHECK(histogram.rbegin()->first <= 4);
  CHECK(pair.global_searches() == 1);
  pair.request_global_search();
  CHECK(pair.evaluate(at((Rc - Rb + 1e-5) * Vector3d(0, 0, -1)), at(Vector3d::Zero())).in_contact());
  CHECK(pair.global_searches() == 2);
  CHECK(pair.binding_i().window().stats().updates + pair.binding_j().window().stats().updates > 0);
}

// FreeformManifold keeps its answers when asked again at the same states (contact_manifold.hpp).
// That is exact because both detectors stop where Newton's next step is below tolerance without
// taking it: warm-started at their answer they stop at once, on it, bit for bit.
// catches: a solve that takes its last, sub-tolerance step (the answer would move on a repeat).
TEST_CASE("evaluated again at the same states, each detector stops at once on the same answer") {
  const BallAndCup& t = ball_and_cup();
  const double Rb = t.ball_radius, Rc = t.cup_radius;
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  SphereTableContact sphere({Vector3d::Zero(), Rb}, t.cup, t.mount, {});
  const Vector3d dir = Vector3d(0.3, -0.2, -1).normalized();
  for (double delta : {-2e-4, 3e-6}) {  // apart, then touching
    CAPTURE(delta);
    const BodyState ball = at((Rc - Rb + delta) * dir, Vector3d(0.1, 0, -0.2)), cup = at(Vector3d::Zero());
    const auto repeat = [&](auto& detector) {
      const ContactResult first = detector.evaluate(ball, cup), again = detector.evaluate(ball, cup);
      CHECK(again.iterations == 1);
      CHECK(again.status == first.status);
      CHECK(std::memcmp(&again.u_j, &first.u_j, sizeof(double)) == 0);
      CHECK(std::memcmp(&again.v_j, &first.v_j, sizeof(double)) == 0);
      CHECK(std::memcmp(&again.u_i, &first.u_i, sizeof(double)) == 0);
      CHECK(std::memcmp(&again.v_i, &first.v_i, sizeof(double)) == 0);
      CHECK(again.point_i == first.point_i);
      CHECK(again.point_j == first.point_j);
      CHECK(again.normal == first.normal);
      CHECK(std::memcmp(&again.indentation, &first.indentation, sizeof(double)) == 0);
      CHECK(std::memcmp(&again.gap, &first.gap, sizeof(double)) == 0);
    };
    repeat(pair);
    repeat(sphere);
  }
}

TEST_CASE("a contact beyond the cup's rim reports outside_domain, never NaN") {
  const BallAndCup& t = ball_and_cup();
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  // Pressed against the wall just above the rim (the table holds the lower half of the sphere
  // only), low enough that the ball still reaches into the table's box of nodes (z <= 0): its
  // common normal with the sphere lies beyond the rim, outside the table's domain.
  const Vector3d dir = Vector3d(1, 0, 0.15).normalized();
  const ContactResult r = pair.evaluate(at((0.04 + 1e-5) * dir), at(Vector3d::Zero()));
  CHECK(r.status == ContactStatus::outside_domain);
  CHECK(r.point_i.allFinite());
  CHECK(r.normal.allFinite());
  CHECK(std::isfinite(r.indentation));
  // Back below the rim, the same pair recovers.
  const ContactResult back = pair.evaluate(at((0.04 + 1e-5) * Vector3d(0.3, 0, -1).normalized()), at(Vector3d::Zero()));
  CHECK(back.status == ContactStatus::touching);
  // Measured 2.9e-14 m. Bound 1e-8 relative, 1e-13 m (the old Approx(1e-5).epsilon(1e-3) was
  // 1e-3 m absolute, a hundred times the indentation: any value in [0, 1e-3] passed).
  // catches: a recovery that keeps the clamped parameters at the rim (indentation off by mm).
  MESSAGE("back below the rim: indentation error " << back.indentation - 1e-5 << " m");
  CHECK(back.indentation == relative(1e-5, 1e-8));
}

TEST_CASE("a contact is set up with its node trees, and a damaged record fails the search that reads it") {
  // The trees are built at construction (milliseconds: a few nodes per record), not in an
  // integrator's right-hand side; the records a search descends into are verified as it reads
  // them, so damage is reported where it is used, naming the record.
  TempDir dir;
  write_damaged_table(dir / "o.sdb");
  ConvertOptions o;
  o.grid = {50, 50};
  o.record = {10, 10};
  convert_surface(*make_analytic_surface(AnalyticSpec{}), o, dir / "intact.sdb");
  const auto damaged = Database::open(dir / "o.sdb"), intact = Database::open(dir / "intact.sdb");
  FreeformContact on_damage(intact, {}, damaged, {});
  // The same octant on both sides, coincident: every record of one overlaps its twin.
  CHECK_THROWS_WITH_AS(on_damage.evaluate(BodyState{}, BodyState{}), doctest::Contains("data record 14"), FormatError);
  // An intact pair builds both trees once; a second contact on the same databases shares them.
  const FreeformContact first(intact, {}, intact, {});
  CHECK(&intact->node_tree() == &intact->node_tree());
}

TEST_CASE("shape operators at the contact points: the ball's and the cup's (I - n n^T) / R from the tables") {
  const BallAndCup& t = ball_and_cup();
  const double Rb = t.ball_radius, Rc = t.cup_radius;
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  SphereTableContact sphere({Vector3d::Zero(), Rb}, t.cup, t.mount, {});
  std::mt19937_64 rng(2);
  double worst_i = 0, worst_j = 0, worst_sphere = 0;
  for (int k = 0; k < 100; ++k) {
    const Vector3d dir = downwards(rng, 0.6);
    const Vector3d centre = (Rc - Rb + 1e-6) * dir;
    const ContactResult r = pair.evaluate(at(centre), at(Vector3d::Zero()));
    REQUIRE(r.status == ContactStatus::touching);
    const ContactShapes s = pair.shapes();
    // Each relative to its curvature 1/R: the ball convex, the cup (normal into the hollow) concave.
    worst_i = std::max(worst_i, (s.i - sphere_shape_operator(r.normal, Rb)).norm() * Rb);
    worst_j = std::max(worst_j, (s.j - sphere_shape_operator(r.normal, -Rc)).norm() * Rc);
    sphere.request_global_search();  // the cases jump about the cup: no warm start
    REQUIRE(sphere.evaluate(at(centre), at(Vector3d::Zero())).status == ContactStatus::touching);
    worst_sphere = std::max(worst_sphere, (sphere.shapes().j - s.j).norm() * Rc);
  }
  MESSAGE("shape operators, relative to 1/R: ball " << worst_i << ", cup " << worst_j << ", cup under a sphere "
                                                    << worst_sphere);
  // From the cell's normal and point derivatives: on a sphere the normal's change across a cell is
  // the point's over R, up to rounding and the curved lift (measured 9e-11, 4e-12, 4e-10 of 1/R).
  // Bound 1e-8. catches: the cup's sign (a 2/R error), a shape operator left in surface axes (the
  // mount turns surface x to body -z: an error of order 1/R), 1/mm for 1/m (a factor 1000).
  CHECK(worst_i < 1e-8);
  CHECK(worst_j < 1e-8);
  CHECK(worst_sphere < 1e-8);
}
