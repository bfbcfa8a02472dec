// The multibody loop with contacts (Machado, Flores and Ambrósio 2014, §5): the bodies' state
// plus, per contact pair, the dissipated energy as an extra state, so that energy balances can be
// checked to integrator accuracy. Contact forces enter the generalized forces at every evaluation;
// after each accepted step accept() latches impact velocities and records the contact outputs (the
// storage windows follow the contact points at every evaluation). run() owns the stepping.
//
// A Simulation owns its model and pairs; the dynamics and the loads refer to them, so it is
// neither copied nor moved.
#pragma once

#include <vector>

#include "surfdb/multibody/contact_pair.hpp"
#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb {

class Simulation : public OdeSystem {
 public:
  Simulation(MultibodyModel model, std::vector<ContactPair> pairs, Stabilisation stabilisation = {});
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  int size() const override { return dynamics_.state_size() + static_cast<int>(pairs_.size()); }
  void derivative(double t, const double* y, double* ydot) override;
  void normalise(double* y) const override { dynamics_.normalise(y); }

  /// After an accepted step at (t, y): detection at y, impact latching, outputs and statistics.
  void accept(double t, const double* y);

  /// Integrates from (0, y) to settings.end_time with the chosen integrator: accepts every step,
  /// reports the output instants and progress to the observer, and leaves the final state in y.
  /// y holds the bodies' state (multibody_state.hpp) and is extended with the dissipated-energy
  /// states. Throws std::runtime_error when the integrator fails, std::invalid_argument for
  /// impossible settings.
  RunStatistics run(std::vector<double>& y, const RunSettings& settings, RunObserver& observer);

  /// Kinetic + gravitational + elastic contact energy (the last from the last accept()), J.
  double mechanical_energy(const double* y) const;
  /// Energy dissipated by all contacts up to y, J.
  double dissipated_energy(const double* y) const;

  const MultibodyModel& model() const { return model_; }
  Dynamics& dynamics() { return dynamics_; }
  const Dynamics& dynamics() const { return dynamics_; }
  const std::vector<ContactPair>& pairs() const { return pairs_; }

 private:
  BodyState state_of(const double* y, int body) const;
  void add_contact_loads(const double* y, std::vector<BodyLoad>& loads);

  MultibodyModel model_;
  Dynamics dynamics_;
  std::vector<ContactPair> pairs_;
  LoadFunction loads_;
  std::vector<double> power_;  // dissipated power per pair at the current evaluation
};

}  // namespace surfdb
