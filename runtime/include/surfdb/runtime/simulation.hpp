// The multibody loop with contacts (paper 000 §5): the bodies' state plus, per contact pair, the
// dissipated energy as an extra state, so that energy balances can be checked to integrator
// accuracy. Contact forces enter the generalized forces at every evaluation (steps 4-8); after each
// accepted step accept() latches impact velocities and records the contact outputs (step 11; the
// storage windows follow the contact points at every evaluation).
#pragma once

#include <vector>

#include "surfdb/runtime/contact_pair.hpp"
#include "surfdb/runtime/dynamics.hpp"

namespace surfdb {

class Simulation : public OdeSystem {
 public:
  Simulation(const MultibodyModel& model, std::vector<ContactPair> pairs, Stabilisation stabilisation = {});

  int size() const override { return dynamics_.state_size() + static_cast<int>(pairs_.size()); }
  void derivative(double t, const double* y, double* ydot) override;
  void normalise(double* y) const override { dynamics_.normalise(y); }

  /// After an accepted step at (t, y): detection at y, impact latching, outputs and statistics.
  void accept(double t, const double* y);

  /// Kinetic + gravitational + elastic contact energy (the last from the last accept()), J.
  double mechanical_energy(const double* y) const;
  /// Energy dissipated by all contacts up to y, J.
  double dissipated_energy(const double* y) const;

  Dynamics& dynamics() { return dynamics_; }
  std::vector<ContactPair>& pairs() { return pairs_; }
  const std::vector<ContactPair>& pairs() const { return pairs_; }

 private:
  BodyState state_of(const double* y, int body) const;

  Dynamics dynamics_;
  std::vector<ContactPair> pairs_;
  LoadFunction loads_;
  std::vector<double> power_;  // dissipated power per pair at the current evaluation
};

}  // namespace surfdb
