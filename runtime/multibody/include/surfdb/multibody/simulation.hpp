// The multibody loop with contacts (Machado, Flores and Ambrósio 2014, §5): the bodies' state
// plus, per contact (a [[contact]] entry: one pair, or a group of candidate pairs), the energy its
// points dissipated as an extra state, so that energy balances can be checked to integrator
// accuracy. At every evaluation the broad phase (a grid over the surfaces' world boxes)
// finds the groups' candidate pairs that are close, their detectors run and their forces enter
// the generalized forces; after each accepted step accept() latches impact velocities and
// records the contact outputs. run() owns the stepping. Surface joints with the five-equation
// formulation add their surface parameters and rates (surface_joint_parameters.hpp) as states
// after the contacts', 8 per joint, in the order of the model's surface joints.
//
// A Simulation is one run of a Model (model.hpp): it refers to the model's bodies, surfaces and
// contact specifications, shared and never changed, and owns what the run changes (the contact
// pairs with their windows and warm starts, the dynamics' buffers). The dynamics and the loads
// refer to its members, so it is neither copied nor moved.
#pragma once

#include <memory>
#include <vector>

#include "surfdb/multibody/broad_phase.hpp"
#include "surfdb/multibody/contact_group.hpp"
#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/model.hpp"
#include "surfdb/multibody/simulation_run.hpp"
#include "surfdb/multibody/surface_joint.hpp"

namespace surfdb {

class Simulation : public OdeSystem {
 public:
  /// A run of `model`'s contacts and surface joints (its initial state and run settings are the
  /// caller's: Data, data.hpp). Throws std::invalid_argument when a group's fixed pair or a
  /// surface joint cannot be made.
  explicit Simulation(std::shared_ptr<const Model> model);
  /// Contacts given as pairs, each its own contact, always evaluated.
  Simulation(MultibodyModel model, std::vector<ContactPair> pairs, Stabilisation stabilisation = {});
  /// Contacts given as groups of a scene's surfaces (a group of one candidate pair is fixed), and
  /// the model's surface joints between them. Throws std::invalid_argument when a group's fixed
  /// pair or a surface joint cannot be made.
  Simulation(MultibodyModel model, std::vector<ContactSurface> surfaces, std::vector<ContactGroupSpec> contacts,
             Stabilisation stabilisation = {});
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  int size() const override {
    return dynamics_.state_size() + static_cast<int>(contacts_.size()) + parameter_states_;
  }
  /// Surface joint k's first state (five_equations), or -1 (sliding plane: none).
  int surface_joint_state(std::size_t k) const { return parameter_first_[k]; }
  void derivative(double t, const double* y, double* ydot) override;
  void normalise(double* y) const override { dynamics_.normalise(y); }
  /// A block per body (its 13 states); body b's columns reach the rows of the bodies joined to it
  /// (its joint-connected group), and of those in contact pairs with it at the last evaluation and
  /// their groups, unless a group's motion is prescribed (its joints and drivers leave it no
  /// freedom: a driven race's acceleration does not depend on the forces on it). The contacts'
  /// dissipated-energy states are in no block. A five-equation surface joint's 8 states are a block
  /// that reaches and is reached by its bodies' joint-connected group.
  bool jacobian_blocks(JacobianBlocks& blocks) const override;

  /// After an accepted step at (t, y): detection at y, impact latching, outputs and statistics;
  /// the surface joints' forces at y, lift-off and release.
  void accept(double t, const double* y);

  /// Sets the five-equation surface joints' states in y (sized size()) from a detection at the
  /// bodies' state in y: run() does this at t = 0.
  void start_surface_joints(double* y);

  /// Checks the surface joints at the initial state y: each joint's surfaces touch (within its
  /// initial_gap_tolerance), and the joints' and drivers' equations with theirs are independent.
  /// Throws std::invalid_argument naming the joint, the gap and the way to close it, or the rank.
  void check_surface_joints(const double* y);

  /// Integrates from (0, y) to settings.end_time with the chosen integrator: accepts every step,
  /// reports the output instants and progress to the observer, and leaves the final state in y.
  /// y holds the bodies' state (multibody_state.hpp) and is extended with the dissipated-energy
  /// states and the five-equation surface joints' states (start_surface_joints()). Throws std::runtime_error when the integrator fails, std::invalid_argument for
  /// impossible settings.
  RunStatistics run(std::vector<double>& y, const RunSettings& settings, RunObserver& observer);

  /// Largest |Phi| (position-level constraint violation) at (t, y), the surface joints' included.
  double position_violation(double t, const double* y);

  /// Kinetic + gravitational + the springs' + elastic contact energy (the last from the last accept()), J.
  double mechanical_energy(const double* y) const;
  /// Energy dissipated by all contacts up to y, J.
  double dissipated_energy(const double* y) const;

  const MultibodyModel& model() const { return model_; }
  Dynamics& dynamics() { return dynamics_; }
  const Dynamics& dynamics() const { return dynamics_; }
  const std::vector<ContactSurface>& surfaces() const { return surfaces_; }
  const std::vector<ContactGroup>& contacts() const { return contacts_; }
  const std::vector<SurfaceJoint>& surface_joints() const { return surface_joints_; }
  /// Surface joint k's compressive contact force at the last evaluation (N, the multiplier's
  /// opposite); 0 once released.
  double surface_joint_force(std::size_t k) const {
    return surface_joints_[k].released() ? 0.0 : -dynamics_.multipliers()[dynamics_.surface_row(static_cast<int>(k))];
  }
  /// Whether contact c is idle: the compliant replacement of a surface joint not yet released.
  bool idle(std::size_t c) const { return idle_[c] != 0; }
  /// Candidate pairs the broad phase passed at the last evaluation (boxes and bounding spheres
  /// overlapping).
  std::size_t broad_phase_pairs() const { return broad_phase_pairs_; }

 private:
  Simulation(std::shared_ptr<const Model> model, std::vector<ContactPair> pairs);
  void list_state_bodies();
  void update_body_states(const double* y);  // of state_bodies_
  const BodyState& state_of(int body) const;  // at the current evaluation; the ground at rest
  template <class Visit>
  void for_each_pair(Visit&& visit);
  void add_contact_loads(const double* y, std::vector<BodyLoad>& loads);
  void find_joint_groups();
  void make_surface_joints();
  void surface_rows(const double* y, std::span<ConstraintRow> rows);  // at the states update_body_states set
  void accept_surface_joints(double t, const double* y);
  void surface_joint_derivatives(double* ydot);
  void add_parameter_blocks(JacobianBlocks& blocks) const;
  BodyAcceleration acceleration_of(int body) const;  // at the last derivative(), world axes

  std::shared_ptr<const Model> shared_;  // what model_ and surfaces_ refer into
  const MultibodyModel& model_;
  Dynamics dynamics_;
  const std::vector<ContactSurface>& surfaces_;
  std::vector<ContactGroup> contacts_;
  std::vector<SurfaceJoint> surface_joints_;
  std::vector<int> parameter_first_;  // per surface joint: its first state, or -1
  int parameter_states_ = 0;          // the surface joints' states in all
  std::vector<char> idle_;            // per contact: a surface joint's replacement, not yet released
  std::vector<double> scratch_;       // a derivative at an accepted state
  bool surface_forces_known_ = false; // a derivative has run since construction
  std::vector<BodyLoad> loads_;          // the contacts' per body at the current evaluation
  std::vector<ConstraintRow> rows_;      // the surface joints' equations at the current evaluation
  std::vector<double> power_;         // dissipated power per contact at the current evaluation
  std::vector<BodyState> states_;     // per body at the current evaluation (state_bodies_' only)
  std::vector<int> state_bodies_;     // the bodies that carry a surface or take part in a contact
  std::vector<int> bounded_;          // surfaces the broad phase sorts
  std::vector<Aabb> boxes_;           // theirs, world
  std::vector<Sphere> spheres_;       // theirs, world (centre and radius)
  BoxGrid grid_;
  std::vector<int> joint_group_;                // per body: its joint-connected group
  std::vector<char> prescribed_;                // per joint group: no freedom left
  std::vector<std::pair<int, int>> in_play_;    // bodies of the pairs evaluated at the last derivative()
  bool grouped_ = false;              // some contact takes its pairs from the broad phase
  std::size_t broad_phase_pairs_ = 0;
};

}  // namespace surfdb
