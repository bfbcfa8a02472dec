// What Simulation::run() takes and gives: the integrator and its step, the output schedule, an
// observer for outputs and progress, and the run's statistics.
#pragma once

#include "surfdb/multibody/integrator_sundials.hpp"
#include "surfdb/multibody/run_health.hpp"

namespace surfdb {

class Simulation;

/// Fixed step: ab4 (Adams-Bashforth 4, RK4 start) and rk4; variable step: adams and bdf (CVODE),
/// dormand_prince (explicit Runge-Kutta 5(4), ARKODE).
enum class IntegratorKind { ab4, rk4, adams, bdf, dormand_prince };

struct OutputSchedule {
  double interval = 1e-4;  // s, between regular output instants
  /// Every accepted step is an output instant during the first this many steps of each impact of
  /// a one-pair contact (impacts last tens of microseconds; force-indentation loops need them).
  long steps_per_impact = 2000;
};

struct RunSettings {
  double end_time = 0.1;  // s
  IntegratorKind integrator = IntegratorKind::bdf;  // docs/scenario.md, "Choosing the integrator"
  double step = 1e-6;  // s, for ab4 and rk4
  SundialsOptions sundials{};  // for adams, bdf and dormand_prince (the method is set from `integrator`)
  OutputSchedule output{};
  HealthLimits health{};
};

/// Receives what a run produces. Both calls may be ignored.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// At t = 0 and at each output instant. The simulation's last evaluation was made at (t, y), so
  /// its joint reactions (dynamics().joint_reaction) and the bodies' accelerations
  /// (dynamics().linear_acceleration) belong to this state; `violation` is the largest
  /// position-level constraint violation there.
  virtual void output(const Simulation& /*sim*/, double /*t*/, const double* /*y*/, double /*violation*/) {}
  /// After every accepted step (after output() when the step is an output instant): y is the
  /// accepted state, the pairs' states are latched at it.
  virtual void accepted(const Simulation& /*sim*/, double /*t*/, const double* /*y*/) {}
};

struct RunStatistics {
  double end_time = 0;           // s, reached
  long steps = 0;                // accepted steps
  long rhs_evaluations = 0;
  long failures = 0;             // integrator: error-test and (CVODE) nonlinear-solver convergence
                                 // failures, each a retried step; 0 for the fixed steps
  double cpu_seconds = 0;        // process CPU time spent in run()
  double initial_energy = 0;     // J, mechanical, at t = 0
  double constraint_drift = 0;   // largest position-level violation at the output instants
  /// What went wrong: the run's status and warnings. A failed run stopped at end_time.
  RunHealth health{};
};

}  // namespace surfdb
