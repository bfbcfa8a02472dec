// What the variable-step integrators (SUNDIALS CVODE's Adams and BDF, ARKODE's Dormand-Prince)
// share: one internal step at a time, so the caller can act after each accepted step (latch
// impacts, move storage windows, write output), and their counts for the run's statistics.
#pragma once

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace surfdb {

/// The integrator gave up (the step size too small, the error test or the corrector failing
/// repeatedly); its message carries SUNDIALS' own account of it.
class IntegratorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Receives SUNDIALS' warnings (e.g. "t + h = t on the next step") with the time they concern (s),
/// instead of SUNDIALS printing them on standard error. Called from inside SUNDIALS: it must not
/// throw.
using IntegratorWarningHandler = std::function<void(double t, const char* message)>;

/// The time the first step after a (re)start is asked for, the stop time staying t_stop (s). CVODE
/// and ARKODE size their first step from the distance to the time asked for (at most a tenth of
/// it): asked for t_stop, the first step and every step after it depended on the end time, and runs
/// of one scene to different end times took different steps (14,977 for 0.08 s, 159,049 for 0.1 s).
/// Ten largest steps ahead bounds the first step by the largest step (s), whatever the end time, so
/// such runs take the same steps until the last one's stop.
inline double first_step_target(double t, double t_stop, double max_step) {
  return std::min(t_stop, t + 10 * max_step);
}

class VariableStepIntegrator {
 public:
  virtual ~VariableStepIntegrator() = default;

  /// Starts (or restarts) at time t0 (s) from the state y0 (the system's size() numbers).
  virtual void reset(double t0, const double* y0) = 0;
  /// Where SUNDIALS' warnings go from now on; unset, they are dropped. Errors come with the
  /// IntegratorError that step() throws.
  virtual void set_warning_handler(IntegratorWarningHandler handler) = 0;
  /// Takes one internal step, never past t_stop (s), and returns the time reached (the steps do
  /// not depend on t_stop until a step would pass it: first_step_target); state() is the
  /// state there (on failure, the last accepted one). Throws IntegratorError when the integrator fails (the step size too small,
  /// the error test failing repeatedly); an exception thrown by the system's derivative() is
  /// caught before it reaches SUNDIALS' C frames, the integrator is stopped with a failure code,
  /// and the exception is rethrown here.
  virtual double step(double t_stop) = 0;
  virtual const double* state() const = 0;

  /// Since the last reset(): accepted steps, derivative() calls (a Jacobian's difference
  /// quotients not counted), and failures: steps rejected and retried.
  virtual long steps() const = 0;
  virtual long rhs_evaluations() const = 0;
  virtual long failures() const = 0;
};

}  // namespace surfdb
