// The generalized forces a contact puts on its two bodies: a force and a torque about each body's
// reference point (centre of mass), world axes, applied at one point so that momentum and angular
// momentum are exchanged exactly.
#pragma once

#include <Eigen/Core>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_result.hpp"

namespace surfdb {

struct ContactWrench {
  Eigen::Vector3d application_point = Eigen::Vector3d::Zero();  // midpoint of the two contact points
  Eigen::Vector3d force_i = Eigen::Vector3d::Zero(), torque_i = Eigen::Vector3d::Zero();
  Eigen::Vector3d force_j = Eigen::Vector3d::Zero(), torque_j = Eigen::Vector3d::Zero();
};

/// Normal force F_n >= 0 along the contact normal (on i; the opposite on j) plus a tangential
/// force on i (the opposite on j).
ContactWrench contact_wrench(const ContactResult& contact, double normal_force,
                             const Eigen::Vector3d& tangential_force, const Pose& i, const Pose& j);

}  // namespace surfdb
