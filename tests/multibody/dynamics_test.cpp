// The multibody loop on the paper's slider-crank: kinematics against the closed form, energy,
// constraint drift.
#include "surfdb/multibody/dynamics.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "../support/slider_crank.hpp"
#include "surfdb/multibody/integrator_sundials.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"

using namespace surfdb;
using namespace surfdb::test;

TEST_CASE("slider-crank over a full revolution: slider position against the closed form, energy, drift") {
  const MultibodyModel model = slider_crank();
  Dynamics dynamics(model);
  std::vector<double> y = slider_crank_initial_state(2.0);
  Rk4 rk4(dynamics.state_size());
  const double energy0 = dynamics.kinetic_energy(y.data()) + dynamics.potential_energy(y.data());
  double worst_position = 0, worst_drift = 0, worst_energy = 0, turned = 0, last = 0;
  const double h = 1e-4;
  double t = 0;
  while (turned < 2 * M_PI) {
    rk4.step(dynamics, t, h, y.data());
    t += h;
    const Eigen::Matrix3d A = body_view(y.data(), 0).orientation().toRotationMatrix();
    const double theta = std::atan2(A(1, 0), A(0, 0));
    turned += std::remainder(theta - last, 2 * M_PI);
    last = theta;
    // Slider reference point: at the wrist, x = L1 cos(theta) + sqrt(L2^2 - L1^2 sin^2(theta)).
    const double closed = kCrank * std::cos(theta) + std::sqrt(kCoupler * kCoupler - std::pow(kCrank * std::sin(theta), 2));
    worst_position = std::max(worst_position, std::abs(body_view(y.data(), 2).r().x() - closed));
    worst_drift = std::max(worst_drift, dynamics.position_violation(t, y.data()));
    const double energy = dynamics.kinetic_energy(y.data()) + dynamics.potential_energy(y.data());
    worst_energy = std::max(worst_energy, std::abs(energy - energy0) / energy0);
    REQUIRE(t < 10);
  }
  MESSAGE("one revolution in " << t << " s: slider error " << worst_position << " m, constraint drift " << worst_drift
                               << " m, relative energy error " << worst_energy);
  CHECK(worst_position < 1e-8);
  CHECK(worst_drift < 1e-8);
  CHECK(worst_energy < 1e-6);
  // Unloaded and frictionless, the crank keeps its speed at the dead points: back at theta = 0 with 2 rad/s.
  CHECK(body_view(y.data(), 0).w_body().z() == doctest::Approx(2.0).epsilon(1e-4));
}

TEST_CASE("a free body under gravity falls as a projectile and keeps its spin") {
  MultibodyModel model;
  model.bodies = {{"ball", 0.011, Eigen::Vector3d(4e-7, 5e-7, 6e-7).asDiagonal()}};
  Dynamics dynamics(model);
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, 1}, Eigen::Quaterniond::Identity(), {1, 0, 2}, {0, 0, 3});
  Rk4 rk4(dynamics.state_size());
  for (int k = 0; k < 1000; ++k) rk4.step(dynamics, k * 1e-3, 1e-3, y.data());
  const BodyStateView b = body_view(y.data(), 0);
  CHECK(b.r().x() == doctest::Approx(1.0));
  CHECK(b.r().z() == doctest::Approx(1 + 2 - 0.5 * 9.81).epsilon(1e-12));
  CHECK(b.w_body().z() == doctest::Approx(3.0).epsilon(1e-12));  // about a principal axis
}

TEST_CASE("CVODE Adams and BDF run the slider-crank with the closed-form kinematics") {
  const MultibodyModel model = slider_crank();
  for (SundialsMethod method : {SundialsMethod::adams, SundialsMethod::bdf}) {
    Dynamics dynamics(model);
    const std::vector<double> y0 = slider_crank_initial_state(2.0);
    SundialsOptions options;
    options.method = method;
    options.relative_tolerance = 1e-10;
    options.absolute_tolerance = 1e-12;
    SundialsIntegrator cvode(dynamics, options);
    cvode.reset(0, y0.data());
    const double energy0 = dynamics.kinetic_energy(y0.data()) + dynamics.potential_energy(y0.data());
    double t = 0, worst_position = 0, worst_energy = 0;
    while (t < 2.0) {
      t = cvode.step(2.0);
      const double* y = cvode.state();
      const Eigen::Matrix3d A = body_view(y, 0).orientation().toRotationMatrix();
      const double theta = std::atan2(A(1, 0), A(0, 0));
      const double closed = kCrank * std::cos(theta) + std::sqrt(kCoupler * kCoupler - std::pow(kCrank * std::sin(theta), 2));
      worst_position = std::max(worst_position, std::abs(body_view(y, 2).r().x() - closed));
      worst_energy = std::max(worst_energy, std::abs(dynamics.kinetic_energy(y) + dynamics.potential_energy(y) - energy0) / energy0);
    }
    MESSAGE(std::string(method == SundialsMethod::adams ? "Adams" : "BDF") << ": " << cvode.steps() << " steps, " << cvode.rhs_evaluations()
                                                         << " evaluations, slider error " << worst_position
                                                         << " m, energy error " << worst_energy);
    CHECK(worst_position < 1e-7);
    CHECK(worst_energy < 1e-6);
  }
}

TEST_CASE("a driver turns the crank at exactly 2 rad/s while the slider follows the closed form") {
  MultibodyModel model = slider_crank();
  model.drivers = {{"motor", 0, DriverType::angle, DriverFunction{0, 2.0}}};
  Dynamics dynamics(model);
  std::vector<double> y = slider_crank_initial_state(2.0);
  Rk4 rk4(dynamics.state_size());
  double worst_angle = 0, worst_position = 0;
  const double h = 1e-4;
  for (int k = 1; k <= 20000; ++k) {  // 2 s, more than half a turn
    rk4.step(dynamics, (k - 1) * h, h, y.data());
    const double t = k * h;
    const Eigen::Matrix3d A = body_view(y.data(), 0).orientation().toRotationMatrix();
    const double theta = std::atan2(A(1, 0), A(0, 0));
    worst_angle = std::max(worst_angle, std::abs(std::remainder(theta - 2 * t, 2 * M_PI)));
    const double closed = kCrank * std::cos(theta) + std::sqrt(kCoupler * kCoupler - std::pow(kCrank * std::sin(theta), 2));
    worst_position = std::max(worst_position, std::abs(body_view(y.data(), 2).r().x() - closed));
  }
  MESSAGE("driven crank: angle error " << worst_angle << " rad, slider error " << worst_position << " m");
  CHECK(worst_angle < 1e-9);
  CHECK(worst_position < 1e-9);
  CHECK(body_view(y.data(), 0).w_body().z() == doctest::Approx(2.0).epsilon(1e-9));
  CHECK(std::abs(dynamics.multipliers()[dynamics.multipliers().size() - 1]) > 0);  // the motor's torque, the last
}

TEST_CASE("joint reactions: a pendulum hanging at rest is held by exactly its weight") {
  MultibodyModel model;
  model.bodies = {{"bob", 2.5, Eigen::Vector3d(0.01, 0.01, 0.02).asDiagonal()}};
  // Hinge at the origin about y, the bob's centre 0.3 m below it.
  model.joints = {{"hinge", JointType::revolute, kGround, 0,
                   {Eigen::Vector3d::Zero(), Eigen::AngleAxisd(-M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix()},
                   {Eigen::Vector3d(0, 0, 0.3), Eigen::AngleAxisd(-M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix()}}};
  Dynamics dynamics(model);
  std::vector<double> y(kBodyStateSize), ydot(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, -0.3}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  dynamics.derivative(0, y.data(), ydot.data());
  const BodyLoad r = dynamics.joint_reaction(0);
  CHECK((r.force - Eigen::Vector3d(0, 0, 2.5 * 9.81)).norm() < 1e-9);
  CHECK(r.torque.norm() < 1e-9);  // the force acts through the centre of mass
  CHECK(Eigen::Map<Eigen::Vector3d>(ydot.data() + 7).norm() < 1e-9);  // at rest it stays
}
