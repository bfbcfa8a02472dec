// The joints' and drivers' constraint equations at a state: position errors Phi, the Jacobian with
// respect to the velocity variables, and gamma, the velocity terms of the acceleration equation
// Phi_z zdd = gamma. Columns: 6 per body, [delta r (world), delta pi' (body axes)]. All joints are
// built from three basic constraints (Nikravesh): coincident points, perpendicular vectors
// (a_i . a_j = 0) and a vector perpendicular to a point-to-point line (a_i . d_ij = 0).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb {

/// One equation: its value, gamma, its explicit time derivative (drivers), and its derivatives in
/// world axes with respect to each body's position r and rotation theta (delta theta = A delta pi').
struct ConstraintRow {
  double phi = 0, gamma = 0, phi_t = 0;
  Eigen::Vector3d dr_i = Eigen::Vector3d::Zero(), dth_i = Eigen::Vector3d::Zero();
  Eigen::Vector3d dr_j = Eigen::Vector3d::Zero(), dth_j = Eigen::Vector3d::Zero();
  /// An inactive equation (a surface joint released to compliant contact) takes no part: its
  /// Jacobian row is zero and its multiplier 0.
  bool active = true;
};

/// A body's kinematics in world axes (its rotation matrix A, body to world, and its angular
/// velocity w = A w'); the ground (index kGround) is at rest at the origin.
struct BodyKinematics {
  int index = kGround;
  Eigen::Vector3d r = Eigen::Vector3d::Zero(), v = Eigen::Vector3d::Zero(), w = Eigen::Vector3d::Zero();
  Eigen::Matrix3d A = Eigen::Matrix3d::Identity();
};

struct ConstraintSet {
  Eigen::VectorXd phi;       // position errors
  // constraint_count x (6 * bodies), row-major: the dynamics reads it by rows.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jacobian;
  Eigen::VectorXd gamma;
  Eigen::VectorXd phi_t;     // explicit time derivative (drivers): Phi_dot = Phi_z zdot + phi_t
  /// Per body, its kinematics at the state of the last evaluate_constraints(), computed once there
  /// for all the joints (and read by the dynamics for the rotation matrices).
  std::vector<BodyKinematics> bodies;

  /// The Jacobian starts zero; an evaluation writes only the blocks of each row's two bodies.
  explicit ConstraintSet(const MultibodyModel& model)
      : phi(model.constraint_count()),
        jacobian(Eigen::MatrixXd::Zero(model.constraint_count(), 6 * static_cast<int>(model.bodies.size()))),
        gamma(model.constraint_count()), phi_t(model.constraint_count()), bodies(model.bodies.size()) {}
};

/// Fills `out` (sized by its constructor for `model`) for the state vector y at time t: the joints'
/// equations first, in order, then one per driver. The surface joints' rows, which need their
/// surfaces, are left zero for write_row (Dynamics fills them).
void evaluate_constraints(const MultibodyModel& model, double t, const double* y, ConstraintSet& out);

/// Writes equation `row` of `out` between bodies i and j (kGround for the ground) at the state y.
void write_row(ConstraintSet& out, int row, const double* y, int body_i, int body_j, const ConstraintRow& r);

}  // namespace surfdb
