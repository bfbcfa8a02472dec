// The small value types of a rigid body that every stage passes on: its pose and velocities as the
// contact code receives them, its accelerations, the load applied to it, and where a surface sits
// in it. SI units: metres, seconds, radians, newtons.
#pragma once

#include <Eigen/Core>
#include <cstring>

namespace surfdb {

/// Position r of the body's reference point (its centre of mass) and rotation A (body to world).
struct Pose {
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  Eigen::Matrix3d A = Eigen::Matrix3d::Identity();
};

/// Pose plus the velocity of the reference point and the angular velocity, both in world axes.
struct BodyState {
  Pose pose;
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();

  /// World velocity of the material point at world position x.
  Eigen::Vector3d point_velocity(const Eigen::Vector3d& x) const {
    return velocity + angular_velocity.cross(x - pose.r);
  }
};

/// A body's accelerations, world axes: its reference point's (m/s^2) and angular (rad/s^2).
struct BodyAcceleration {
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();
};

/// External load on a body: force at its centre of mass and torque, both world axes (N, N m).
struct BodyLoad {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();
};

/// Whether two states are the same bit for bit, the key under which a detector keeps its last
/// answer (+0 and -0 differ; a NaN equals its own bits).
inline bool identical(const BodyState& a, const BodyState& b) {
  static_assert(sizeof(BodyState) == 18 * sizeof(double), "BodyState is 18 doubles, unpadded");
  return std::memcmp(&a, &b, sizeof(BodyState)) == 0;
}

/// A surface's frame inside its body (Machado, Flores and Ambrósio 2014, Eq. 8): the origin s'^Q (metres, body axes) and the
/// rotation A^Q (surface axes to body axes). A surface point s'' of the table (file unit) lies at
/// r + A (offset + rotation * meters_per_unit * s'') in the world.
struct SurfaceMount {
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
};

}  // namespace surfdb
