// Joints written as a scenario gives them: in world axes at the bodies' placement at t = 0, each
// body's joint frame then the world point and axes seen from that body.
#pragma once

#include <Eigen/Geometry>
#include <vector>

#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb::test {

/// A body's placement at t = 0: centre of mass and orientation (body to world).
struct Placed {
  Eigen::Vector3d r;
  Eigen::Quaterniond q;
};

inline Joint joint_between(JointType type, int body_i, int body_j, const std::vector<Placed>& at,
                           const Eigen::Vector3d& point, const Eigen::Matrix3d& world_axes) {
  const auto frame = [&](int body) {
    if (body == kGround) return JointFrame{point, world_axes};
    const Eigen::Matrix3d A = at[static_cast<std::size_t>(body)].q.normalized().toRotationMatrix();
    return JointFrame{A.transpose() * (point - at[static_cast<std::size_t>(body)].r), A.transpose() * world_axes};
  };
  Joint j;
  j.type = type;
  j.body_i = body_i;
  j.body_j = body_j;
  j.frame_i = frame(body_i);
  j.frame_j = frame(body_j);
  return j;
}

}  // namespace surfdb::test
