// Watches a run for what makes it doubtful (run_health.hpp): after each accepted step the
// contacts' solver failures and deep appearances, spheres inside solids they do not touch, the
// energy balance and the state's finiteness;
// at each output instant the constraints' drift. Allocates only when it notes something new.
#pragma once

#include <cstdint>
#include <vector>

#include "surfdb/multibody/run_health.hpp"

namespace surfdb {

class Simulation;

class HealthMonitor {
 public:
  /// Starts from the accepted initial state y (t = 0) with the mechanical energy energy0 (J).
  HealthMonitor(const Simulation& sim, const HealthLimits& limits, double energy0, RunHealth& health);

  /// Before a step's state y at time t is accepted: false, noted, when it holds a NaN or an
  /// infinity (the run cannot go on from it).
  bool finite(double t, const double* y);
  /// After the step accepted at (t, y).
  void after_step(double t, const double* y);
  /// At an output instant at time t with the largest position-level constraint violation there.
  void at_output(double t, double violation);

 private:
  void check_contacts(double t);
  void check_solids(double t, const double* y);
  void check_energy(double t, const double* y);

  const Simulation& sim_;
  HealthLimits limits_;
  RunHealth& health_;
  double energy0_;
  double energy_scale_ = 0;  // J, the largest kinetic, elastic and dissipated energy and potential range so far
  double potential_min_, potential_max_;  // J, the potential energy's range so far (its origin is arbitrary)
  bool energy_applies_;  // no drivers: nothing but the contacts exchanges work with the bodies
  std::vector<std::uint64_t> failures_, appearances_, joint_failures_;  // last seen, per contact and surface joint
};

}  // namespace surfdb
