// The step loop of a simulation, one accepted step at a time: what Simulation::run() repeats to
// its end time and what a Data (data.hpp) is stepped with from C++, C and Python, so that every
// front end takes the same steps. After each accepted step the simulation accepts the state
// (impacts latched, outputs and statistics), the health monitor looks at it and, at the output
// schedule's instants, the observer receives it.
//
// The state vector is the caller's: writing into it between steps (a body moved, a state
// restored) is seen at the next step, which restarts the integrator from there (a variable-step
// integrator's history, Adams-Bashforth's, are dropped) after accepting the new state.
#pragma once

#include <memory>
#include <vector>

#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb {

class Stepper {
 public:
  /// Checks the settings (std::invalid_argument for impossible ones), sizes y to the simulation's
  /// state (the bodies' given, the rest set: simulation.hpp), places welded bodies, starts and
  /// checks the surface joints and accepts the initial state at t = 0. Allocates everything its
  /// steps use. y, the simulation and the observer must outlive it.
  Stepper(Simulation& sim, std::vector<double>& y, const RunSettings& settings, RunObserver& observer);
  ~Stepper();
  Stepper(const Stepper&) = delete;
  Stepper& operator=(const Stepper&) = delete;

  /// Gives the initial state (t = 0) to the observer, once; the first step() does it if not done.
  void begin();
  /// Where outputs go from now on (it must outlive the stepper).
  void set_observer(RunObserver& observer);
  /// Takes one accepted step: the fixed step, or the variable-step integrator's own step never
  /// past t_stop (s). Returns false, nothing changed, once the run cannot go on: the integrator
  /// gave up or the step's state was not finite (noted in the statistics' health; failed()).
  bool step(double t_stop);
  /// Whether the run has reached time t_end (s): for the fixed steps, whether the step count
  /// reaches round(t_end / step) from where it started.
  bool reached(double t_end) const;
  /// Whether the run stopped for good (integrator failure, non-finite state).
  bool failed() const;
  /// Whether y was written since the last accepted state (the next step restarts from it).
  bool state_written() const;
  /// Time of the last accepted state (s).
  double time() const;
  /// Restarts from time t with the state in y: the next step starts there with a fresh
  /// integrator, after accepting the state as at t = 0 (no output); the energy balance starts
  /// again from it. A failed run goes on.
  void restart(double t);
  /// The run so far: steps, evaluations, failures, CPU time, health, end_time the time reached.
  const RunStatistics& statistics();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
