// Free-form contact on lookup tables against the analytic sphere-sphere solutions (Corral et al.,
// Ramalho and Ambrósio, spatial algorithms for contact detection, §3.2).
#include "surfdb/contact/contact_newton.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>

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
  double worst_relative = 0, worst_point = 0, worst_normal = 0;
  int cases = 0;
  for (double delta : {1e-6, 3e-6, 1e-5, 1e-4, 1e-3}) {
    for (int k = 0; k < 40; ++k) {
      const Vector3d dir = downwards(rng, 0.6);
      const Vector3d centre = (Rc - Rb + delta) * dir;
      const ContactResult r = pair.evaluate(at(centre), at(Vector3d::Zero()));
      REQUIRE(r.status == ContactStatus::touching);
      worst_relative = std::max(worst_relative, std::abs(r.indentation - delta) / delta);
      worst_point = std::max({worst_point, (r.point_i - (centre + Rb * dir)).norm(), (r.point_j - Rc * dir).norm()});
      worst_normal = std::max(worst_normal, std::acos(std::min(1.0, r.normal.dot(-dir))));
      CHECK(r.curvature_i == doctest::Approx(1 / Rb).epsilon(1e-3));
      CHECK(r.curvature_j == doctest::Approx(-1 / Rc).epsilon(1e-3));
      ++cases;
    }
  }
  MESSAGE(cases << " ball-in-cup cases: worst relative indentation error " << worst_relative << ", point error "
                << worst_point << " m (grid spacing " << spacing << " m), normal " << worst_normal << " rad");
  CHECK(worst_relative < 0.01);
  CHECK(worst_point < spacing / 10);
  CHECK(worst_normal < 1e-5);
  MESSAGE("global searches: " << pair.global_searches() << " (a warm start far from a random case falls back to one)");

  // Apart: the ball hangs near the middle of the cup.
  const ContactResult apart = pair.evaluate(at({0.001, 0.002, -0.030}), at(Vector3d::Zero()));
  CHECK(apart.status == ContactStatus::separated);
  CHECK(apart.gap == doctest::Approx(Rc - Rb - Vector3d(0.001, 0.002, -0.030).norm()).epsilon(1e-6));
}

TEST_CASE("two balls, convex against convex, match external sphere-sphere contact") {
  const BallAndCup& t = ball_and_cup();
  const double Rb = t.ball_radius;
  FreeformContact pair(t.ball, t.mount, t.ball, t.mount);
  std::mt19937_64 rng(2);
  double worst_relative = 0;
  for (double delta : {1e-6, 1e-5, 1e-4}) {
    for (int k = 0; k < 20; ++k) {
      const Vector3d dir = downwards(rng, 0.5);  // from ball i's centre towards ball j's
      const Vector3d ci(0.1, 0.2, 0.3), cj = ci + (2 * Rb - delta) * dir;
      const ContactResult r = pair.evaluate(at(ci, {0, 0, -0.5}), at(cj));
      REQUIRE(r.status == ContactStatus::touching);
      worst_relative = std::max(worst_relative, std::abs(r.indentation - delta) / delta);
      CHECK((r.point_i - (ci + Rb * dir)).norm() < 1e-6);
      CHECK(r.normal.dot(-dir) > 1 - 1e-10);
      CHECK(r.indentation_rate == doctest::Approx(-0.5 * dir.z()).epsilon(1e-6));  // i moves down, towards j
    }
  }
  MESSAGE("ball on ball: worst relative indentation error " << worst_relative);
  CHECK(worst_relative < 0.01);
}

TEST_CASE("a tracked path converges every step in a few warm-started iterations") {
  const BallAndCup& t = ball_and_cup();
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  const double Rb = t.ball_radius, Rc = t.cup_radius;
  std::map<int, int> histogram;
  for (int step = 0; step < 10000; ++step) {
    const double s = step * 1e-4;  // the ball rolls around the bottom, indentation 5..15 um
    const Vector3d dir = Vector3d(0.4 * std::sin(3 * s), 0.3 * std::sin(5 * s), -1).normalized();
    const double delta = 1e-5 + 5e-6 * std::sin(40 * s);
    const ContactResult r = pair.evaluate(at((Rc - Rb + delta) * dir), at(Vector3d::Zero()));
    REQUIRE(r.status == ContactStatus::touching);
    CHECK(std::abs(r.indentation - delta) < 0.01 * delta);
    ++histogram[r.iterations];
  }
  std::string report;
  for (auto [iterations, count] : histogram) report += std::to_string(iterations) + " its: " + std::to_string(count) + "  ";
  MESSAGE("iterations per step over 10,000 steps: " << report);
  CHECK(histogram.rbegin()->first <= 4);
  CHECK(pair.global_searches() == 1);
  pair.request_global_search();
  CHECK(pair.evaluate(at((Rc - Rb + 1e-5) * Vector3d(0, 0, -1)), at(Vector3d::Zero())).in_contact());
  CHECK(pair.global_searches() == 2);
  CHECK(pair.binding_i().window().stats().updates + pair.binding_j().window().stats().updates > 0);
}

TEST_CASE("a contact beyond the cup's rim reports outside_domain, never NaN") {
  const BallAndCup& t = ball_and_cup();
  FreeformContact pair(t.ball, t.mount, t.cup, t.mount);
  // Pressed against the wall above the rim (the table holds the lower half of the sphere only).
  const Vector3d dir = Vector3d(1, 0, 0.6).normalized();
  const ContactResult r = pair.evaluate(at((0.04 + 1e-5) * dir), at(Vector3d::Zero()));
  CHECK(r.status == ContactStatus::outside_domain);
  CHECK(r.point_i.allFinite());
  CHECK(r.normal.allFinite());
  CHECK(std::isfinite(r.indentation));
  // Back below the rim, the same pair recovers.
  const ContactResult back = pair.evaluate(at((0.04 + 1e-5) * Vector3d(0.3, 0, -1).normalized()), at(Vector3d::Zero()));
  CHECK(back.status == ContactStatus::touching);
  CHECK(back.indentation == doctest::Approx(1e-5).epsilon(1e-3));
}

TEST_CASE("a contact is set up with its node trees: a damaged table fails at construction, not in a step") {
  // Catches a node tree built lazily at the first evaluation, i.e. inside an integrator's
  // right-hand side, where an exception (or seconds of work) is out of place.
  TempDir dir;
  write_damaged_table(dir / "o.sdb");
  ConvertOptions o;
  o.grid = {50, 50};
  o.record = {10, 10};
  convert_surface(*make_analytic_surface(AnalyticSpec{}), o, dir / "intact.sdb");
  const auto damaged = Database::open(dir / "o.sdb"), intact = Database::open(dir / "intact.sdb");
  CHECK_THROWS_WITH_AS(FreeformContact(intact, {}, damaged, {}), doctest::Contains("damaged"), FormatError);
  // An intact pair builds both trees once; a second contact on the same databases shares them.
  const FreeformContact first(intact, {}, intact, {});
  CHECK(&intact->node_tree() == &intact->node_tree());
}
