// A manifold of face-pair detectors: what it keeps between evaluations at the same body states.
#include "surfdb/contact/contact_manifold.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "../support/ball_and_cup.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;

namespace {

BodyState at(const Vector3d& r, const Vector3d& velocity = Vector3d::Zero(),
             const Vector3d& angular_velocity = Vector3d::Zero()) {
  BodyState s;
  s.pose.r = r;
  s.velocity = velocity;
  s.angular_velocity = angular_velocity;
  return s;
}

// The ball (body i) inside the cup (body j, at rest at the origin), its centre `depth` beyond
// touching straight below the cup's centre: the contact normal (out of the cup) is +z.
BodyState ball_below(double depth, const Vector3d& velocity = Vector3d::Zero(),
                     const Vector3d& angular_velocity = Vector3d::Zero()) {
  const BallAndCup& t = ball_and_cup();
  return at({0, 0, -(t.cup_radius - t.ball_radius + depth)}, velocity, angular_velocity);
}

FreeformManifold ball_in_cup() {
  const BallAndCup& t = ball_and_cup();
  return FreeformManifold(TableSet::single(t.ball), t.mount, TableSet::single(t.cup), t.mount);
}

bool same_bits(const ContactResult& a, const ContactResult& b) {
  const auto same = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return a.status == b.status && a.iterations == b.iterations && same(a.u_i, b.u_i) && same(a.v_i, b.v_i) && same(a.u_j, b.u_j) &&
         same(a.v_j, b.v_j) && a.point_i == b.point_i && a.point_j == b.point_j && a.normal == b.normal &&
         same(a.indentation, b.indentation) && same(a.gap, b.gap) && same(a.indentation_rate, b.indentation_rate) &&
         a.tangential_velocity == b.tangential_velocity;
}

}  // namespace

TEST_CASE("a manifold evaluated again at the very same states keeps its answers, and changed velocities are seen") {
  FreeformManifold m = ball_in_cup();
  const BodyState cup = at(Vector3d::Zero());
  const Vector3d v(0.02, -0.01, -0.3);  // m/s, the ball approaching the cup's bottom
  m.evaluate(ball_below(1e-5, v), cup);
  const ContactResult first = m.results()[0];
  REQUIRE(first.in_contact());
  CHECK(first.indentation == doctest::Approx(1e-5).epsilon(1e-6));
  // The approach rate is -v . n with n = +z: 0.3 m/s.
  CHECK(first.indentation_rate == doctest::Approx(0.3).epsilon(1e-9));
  REQUIRE(first.iterations > 1);  // from the global search
  m.latch();
  // catches: no kept answer (a solve warm-started at the answer stops after 1 iteration).
  m.evaluate(ball_below(1e-5, v), cup);
  CHECK(same_bits(m.results()[0], first));
  CHECK(m.active(0));

  // The same pose, other velocities: each must reach the answer. Closed forms at the contact
  // point p_i = centre - R_b z: the rate -(v + w x (p_i - r)) . z; the tangential part the rest.
  // catches: a kept answer keyed on the poses alone.
  const Vector3d slower(0.02, -0.01, -0.1);
  m.evaluate(ball_below(1e-5, slower), cup);
  CHECK(m.results()[0].indentation_rate == doctest::Approx(0.1).epsilon(1e-9));
  const Vector3d w(0, 4, 0);  // rad/s: the contact point, R_b below the centre, moves by w x (-R_b z)
  m.evaluate(ball_below(1e-5, slower, w), cup);
  const Vector3d spin = w.cross(Vector3d(0, 0, -ball_and_cup().ball_radius));
  CHECK((m.results()[0].tangential_velocity - (Vector3d(0.02, -0.01, 0) + spin)).norm() < 1e-12);
  // catches: the key comparing the ball's state alone (the cup's velocity changes the rate).
  m.evaluate(ball_below(1e-5, slower, w), at(Vector3d::Zero(), Vector3d(0, 0, 0.2)));
  CHECK(m.results()[0].indentation_rate == doctest::Approx(0.3).epsilon(1e-9));
}

// catches: a kept answer that keeps the active slots too (release() and latch() change them).
TEST_CASE("a release at the very same states is seen: a deep point that may no longer go on carries no force") {
  FreeformManifold m = ball_in_cup();
  const BodyState cup = at(Vector3d::Zero());
  m.evaluate(ball_below(1e-5), cup);
  REQUIRE(m.active(0));
  m.latch();
  // Twice the entry depth (1e-3 m), reached from an accepted contact: it goes on.
  m.evaluate(ball_below(2e-3), cup);
  REQUIRE(m.results()[0].in_contact());
  CHECK(m.active(0));
  // catches: release() leaving the last answers in place, with their slot still active.
  m.release();
  m.evaluate(ball_below(2e-3), cup);
  CHECK(m.results()[0].in_contact());
  CHECK_FALSE(m.active(0));
}
