// The constrained equations of motion of the multibody loop, in Newton-Euler form with Lagrange
// multipliers and Baumgarte stabilisation:
//   [M  Phi_z^T] [zdd   ]   [Q                                  ]
//   [Phi_z   0 ] [lambda] = [gamma - 2 alpha Phi_dot - beta^2 Phi]
// solved through the Schur complement (M is block diagonal, Phi_z block sparse: a joint touches two
// bodies), and the Euler-parameter kinematics
// pdot = 1/2 p (x) (0, w') with a pull back to |p| = 1. The state layout is multibody_state.hpp's.
// Bodies a fixed joint holds together are solved for as one (welded_bodies.hpp) unless Welds says
// otherwise: the same motion without the weld's six equations.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <span>
#include <vector>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/multibody/envelope_cholesky.hpp"
#include "surfdb/multibody/joint_constraints.hpp"
#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/ode_system.hpp"
#include "surfdb/multibody/welded_bodies.hpp"

namespace surfdb {

struct Stabilisation {
  double alpha = 20;   // 1/s, velocity-level Baumgarte gain
  double beta = 20;    // 1/s, position-level Baumgarte gain
  double euler = 100;  // 1/s, rate of the pull back to |p| = 1
};

/// How fixed joints between two bodies are solved: the bodies merged into one where
/// welded_bodies.hpp allows, or every fixed joint kept as six constraint equations.
enum class Welds { merge, constrain };

class Dynamics : public OdeSystem {
 public:
  Dynamics(const MultibodyModel& model, Stabilisation stabilisation = {}, Welds welds = Welds::merge);

  int state_size() const { return kBodyStateSize * body_count_; }
  int size() const override { return state_size(); }

  /// ydot for the bodies' state y at time t under the external loads `loads` (one per body, or
  /// none) and, when the model has surface joints, their equations `surface_rows`
  /// (MultibodyModel::surface_joints, one row each, in order: they need the surfaces, which the
  /// model does not hold; the caller finds them at y first). No allocation per call. Throws
  /// std::logic_error for surface joints without their rows.
  void derivative(double t, const double* y, double* ydot, std::span<const BodyLoad> loads,
                  std::span<const ConstraintRow> surface_rows = {});
  /// The same without external loads (gravity and joints only).
  void derivative(double t, const double* y, double* ydot) override { derivative(t, y, ydot, {}); }

  /// Lagrange multipliers of the last derivative() call, one per constraint equation solved: the
  /// model's in order (joints, drivers, surface joints), less the six of each merged fixed joint.
  const Eigen::VectorXd& multipliers() const { return lambda_; }
  /// Surface joint k's equation's index among the equations solved (and its multiplier's).
  int surface_row(int k) const { return first_surface_row_ + k; }
  /// The bodies' accelerations of the last derivative() call, 6 per body: its centre of mass's
  /// (world axes, m/s^2), then its angular acceleration (body axes, rad/s^2; A times it is the
  /// world's).
  const Eigen::VectorXd& body_accelerations() const { return acc_; }
  const Stabilisation& stabilisation() const { return stab_; }

  /// The force (world, N) and torque (world, N m, about its centre of mass) that joint `joint`
  /// applies to its body j, from the last derivative() call. Body i receives the opposite force.
  /// A merged fixed joint's is what its member's motion needs beyond the loads on it.
  BodyLoad joint_reaction(int joint) const;
  /// Body k's centre-of-mass acceleration (world, m/s^2) from the last derivative() call: the
  /// acceleration at the (t, y) of that call, constraint forces included.
  Eigen::Vector3d linear_acceleration(int body) const { return acc_.segment<3>(6 * body); }
  std::size_t joint_count() const { return model_.joints.size(); }

  double kinetic_energy(const double* y) const;
  /// Potential energy: gravitational (zero at the origin) plus the springs' elastic energy.
  double potential_energy(const double* y) const;
  /// Largest |Phi| (position-level constraint violation) at (t, y), the surface joints' included
  /// from their equations `surface_rows` at y (required when the model has surface joints).
  double position_violation(double t, const double* y, std::span<const ConstraintRow> surface_rows = {});

  /// Scales every body's Euler parameters back to unit length and puts each merged body where its
  /// weld holds it (after an accepted step).
  void normalise(double* y) const override;
  /// Puts each merged body where its weld holds it (a run's initial state).
  void place_welded(double* y) const;

 private:
  // The equations are solved for the reduced bodies (welded_bodies.hpp: the bodies themselves when
  // nothing merges); the state, loads and accelerations are the model's bodies'.
  const MultibodyModel& model_;
  Stabilisation stab_;
  WeldedBodies welds_;
  int body_count_, solved_count_;  // the model's bodies, the reduced bodies
  std::vector<Eigen::Matrix3d> inverse_inertia_;
  std::vector<int> first_row_;  // per reduced joint, its first constraint equation
  int first_surface_row_ = 0;   // the first surface joint's equation
  std::vector<ConstraintRow> surface_rows_;
  std::vector<Eigen::Matrix3d> rotation_;  // per reduced body at the last derivative() call
  ConstraintSet constraints_;              // the reduced model's
  ConstraintSet model_constraints_;        // the model's, merged welds included (position_violation)
  std::vector<BodyLoad> loads_, reduced_loads_;
  std::vector<double> y_reduced_, y_last_;  // the reduced state and the bodies' of the last derivative()
  void evaluate_all_constraints(double t, const double* y_reduced, std::span<const ConstraintRow> surface_rows);
  void solve_accelerations(const double* y_reduced, const std::vector<BodyLoad>& loads, Eigen::VectorXd& acc);
  void write_rates(const double* y, double* ydot);
  BodyLoad weld_reaction(int joint) const;
  Eigen::VectorXd z_dot_, q_, m_inv_q_, rhs_, lambda_, acc_, reduced_acc_;
  EnvelopeCholesky::RowMatrix schur_;  // lower triangle only, within the factor's envelope
  // Block sparsity: each equation touches at most two bodies. Per body, the equations that touch
  // it and their 6 columns of Phi_z M^-1 (weighted_, from weighted_first_ on, in that order).
  using Row6 = Eigen::Matrix<double, 1, 6>;
  std::vector<std::vector<int>> body_rows_;
  std::vector<double> weighted_;
  std::vector<int> weighted_first_;
  // The Schur complement's envelope entries, row by row: each sums the products of its terms'
  // 6-vectors, offsets into weighted_ and into the Jacobian's storage.
  struct SchurEntry {
    int index, terms;  // index into schur_'s storage; 0, 1 or 2 terms
    int weighted[2], jacobian[2];
  };
  std::vector<SchurEntry> schur_entries_;
  void plan_schur();
  EnvelopeCholesky cholesky_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;  // for a Schur complement that is not positive definite
};

}  // namespace surfdb
