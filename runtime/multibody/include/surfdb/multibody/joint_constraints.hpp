// The joints' and drivers' constraint equations at a state: position errors Phi, the Jacobian with
// respect to the velocity variables, and gamma, the velocity terms of the acceleration equation
// Phi_z zdd = gamma. Columns: 6 per body, [delta r (world), delta pi' (body axes)]. All joints are
// built from three basic constraints (Nikravesh): coincident points, perpendicular vectors
// (a_i . a_j = 0) and a vector perpendicular to a point-to-point line (a_i . d_ij = 0).
#pragma once

#include <Eigen/Core>

#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb {

struct ConstraintSet {
  Eigen::VectorXd phi;       // position errors
  // constraint_count x (6 * bodies), row-major: the dynamics reads it by rows.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jacobian;
  Eigen::VectorXd gamma;
  Eigen::VectorXd phi_t;     // explicit time derivative (drivers): Phi_dot = Phi_z zdot + phi_t

  explicit ConstraintSet(const MultibodyModel& model)
      : phi(model.constraint_count()),
        jacobian(model.constraint_count(), 6 * static_cast<int>(model.bodies.size())),
        gamma(model.constraint_count()), phi_t(model.constraint_count()) {}
};

/// Fills `out` (sized by its constructor for `model`) for the state vector y at time t: the joints'
/// equations first, in order, then one per driver.
void evaluate_constraints(const MultibodyModel& model, double t, const double* y, ConstraintSet& out);

}  // namespace surfdb
