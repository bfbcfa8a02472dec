// Baumgarte stabilisation against its closed form: each equation of a joint started with a small
// violation Phi0, at rest and without gravity, obeys Phi'' + 2 alpha Phi' + beta^2 Phi = 0 exactly
// (dynamics.hpp's acceleration equation), whatever the bodies do along their free directions. From
// Phi'(0) = 0 that is Phi0 (1 + beta t) e^(-beta t) when alpha = beta (critically damped), and
// Phi0 e^(-alpha t) (cos w t + alpha / w sin w t), w = sqrt(beta^2 - alpha^2), when alpha < beta.
// Every joint kind to the ground, with the body placed off the joint (shifted and turned), and a
// revolute joint between two free bodies both off it; integrated with RK4 at 1e-4 s, the equations
// read with evaluate_constraints.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "../support/placed_joints.hpp"

using namespace surfdb;
using surfdb::test::Placed;
using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

// A joint as placed_joints.hpp makes it; a universal joint's cross axes: x_j along y_i at
// assembly (x_i . x_j = 0).
Joint placed_joint(JointType type, int body_i, int body_j, const std::vector<Placed>& at, const Vector3d& point,
                   const Matrix3d& world_axes) {
  Joint j = test::joint_between(type, body_i, body_j, at, point, world_axes);
  if (type == JointType::universal)
    j.frame_j.axes = j.frame_j.axes * Eigen::AngleAxisd(std::numbers::pi / 2, Vector3d::UnitZ()).toRotationMatrix();
  return j;
}

std::string name_of(JointType type) {
  switch (type) {
    case JointType::spherical: return "spherical";
    case JointType::revolute: return "revolute";
    case JointType::universal: return "universal";
    case JointType::cylindrical: return "cylindrical";
    case JointType::translational: return "translational";
    case JointType::fixed: return "fixed";
  }
  return "?";
}

// Phi(t) / Phi0 for Phi'(0) = 0.
double decay(const Stabilisation& g, double t) {
  if (g.alpha == g.beta) return (1 + g.beta * t) * std::exp(-g.beta * t);
  const double w = std::sqrt(g.beta * g.beta - g.alpha * g.alpha);
  return std::exp(-g.alpha * t) * (std::cos(w * t) + g.alpha / w * std::sin(w * t));
}

struct Decay {
  double largest_start = 0;  // max |Phi0|
  double worst = 0;          // max over rows and sampled times of |Phi - Phi0 decay(t)|
  double end_ratio = 0;      // max |Phi(t_end)| / max |Phi0|
};

// Integrates the model from y (bodies at rest, off their joints) to t_end and compares every
// equation with the closed form at each 0.01 s.
// The dynamics with `dynamics_gains`, the closed form with `gains`.
Decay run_off_joint(const MultibodyModel& model, std::vector<double> y, const Stabilisation& gains, double t_end,
                    Welds welds = Welds::merge, std::optional<Stabilisation> dynamics_gains = {}) {
  Dynamics dynamics(model, dynamics_gains.value_or(gains), welds);
  ConstraintSet set(model);
  evaluate_constraints(model, 0, y.data(), set);
  const Eigen::VectorXd phi0 = set.phi;
  Decay d;
  d.largest_start = phi0.cwiseAbs().maxCoeff();
  Rk4 rk4(dynamics.size());
  constexpr double h = 1e-4;
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int n = 1; n <= steps; ++n) {
    rk4.step(dynamics, (n - 1) * h, h, y.data());
    if (n % 100 != 0) continue;
    const double t = n * h;
    evaluate_constraints(model, t, y.data(), set);
    d.worst = std::max(d.worst, (set.phi - phi0 * decay(gains, t)).cwiseAbs().maxCoeff());
    if (n == steps) d.end_ratio = set.phi.cwiseAbs().maxCoeff() / d.largest_start;
  }
  return d;
}

const Matrix3d kTilted = Quaterniond(0.8, 0.2, 0.4, -0.1).normalized().toRotationMatrix();
const Vector3d kShift(1e-3, -2e-3, 1.5e-3);  // m, the body's offset from its place on the joint
const Quaterniond kTurn(Eigen::AngleAxisd(3e-3, Vector3d(0.3, -0.5, 0.8).normalized()));  // 3 mrad

MultibodyModel one_body(JointType type, const std::vector<Placed>& at) {
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"link", 2.0, Vector3d(0.01, 0.02, 0.03).asDiagonal()}};
  model.joints = {placed_joint(type, kGround, 0, at, Vector3d(0.1, 0.2, 0.3), kTilted)};
  return model;
}

std::vector<double> at_rest_off(const std::vector<Placed>& at, std::size_t moved) {
  std::vector<double> y(static_cast<std::size_t>(kBodyStateSize) * at.size());
  for (std::size_t k = 0; k < at.size(); ++k) {
    const bool off = k < moved;
    const double sign = k % 2 ? -1.0 : 1.0;  // the second body off the other way
    set_body_state(y.data(), static_cast<int>(k), at[k].r + (off ? Vector3d(sign * kShift) : Vector3d::Zero()),
                   off ? (sign > 0 ? kTurn : kTurn.inverse()) * at[k].q : at[k].q, Vector3d::Zero(), Vector3d::Zero());
  }
  return y;
}

}  // namespace

TEST_CASE("every joint kind off its place decays as Phi'' + 2 alpha Phi' + beta^2 Phi = 0 predicts") {
  // catches: the velocity gain doubled or dropped, alpha and beta swapped, beta not squared, the
  // stabilisation applied with the wrong sign (a violation that grows), gamma not matching Phi.
  const std::vector<Placed> at = {{{0.3, 0.0, 0.1}, Quaterniond(0.9, 0.1, -0.3, 0.2).normalized()}};
  for (const Stabilisation gains : {Stabilisation{20, 20, 100}, Stabilisation{5, 20, 100}}) {
    for (const JointType type : {JointType::spherical, JointType::revolute, JointType::universal,
                                 JointType::cylindrical, JointType::translational, JointType::fixed}) {
      CAPTURE(name_of(type));
      CAPTURE(gains.alpha);
      const Decay d = run_off_joint(one_body(type, at), at_rest_off(at, 1), gains, 0.3);
      MESSAGE(name_of(type) << ", alpha " << gains.alpha << ": |Phi0| " << d.largest_start << ", worst "
                            << d.worst << ", end " << d.end_ratio);
      CHECK(d.largest_start > 1e-4);  // really off
      CHECK(d.worst < 1e-9 * d.largest_start);
      CHECK(d.end_ratio < 2 * std::abs(decay(gains, 0.3)) + 1e-4);
    }
  }
}

TEST_CASE("a revolute and a fixed joint between two free bodies both off them decay as the closed form") {
  // The fixed joint as its six equations (Welds::constrain): a merged weld's pull-back is
  // welded_bodies_test.cpp's.
  const std::vector<Placed> at = {{{0.3, 0.0, 0.1}, Quaterniond(0.9, 0.1, -0.3, 0.2).normalized()},
                                  {{0.5, 0.2, 0.0}, Quaterniond(0.2, -0.7, 0.1, 0.6).normalized()}};
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"a", 2.0, Vector3d(0.01, 0.02, 0.03).asDiagonal()},
                  {"b", 0.5, Vector3d(4e-3, 2e-3, 3e-3).asDiagonal()}};
  for (const JointType type : {JointType::revolute, JointType::fixed}) {
    CAPTURE(name_of(type));
    model.joints = {placed_joint(type, 0, 1, at, Vector3d(0.4, 0.1, 0.05), kTilted)};
    const Decay d = run_off_joint(model, at_rest_off(at, 2), Stabilisation{20, 20, 100}, 0.3, Welds::constrain);
    MESSAGE(name_of(type) << " between two bodies: |Phi0| " << d.largest_start << ", worst " << d.worst);
    CHECK(d.largest_start > 1e-4);
    CHECK(d.worst < 1e-9 * d.largest_start);
  }
}

TEST_CASE("the default stabilisation is the documented alpha = beta = 20 1/s") {
  // docs/scenario.md: stabilisation_gain defaults to 20, the scenario's alpha = beta = the gain.
  const std::vector<Placed> at = {{{0.3, 0.0, 0.1}, Quaterniond(0.9, 0.1, -0.3, 0.2).normalized()}};
  const Decay d = run_off_joint(one_body(JointType::revolute, at), at_rest_off(at, 1), Stabilisation{20, 20, 100}, 0.3,
                                Welds::merge, Stabilisation{});
  CHECK(d.worst < 1e-9 * d.largest_start);
}
