// Bodies a fixed joint holds together, solved as one (welded_bodies.hpp): which welds merge, the
// composite's motion against the closed form of one rigid body, and the same accelerations, joint
// reactions and trajectories as the fixed joints' six equations give.
#include "surfdb/multibody/welded_bodies.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"
#include "../support/placed_joints.hpp"

using namespace surfdb;
using surfdb::test::joint_between;
using surfdb::test::Placed;
using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

Matrix3d axes_of(const Quaterniond& q) { return q.normalized().toRotationMatrix(); }

// An arm on a spherical joint at the origin carrying a cup (welded as body j) and a weight (welded as
// body i), and two free bodies welded to each other. Bodies placed at t = 0, each with its own axes.
struct Scene {
  MultibodyModel model;
  std::vector<Placed> at;
  std::vector<double> y;
};

Scene welded_scene() {
  Scene s;
  s.model.bodies = {{"arm", 2.0, Vector3d(0.01, 0.02, 0.03).asDiagonal()},
                    {"cup", 0.3, Vector3d(1e-3, 2e-3, 1.5e-3).asDiagonal()},
                    {"weight", 0.5, Vector3d(4e-4, 5e-4, 6e-4).asDiagonal()},
                    {"left", 1.0, Vector3d(2e-3, 3e-3, 4e-3).asDiagonal()},
                    {"right", 0.7, Vector3d(1e-3, 1e-3, 2e-3).asDiagonal()}};
  s.at = {{{0.3, 0.0, 0.0}, Quaterniond(0.9, 0.1, -0.3, 0.2).normalized()},
          {{0.4, 0.1, 0.05}, Quaterniond(0.5, 0.5, -0.5, 0.4).normalized()},
          {{0.2, -0.1, -0.05}, Quaterniond(0.2, -0.7, 0.1, 0.6).normalized()},
          {{1.0, 1.0, 1.0}, Quaterniond(0.7, 0.0, 0.7, 0.1).normalized()},
          {{1.1, 0.9, 1.2}, Quaterniond(0.3, 0.3, 0.6, -0.6).normalized()}};
  const Matrix3d tilted = axes_of(Quaterniond(0.8, 0.2, 0.4, -0.1));
  s.model.joints = {joint_between(JointType::spherical, kGround, 0, s.at, Vector3d::Zero(), Matrix3d::Identity()),
                    joint_between(JointType::fixed, 0, 1, s.at, Vector3d(0.35, 0.05, 0.0), tilted),
                    joint_between(JointType::fixed, 2, 0, s.at, Vector3d(0.25, -0.05, 0.0), Matrix3d::Identity()),
                    joint_between(JointType::fixed, 3, 4, s.at, Vector3d(1.05, 0.95, 1.1), tilted)};
  // Each group turns and moves as one rigid body: v = v_0 + w x (r - r_0), w' = A^T w.
  const Vector3d w_arm(1.0, -2.0, 3.0), w_pair(-0.5, 0.8, 0.3), v_left(0.2, -0.1, 0.4);
  s.y.assign(static_cast<std::size_t>(kBodyStateSize) * 5, 0.0);
  const auto place = [&](int k, const Vector3d& v, const Vector3d& w) {
    const Placed& p = s.at[static_cast<std::size_t>(k)];
    set_body_state(s.y.data(), k, p.r, p.q, v, axes_of(p.q).transpose() * w);
  };
  for (int k = 0; k < 3; ++k) place(k, w_arm.cross(s.at[static_cast<std::size_t>(k)].r), w_arm);
  place(3, v_left, w_pair);
  place(4, v_left + w_pair.cross(s.at[4].r - s.at[3].r), w_pair);
  return s;
}

// Forces and torques on every body but the arm (body 0), world axes.
const std::vector<BodyLoad> push = {{},
                                    {Vector3d(1.0, 2.0, 3.0), Vector3d(0.1, -0.2, 0.3)},
                                    {Vector3d(-2.0, 0.5, 1.0), Vector3d(0.0, 0.05, -0.1)},
                                    {Vector3d(0.3, -0.4, 0.2), Vector3d(0.02, 0.01, 0.0)},
                                    {Vector3d(0.0, 1.5, -0.5), Vector3d(-0.03, 0.0, 0.04)}};

// The dynamics under push(), as an integrator takes it.
struct Pushed : OdeSystem {
  Dynamics& dynamics;
  explicit Pushed(Dynamics& d) : dynamics(d) {}
  int size() const override { return dynamics.size(); }
  void derivative(double t, const double* y, double* ydot) override { dynamics.derivative(t, y, ydot, push); }
  void normalise(double* y) const override { dynamics.normalise(y); }
};

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  return worst;
}

}  // namespace

TEST_CASE("a fixed joint merges when one of its bodies is in nothing else") {
  const Scene s = welded_scene();
  const WeldedBodies welds(s.model, true);
  REQUIRE(welds.reduced().bodies.size() == 2);  // arm with cup and weight; left with right
  CHECK(welds.reduced().joints.size() == 1);
  CHECK(welds.reduced().bodies[0].mass == doctest::Approx(2.8).epsilon(1e-15));
  CHECK(welds.reduced_joint(0) == 0);
  CHECK(welds.reduced_joint(1) == -1);
  CHECK(welds.member_of(1) == 1);
  CHECK(welds.member_of(2) == 2);  // given as body i
  CHECK(welds.member_of(3) == 4);  // body j when both could be
  CHECK(welds.reduced_body(4) == 1);
  CHECK(welds.alone(0) == false);

  MultibodyModel chained = s.model;  // the cup now also hangs on a spherical joint: it stays
  chained.joints.push_back(joint_between(JointType::spherical, kGround, 1, s.at, s.at[1].r, Matrix3d::Identity()));
  CHECK(WeldedBodies(chained, true).reduced_joint(1) == 1);
  MultibodyModel grounded = s.model;  // a fixed joint to the ground stays a joint
  grounded.joints[3].body_i = kGround;
  CHECK(WeldedBodies(grounded, true).reduced_joint(3) >= 0);
  CHECK(WeldedBodies(s.model, false).empty());

  MultibodyModel driven = s.model;  // a joint and its driver after the merged welds, renumbered
  driven.joints.push_back(joint_between(JointType::revolute, kGround, 4, s.at, s.at[4].r, Matrix3d::Identity()));
  driven.drivers = {{"motor", 4, DriverType::angle, DriverFunction{}}};
  const WeldedBodies renumbered(driven, true);
  CHECK(renumbered.reduced_joint(4) == 1);
  CHECK(renumbered.reduced().drivers[0].joint == 1);
  CHECK(renumbered.reduced().joints[1].body_j == 1);  // right, now part of left's composite
  CHECK(renumbered.member_of(3) == 3);                 // right is jointed elsewhere: left is the member
}

TEST_CASE("a free welded pair moves as one rigid body: momentum and the composite's inertia by hand") {
  Scene s = welded_scene();
  // At rest, under loads only on the pair: the centre of mass takes (F_left + F_right) / M + g and
  // the pair turns at I_c^-1 T about it, I_c and T summed about the joint centre of mass by hand.
  for (int k = 3; k < 5; ++k)
    for (int c = 7; c < 13; ++c) s.y[static_cast<std::size_t>(kBodyStateSize * k + c)] = 0;
  Dynamics dynamics(s.model);
  std::vector<double> ydot(s.y.size());
  dynamics.derivative(0, s.y.data(), ydot.data(), push);
  const double m3 = s.model.bodies[3].mass, m4 = s.model.bodies[4].mass, m = m3 + m4;
  const Vector3d c = (m3 * s.at[3].r + m4 * s.at[4].r) / m;
  const Vector3d F3(0.3, -0.4, 0.2), F4(0.0, 1.5, -0.5);
  const Vector3d torque = Vector3d(0.02, 0.01, 0.0) + Vector3d(-0.03, 0.0, 0.04) + (s.at[3].r - c).cross(F3) +
                          (s.at[4].r - c).cross(F4);
  Matrix3d inertia = Matrix3d::Zero();
  for (int k = 3; k < 5; ++k) {
    const Matrix3d A = axes_of(s.at[static_cast<std::size_t>(k)].q);
    const Vector3d e = s.at[static_cast<std::size_t>(k)].r - c;
    const double mk = s.model.bodies[static_cast<std::size_t>(k)].mass;
    inertia += A * s.model.bodies[static_cast<std::size_t>(k)].inertia * A.transpose() +
               mk * (e.squaredNorm() * Matrix3d::Identity() - e * e.transpose());
  }
  const Vector3d alpha = inertia.inverse() * torque;  // world axes
  const Vector3d a_centre = (F3 + F4) / m + s.model.gravity;
  for (int k = 3; k < 5; ++k) {
    const double* d = ydot.data() + kBodyStateSize * k;
    const Matrix3d A = axes_of(s.at[static_cast<std::size_t>(k)].q);
    const Vector3d a_expected = a_centre + alpha.cross(s.at[static_cast<std::size_t>(k)].r - c);  // at rest
    CHECK((Vector3d(d[7], d[8], d[9]) - a_expected).norm() < 1e-12 * a_expected.norm());
    CHECK((A * Vector3d(d[10], d[11], d[12]) - alpha).norm() < 1e-12 * alpha.norm());
  }
}

TEST_CASE("a merged body off its place is pulled back as the joints' stabilisation would") {
  const Scene s = welded_scene();
  const Stabilisation gains{5, 7, 100};
  Dynamics merged(s.model, gains);
  std::vector<double> y = s.y, at_place(y.size()), off_place(y.size());
  merged.derivative(0, y.data(), at_place.data());
  // The cup 1 mm off and 0.1 m/s too fast along x, a turn of 1e-3 rad about its own z and 0.2 rad/s
  // too fast about it: the composite moves as before (no loads), the cup's accelerations change by
  // -2 alpha e_dot - beta^2 e.
  const Vector3d shift(1e-3, 0, 0), too_fast(0.1, 0, 0), turn(0, 0, 1e-3), spin(0, 0, 0.2);
  double* cup = y.data() + kBodyStateSize;
  const Quaterniond q = Quaterniond(cup[3], cup[4], cup[5], cup[6]) * Quaterniond(Eigen::AngleAxisd(turn.norm(), turn.normalized()));
  for (int k = 0; k < 3; ++k) cup[k] += shift[k], cup[7 + k] += too_fast[k], cup[10 + k] += spin[k];
  cup[3] = q.w(), cup[4] = q.x(), cup[5] = q.y(), cup[6] = q.z();
  merged.derivative(0, y.data(), off_place.data());
  const double* a = at_place.data() + kBodyStateSize;
  const double* b = off_place.data() + kBodyStateSize;
  const Vector3d linear = -2 * gains.alpha * too_fast - gains.beta * gains.beta * shift;
  const Vector3d angular = -2 * gains.alpha * spin - gains.beta * gains.beta * turn;
  CHECK((Vector3d(b[7], b[8], b[9]) - Vector3d(a[7], a[8], a[9]) - linear).norm() < 1e-9);
  CHECK((Vector3d(b[10], b[11], b[12]) - Vector3d(a[10], a[11], a[12]) - angular).norm() < 1e-6 * angular.norm());
  CHECK(largest_difference(std::vector<double>(at_place.begin(), at_place.begin() + kBodyStateSize),
                           std::vector<double>(off_place.begin(), off_place.begin() + kBodyStateSize)) == 0);
}

TEST_CASE("merged and constrained welds give the same accelerations and joint reactions") {
  const Scene s = welded_scene();
  Dynamics merged(s.model), constrained(s.model, {}, Welds::constrain);
  CHECK(merged.multipliers().size() == 3);
  CHECK(constrained.multipliers().size() == 21);
  std::vector<double> a(s.y.size()), b(s.y.size());
  merged.derivative(0, s.y.data(), a.data(), push);
  constrained.derivative(0, s.y.data(), b.data(), push);
  double scale = 0;
  for (double v : b) scale = std::max(scale, std::abs(v));
  CHECK(largest_difference(a, b) < 1e-10 * scale);
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    const BodyLoad m = merged.joint_reaction(k), c = constrained.joint_reaction(k);
    CHECK((m.force - c.force).norm() < 1e-10 * c.force.norm());
    CHECK((m.torque - c.torque).norm() < 1e-10 * c.torque.norm());
  }
  for (int k = 0; k < 5; ++k) CHECK((merged.linear_acceleration(k) - constrained.linear_acceleration(k)).norm() < 1e-10 * scale);
}

TEST_CASE("a merged body is put back where its weld holds it after each step, and moves as with the joint") {
  Scene s = welded_scene();
  Dynamics merged(s.model), constrained(s.model, {}, Welds::constrain);
  std::vector<double> y = s.y;
  y[kBodyStateSize * 1 + 0] += 1e-3;   // the cup off its place
  y[kBodyStateSize * 4 + 11] -= 0.1;   // the right body turning on its own
  merged.normalise(y.data());
  CHECK(merged.position_violation(0, y.data()) < 1e-15);
  CHECK(largest_difference(y, s.y) < 1e-14);
  for (int c = 3; c < 7; ++c) y[kBodyStateSize * 1 + c] = -y[kBodyStateSize * 1 + c];  // the same rotation
  merged.normalise(y.data());
  CHECK(y[kBodyStateSize * 1 + 3] == doctest::Approx(-s.y[kBodyStateSize * 1 + 3]).epsilon(1e-14));

  // Half a second of gravity and the loads: the spherical pendulum and the free pair, both ways.
  std::vector<double> ym = s.y, yc = s.y;
  Pushed pushed_merged(merged), pushed_constrained(constrained);
  Rk4 rk4(merged.state_size());
  const double h = 1e-4;
  for (int n = 0; n < 5000; ++n) {
    rk4.step(pushed_merged, n * h, h, ym.data());
    rk4.step(pushed_constrained, n * h, h, yc.data());
  }
  for (int k = 0; k < 5; ++k) {
    CAPTURE(k);
    CHECK((body_view(ym.data(), k).r() - body_view(yc.data(), k).r()).norm() < 1e-9);
    CHECK((body_view(ym.data(), k).v() - body_view(yc.data(), k).v()).norm() < 1e-8);
  }
  // The welds held exactly; the spherical joint drifts as much either way.
  const double drift_merged = merged.position_violation(0.5, ym.data()), drift = constrained.position_violation(0.5, yc.data());
  MESSAGE("constraint drift after 0.5 s: " << drift_merged << " m merged, " << drift << " m constrained");
  CHECK(drift_merged < 1e-12);
}
