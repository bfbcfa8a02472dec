// The bundled multibody loop's model: spatial rigid bodies with Euler parameters (unit
// quaternions) and joints between them or to the ground (paper 000 ref. [38], Nikravesh's
// Cartesian formulation). Read-only during a simulation. SI units.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace surfdb {

struct RigidBody {
  std::string name;
  double mass = 0;                                        // kg
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  // about the centre of mass, body axes, kg m^2
};

/// A joint's frame on one body: origin and axes (columns x, y, z) in the body's axes.
struct JointFrame {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
};

/// The ground is body index -1.
inline constexpr int kGround = -1;

/// Joint kinds and what they keep (frames F_i on body i, F_j on body j, aligned at assembly):
///   spherical      origins coincide                                             (3 equations)
///   revolute       origins coincide, z axes parallel                             (5)
///   universal      origins coincide, x_i perpendicular to x_j (the cross axes)   (4)
///   cylindrical    z axes parallel, origin of j on the z line of i               (4)
///   translational  cylindrical plus no turn about z (x_i . y_j = 0)              (5)
///   fixed          origins coincide, axes aligned                                (6)
enum class JointType { spherical, revolute, universal, cylindrical, translational, fixed };

struct Joint {
  std::string name;
  JointType type = JointType::revolute;
  int body_i = kGround, body_j = kGround;
  JointFrame frame_i, frame_j;
};

int constraint_count(JointType type);

struct MultibodyModel {
  std::vector<RigidBody> bodies;
  std::vector<Joint> joints;
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);  // m/s^2

  int constraint_count() const;
};

}  // namespace surfdb
