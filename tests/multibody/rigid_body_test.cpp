// One free rigid body, torque-free and without gravity: the gyroscopic term w' x J w' of the
// Newton-Euler equations against what it must conserve and against the closed-form solution of
// Euler's equations J w'dot + w' x J w' = 0 (body axes). See Goldstein, Poole and Safko,
// "Classical Mechanics" (3rd ed., 2002), sections 5.5 and 5.6, and Landau and Lifshitz, "Mechanics"
// (3rd ed., 1976), sections 36 and 37.
//
// Step and tolerances: fixed-step RK4 with h = 1e-4 s on spins of |w'| <= 10 rad/s, so z = |w'| h
// <= 1e-3. RK4's local error is about z^5 / 120 relative per step, its global error over w T radians
// of motion about z^4 / 120 w T: below 1e-13 for the runs here (at most ~100 rad). Round-off
// adds at most ~1e5 steps x 2e-16 = 2e-11 even if every step's rounding went the same way. The
// checks allow 1e-10 relative; the MESSAGEs print what the runs reach (~1e-14). A flipped
// gyroscopic term makes errors of order one.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <vector>

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"

using namespace surfdb;

namespace {

constexpr double kStep = 1e-4;        // s
constexpr double kTolerance = 1e-10;  // relative, see the header comment

// A free body of 2 kg with principal moments J (kg m^2) along its body axes, no joints, no gravity.
MultibodyModel free_body(const Eigen::Vector3d& principal_moments) {
  MultibodyModel model;
  model.gravity = Eigen::Vector3d::Zero();
  model.bodies = {{"body", 2.0, principal_moments.asDiagonal()}};
  return model;
}

// A start orientation away from the world axes, so that H = A J w' depends on A.
Eigen::Quaterniond tilted() {
  return Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
}

// Integrates the body from w'(0) = w0 (body axes) for `end` seconds with RK4 and calls
// observe(t, orientation A, w') after every step.
template <class Observer>
void spin(const MultibodyModel& model, const Eigen::Vector3d& w0, double end, Observer observe) {
  Dynamics dynamics(model);
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, Eigen::Vector3d::Zero(), tilted(), Eigen::Vector3d::Zero(), w0);
  Rk4 rk4(dynamics.state_size());
  const long steps = std::lround(end / kStep);
  for (long k = 0; k < steps; ++k) {
    rk4.step(dynamics, k * kStep, kStep, y.data());
    const BodyStateView b = body_view(y.data(), 0);
    observe((k + 1) * kStep, b.orientation().toRotationMatrix(), Eigen::Vector3d(b.w_body()));
  }
}

// Over `end` seconds from w' = rate along body axis `axis` plus rate x perturbation along each of
// the two others: the largest angle (rad) between w' and that axis, the smallest
// component along it relative to |w'(0)|, and when that component first turned negative (s).
struct AxisExcursion {
  double largest_angle = 0, smallest_component = 1, first_flip = -1;
};

AxisExcursion spin_about_axis(const Eigen::Vector3d& J, int axis, double rate, double perturbation, double end) {
  Eigen::Vector3d w0 = Eigen::Vector3d::Constant(perturbation * rate);
  w0[axis] = rate;
  AxisExcursion e;
  spin(free_body(J), w0, end, [&](double t, const Eigen::Matrix3d&, const Eigen::Vector3d& w) {
    if (w[axis] < 0 && e.first_flip < 0) e.first_flip = t;
    e.largest_angle = std::max(e.largest_angle, std::acos(std::clamp(w[axis] / w.norm(), -1.0, 1.0)));
    e.smallest_component = std::min(e.smallest_component, w[axis] / w0.norm());
  });
  return e;
}

}  // namespace

TEST_CASE("torque-free asymmetric body about a non-principal axis keeps its energy and world angular momentum") {
  const Eigen::Vector3d J(0.01, 0.02, 0.03);  // kg m^2, distinct principal moments
  const MultibodyModel model = free_body(J);
  const Eigen::Vector3d w0(3, 4, 5);  // rad/s, |w'| ~ 7: the polhode circles the major (z) axis
  const double energy0 = 0.5 * w0.dot(J.cwiseProduct(w0));
  const Eigen::Vector3d momentum0 = tilted().toRotationMatrix() * J.cwiseProduct(w0);
  double worst_energy = 0, worst_momentum = 0, last_wx = w0.x();
  int wx_sign_changes = 0;
  spin(model, w0, 10.0, [&](double, const Eigen::Matrix3d& A, const Eigen::Vector3d& w) {
    worst_energy = std::max(worst_energy, std::abs(0.5 * w.dot(J.cwiseProduct(w)) - energy0) / energy0);
    worst_momentum = std::max(worst_momentum, (A * J.cwiseProduct(w) - momentum0).norm() / momentum0.norm());
    wx_sign_changes += (w.x() < 0) != (last_wx < 0);
    last_wx = w.x();
  });
  MESSAGE("10 s, " << wx_sign_changes / 2 << " polhode periods: relative energy error " << worst_energy
                   << ", relative world angular momentum error " << worst_momentum);
  CHECK(wx_sign_changes >= 6);  // several periods of w' about the body, not a fraction of one
  CHECK(worst_energy < kTolerance);
  // catches: a flipped gyroscopic term. Energy and |J w'| are conserved with either sign (w' is
  // perpendicular to w' x J w', and so is J w'), but d(A J w')/dt = A (J w'dot + w' x J w') is
  // zero only with the right one; with the wrong one H turns at the rate 2 A (w' x J w').
  CHECK(worst_momentum < kTolerance);
}

TEST_CASE("axisymmetric body: the transverse angular velocity turns in body axes at (J3 - J1) / J1 w3") {
  // J1 = J2 = 0.02, J3 = 0.03 kg m^2. Euler's equations J w'dot + w' x J w' = 0 give
  //   J1 w1dot = -(J3 - J1) w2 w3,  J1 w2dot = (J3 - J1) w3 w1,  J3 w3dot = 0,
  // so w3 stays constant and, with Omega = (J3 - J1) / J1 w3, w1dot = -Omega w2, w2dot = Omega w1:
  // from w'(0) = (w_perp, 0, w3), w1 = w_perp cos(Omega t) and w2 = +w_perp sin(Omega t). The
  // transverse part turns about +z in body axes, the same way as the spin for this oblate body.
  const double J1 = 0.02, J3 = 0.03, w_perp = 2, w3 = 10;  // rad/s
  const double omega = (J3 - J1) / J1 * w3;                // 5 rad/s, a period of 1.26 s
  const MultibodyModel model = free_body(Eigen::Vector3d(J1, J1, J3));
  double worst = 0, worst_w3 = 0;
  spin(model, Eigen::Vector3d(w_perp, 0, w3), 3.0, [&](double t, const Eigen::Matrix3d&, const Eigen::Vector3d& w) {
    worst = std::max(worst, std::hypot(w.x() - w_perp * std::cos(omega * t), w.y() - w_perp * std::sin(omega * t)));
    worst_w3 = std::max(worst_w3, std::abs(w.z() - w3));
  });
  MESSAGE("3 s (2.4 turns of the transverse part): largest error " << worst / w_perp << " of w_perp, w3 error "
                                                                     << worst_w3 / w3 << " of w3");
  // catches: a flipped gyroscopic term, which turns the transverse part the other way
  // (w2 = -w_perp sin(Omega t)), an error of up to 2 w_perp.
  CHECK(worst < kTolerance * w_perp);
  CHECK(worst_w3 < kTolerance * w3);
}

TEST_CASE("Dzhanibekov: a spin about the intermediate axis flips, about the major and minor axes it stays") {
  // J = (0.01, 0.02, 0.03) kg m^2: x minor, y intermediate, z major. Spin at 10 rad/s (a period of
  // 0.63 s) with the same perturbation of 1% of the spin on the two other axes, for 3 s. Near the
  // intermediate axis the perturbation grows as exp(lambda t), lambda = rate sqrt((J2 - J1)(J3 - J2)
  // / (J1 J3)) = 5.8 1/s, and the body turns over within about 1 s (Landau and Lifshitz, section 37);
  // near the other two it circles the axis at a few times the perturbation. This case does not
  // depend on the gyroscopic term's sign (flipping it runs Euler's equations backwards in time, and
  // the intermediate axis is unstable both ways); the two cases above catch the sign.
  const Eigen::Vector3d J(0.01, 0.02, 0.03);
  const double rate = 10, perturbation = 0.01, end = 3.0;
  const AxisExcursion minor = spin_about_axis(J, 0, rate, perturbation, end);
  const AxisExcursion middle = spin_about_axis(J, 1, rate, perturbation, end);
  const AxisExcursion major = spin_about_axis(J, 2, rate, perturbation, end);
  MESSAGE("largest angle from the initial axis: minor " << minor.largest_angle << " rad, intermediate "
                                                        << middle.largest_angle << " rad, major "
                                                        << major.largest_angle << " rad; intermediate flips at "
                                                        << middle.first_flip << " s, its smallest component "
                                                        << middle.smallest_component);
  // The intermediate-axis component changes sign within a few spin periods and the body turns over
  // completely (w2 reaches nearly -|w'|, which the conserved energy and |J w'| allow).
  CHECK(middle.first_flip > 0);
  CHECK(middle.first_flip < 2.0);
  CHECK(middle.smallest_component < -0.9);
  CHECK(middle.largest_angle > 3.0);
  // The stable axes: w' stays within a few percent of its initial direction.
  CHECK(minor.largest_angle < 0.05);
  CHECK(major.largest_angle < 0.05);
  CHECK(minor.smallest_component > 0.97);
  CHECK(major.smallest_component > 0.97);
}
