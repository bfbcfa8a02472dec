// The contact points that carry force at a run's last evaluation, as front ends hand them out
// (Python's Data.contacts(), the C API's surfdb_data_contacts): which contact, where, along which
// normal, how deep and with what force. After a step the last evaluation is at the accepted state.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "surfdb/multibody/simulation.hpp"

namespace surfdb {

struct ContactPoint {
  int contact = 0;                                     // the [[contact]] entry, in the model's order
  Eigen::Vector3d point = Eigen::Vector3d::Zero();     // m, world: midway between the two surfaces' points
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();   // unit, world, out of body j's surface (the force on i along it)
  double indentation = 0;                              // m
  Eigen::Vector3d force = Eigen::Vector3d::Zero();     // N, world, on body i: normal and friction
};

/// Fills `points` (cleared first; allocates only when it must grow): every point contact's points
/// that carry force, and for each areal (polygonal) contact one point, at the centre of its
/// force, with its deepest penetration and the whole force on body i.
void active_contact_points(const Simulation& sim, std::vector<ContactPoint>& points);

}  // namespace surfdb
