// The [[spring]] force element (spring.hpp) inside the multibody loop: its force and torque on a
// rotated body against hand-worked numbers, either way round; a mass on a spring under gravity
// against the closed-form oscillation; the energy balance; the bodies it couples in the implicit
// integrators' Jacobian; and Dynamics::linear_acceleration, which the time series writes.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;

namespace {

MultibodyModel one_body(double mass, const Eigen::Vector3d& gravity) {
  MultibodyModel model;
  model.bodies.push_back({"box", mass, Eigen::Matrix3d::Identity() * 1e-3});
  model.gravity = gravity;
  return model;
}

std::vector<double> state_at(const Eigen::Vector3d& r, const Eigen::Quaterniond& q = Eigen::Quaterniond::Identity(),
                             const Eigen::Vector3d& v = Eigen::Vector3d::Zero()) {
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, r, q, v, Eigen::Vector3d::Zero());
  return y;
}

}  // namespace

TEST_CASE("spring: force and torque on a turned body, pulling towards the anchor, either way round") {
  // The body at (1, 2, 3), turned 90 degrees about z: its point (0.1, 0, 0) is at (1, 2.1, 3) in
  // world. The anchor 0.5 m above it, free length 0.2 m, k = 100 N/m: the spring pulls the body up
  // with 100 (0.5 - 0.2) = 30 N, about its centre a torque (0, 0.1, 0) x (0, 0, 30) = (3, 0, 0).
  const Eigen::Quaterniond q(Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitZ()));
  const std::vector<double> y = state_at({1, 2, 3}, q);
  const Eigen::Vector3d anchor(1, 2.1, 3.5), local(0.1, 0, 0);
  for (const bool body_first : {true, false}) {
    CAPTURE(body_first);
    Spring s{"s", body_first ? 0 : kGround, body_first ? kGround : 0, body_first ? local : anchor,
             body_first ? anchor : local, 100, 0.2};
    std::vector<BodyLoad> loads(1);
    add_spring_loads({s}, y.data(), loads);
    CHECK((loads[0].force - Eigen::Vector3d(0, 0, 30)).norm() < 1e-12);
    CHECK((loads[0].torque - Eigen::Vector3d(3, 0, 0)).norm() < 1e-12);
    CHECK(spring_energy({s}, y.data()) == doctest::Approx(0.5 * 100 * 0.3 * 0.3).epsilon(1e-14));
    // Compressed below its free length it pushes the body away, down.
    s.free_length = 0.8;
    loads[0] = {};
    add_spring_loads({s}, y.data(), loads);
    CHECK((loads[0].force - Eigen::Vector3d(0, 0, -30)).norm() < 1e-12);
  }
}

TEST_CASE("spring: a mass hanging on a spring oscillates as the closed form, energy conserved") {
  // m = 0.5 kg, k = 2000 N/m, anchor at z = 1, free length 0.3 m: the static deflection m g / k
  // below z = 0.7, and released 5 mm above it at rest, z(t) = z_eq + 0.005 cos(sqrt(k/m) t).
  const double m = 0.5, k = 2000, g = 9.81, amplitude = 0.005;
  const double z_eq = 1 - 0.3 - m * g / k, omega = std::sqrt(k / m), period = 2 * std::numbers::pi / omega;
  for (const bool body_first : {true, false}) {
    CAPTURE(body_first);
    MultibodyModel model = one_body(m, {0, 0, -g});
    const Eigen::Vector3d anchor(0.1, 0.2, 1.0);
    model.springs.push_back({"hang", body_first ? 0 : kGround, body_first ? kGround : 0,
                             body_first ? Eigen::Vector3d::Zero() : anchor, body_first ? anchor : Eigen::Vector3d::Zero(),
                             k, 0.3});
    Dynamics dynamics(model);
    std::vector<double> y = state_at({0.1, 0.2, z_eq + amplitude});
    const double e0 = dynamics.kinetic_energy(y.data()) + dynamics.potential_energy(y.data());
    Rk4 rk4(dynamics.state_size());
    const double h = period / 4000;
    double worst = 0, worst_energy = 0;
    for (int n = 1; n <= 3 * 4000; ++n) {
      rk4.step(dynamics, (n - 1) * h, h, y.data());
      const double t = n * h, z = body_view(y.data(), 0).r().z();
      worst = std::max(worst, std::abs(z - (z_eq + amplitude * std::cos(omega * t))));
      worst_energy = std::max(worst_energy, std::abs(dynamics.kinetic_energy(y.data()) + dynamics.potential_energy(y.data()) - e0));
    }
    MESSAGE("mass on a spring over 3 periods: worst position error " << worst << " m, energy " << worst_energy << " J");
    CHECK(worst < 1e-10);
    CHECK(worst_energy < 1e-10 * 0.5 * k * amplitude * amplitude);
    // After three whole periods it is back where it started, at rest.
    CHECK(body_view(y.data(), 0).r().z() == doctest::Approx(z_eq + amplitude).epsilon(1e-10));
    CHECK(std::abs(body_view(y.data(), 0).v().z()) < 1e-8);
  }
}

TEST_CASE("spring: the two bodies it joins reach each other's rows in the Jacobian's blocks") {
  MultibodyModel model = one_body(1, {0, 0, -9.81});
  model.bodies.push_back({"other", 1, Eigen::Matrix3d::Identity() * 1e-3});
  Simulation apart(model, std::vector<ContactPair>{});
  JacobianBlocks blocks;
  REQUIRE(apart.jacobian_blocks(blocks));
  CHECK(blocks.affects[0] == std::vector<int>{0});
  model.springs.push_back({"link", 0, 1, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 10, 1});
  Simulation linked(model, std::vector<ContactPair>{});
  REQUIRE(linked.jacobian_blocks(blocks));
  CHECK(blocks.affects[0] == std::vector<int>{0, 1});
  CHECK(blocks.affects[1] == std::vector<int>{0, 1});
}

TEST_CASE("Dynamics::linear_acceleration: free fall is g, a body held by a joint has what the joint allows") {
  MultibodyModel model = one_body(2, {0.5, 0, -9.81});
  const std::vector<double> y = state_at({0, 0, 1}, Eigen::Quaterniond::Identity(), {3, 0, 0});
  std::vector<double> ydot(kBodyStateSize);
  Dynamics falling(model);
  falling.derivative(0, y.data(), ydot.data());
  CHECK((falling.linear_acceleration(0) - model.gravity).norm() < 1e-15);
  // A translational joint along world x: the slider keeps only gravity's x component.
  Joint slide{"slide", JointType::translational, kGround, 0, {}, {}};
  slide.frame_i.origin = Eigen::Vector3d(0, 0, 1);
  slide.frame_i.axes << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // columns x = (0, 1, 0), y = (0, 0, 1), z = (1, 0, 0)
  slide.frame_j.axes = slide.frame_i.axes;
  model.joints.push_back(slide);
  Dynamics sliding(model);
  sliding.derivative(0, y.data(), ydot.data());
  CHECK((sliding.linear_acceleration(0) - Eigen::Vector3d(0.5, 0, 0)).norm() < 1e-12);
}
