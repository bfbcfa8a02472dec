// The paper's slider-crank (Machado, Flores and Ambrósio 2014, §6) without the ball: crank, coupler, slider and cup.
// The crank turns about the global z axis at the origin; the slider moves along x. Spherical and
// universal joints at the coupler's ends make the spatial mechanism exactly one degree of freedom.
#pragma once

#include <Eigen/Geometry>

#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb::test {

inline constexpr double kCrank = 0.1524, kCoupler = 0.3048;  // m

inline Eigen::Matrix3d rod_inertia(double mass, double length) {
  return Eigen::Vector3d(mass * 1e-4, mass * length * length / 12, mass * length * length / 12).asDiagonal();
}

inline MultibodyModel slider_crank() {
  using Eigen::Vector3d;
  MultibodyModel m;
  m.bodies = {{"crank", 1.726, rod_inertia(1.726, kCrank)},
              {"coupler", 3.451, rod_inertia(3.451, kCoupler)},
              {"slider", 1.726, Vector3d(1e-3, 1e-3, 1e-3).asDiagonal()},
              {"cup", 0.016, Vector3d(8e-6, 8e-6, 8e-6).asDiagonal()}};
  const auto at = [](const Vector3d& world, const Vector3d& com) { return JointFrame{world - com, Eigen::Matrix3d::Identity()}; };
  const Vector3d crank(0.0762, 0, 0), coupler(0.3048, 0, 0), slider(0.4572, 0, 0), cup(0.4572, 0, 0.05);
  Joint pivot{"pivot", JointType::revolute, kGround, 0, {}, at(Vector3d::Zero(), crank)};
  Joint pin{"pin", JointType::spherical, 0, 1, at({kCrank, 0, 0}, crank), at({kCrank, 0, 0}, coupler)};
  // Universal: cross axes along z on the coupler and along y on the slider.
  Eigen::Matrix3d z_first, y_first;
  z_first << 0, 0, 1, 0, 1, 0, 1, 0, 0;  // columns: x = world z, y = world y, z = -world x... right-handed below
  z_first.col(2) = z_first.col(0).cross(z_first.col(1));
  y_first << 0, 1, 0, 1, 0, 0, 0, 0, 1;
  y_first.col(2) = y_first.col(0).cross(y_first.col(1));
  Joint ball_joint{"wrist", JointType::universal, 1, 2, {slider - coupler, z_first}, {Vector3d::Zero(), y_first}};
  // Translational along x: joint z axes along world x.
  Eigen::Matrix3d along_x;
  along_x << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  Joint guide{"guide", JointType::translational, kGround, 2, {slider, along_x}, {Vector3d::Zero(), along_x}};
  Joint mount{"cup mount", JointType::fixed, 2, 3, {cup - slider, Eigen::Matrix3d::Identity()}, {Vector3d::Zero(), Eigen::Matrix3d::Identity()}};
  m.joints = {pivot, pin, ball_joint, guide, mount};
  return m;
}

/// Top dead point, crank turning at `omega` rad/s about z: consistent velocities for all bodies.
inline std::vector<double> slider_crank_initial_state(double omega) {
  using Eigen::Vector3d;
  std::vector<double> y(4 * kBodyStateSize);
  const Eigen::Quaterniond I = Eigen::Quaterniond::Identity();
  // At theta = 0 the slider is momentarily at rest; the coupler turns at -omega L1 / L2.
  const double w_coupler = -omega * kCrank / kCoupler;
  set_body_state(y.data(), 0, {0.0762, 0, 0}, I, {0, omega * 0.0762, 0}, {0, 0, omega});
  set_body_state(y.data(), 1, {0.3048, 0, 0}, I, {0, omega * kCrank + w_coupler * (0.3048 - kCrank), 0}, {0, 0, w_coupler});
  set_body_state(y.data(), 2, {0.4572, 0, 0}, I, Vector3d::Zero(), Vector3d::Zero());
  set_body_state(y.data(), 3, {0.4572, 0, 0.05}, I, Vector3d::Zero(), Vector3d::Zero());
  return y;
}

}  // namespace surfdb::test
