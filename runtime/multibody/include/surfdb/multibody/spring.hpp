// An undamped linear spring between points fixed in two bodies (or a body and the ground): the
// scenario's [[spring]]. Read-only during a simulation, like the rest of MultibodyModel. SI units.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "surfdb/contact/body_state.hpp"

namespace surfdb {

/// Its force has magnitude stiffness (L - free_length), L the distance between the two points,
/// along the line between them: it pulls them together when L > free_length, pushes them apart
/// when L < free_length. Its elastic energy is stiffness (L - free_length)^2 / 2.
struct Spring {
  std::string name;
  int body_i = -1, body_j = -1;  // body indices, kGround (-1) for the fixed frame
  Eigen::Vector3d point_i = Eigen::Vector3d::Zero();  // m, in body i's axes from its centre of mass (world for the ground)
  Eigen::Vector3d point_j = Eigen::Vector3d::Zero();  // m, in body j's axes
  double stiffness = 0;    // N/m, > 0
  double free_length = 0;  // m, >= 0
};

/// A spring at one state: its points in world axes, its length and the force it applies to
/// body i (world, N; body j receives the opposite).
struct SpringState {
  Eigen::Vector3d point_i, point_j;
  double length = 0;  // m
  Eigen::Vector3d force_i = Eigen::Vector3d::Zero();
  double energy = 0;  // J
};

/// The spring at the bodies' state y (multibody_state.hpp's layout). At zero length the direction
/// is undefined: the force is then stiffness (point_j - point_i) = 0 when free_length is 0, and 0
/// otherwise (the scenario refuses a spring with a free length that starts so).
SpringState spring_state(const Spring& spring, const double* y);

/// Adds every spring's force and torque (about each body's centre of mass, world axes) to loads,
/// one per body; the ground's share is dropped.
void add_spring_loads(const std::vector<Spring>& springs, const double* y, std::vector<BodyLoad>& loads);

/// The springs' elastic energy at y, J.
double spring_energy(const std::vector<Spring>& springs, const double* y);

}  // namespace surfdb
