// Variable-step integration with SUNDIALS CVODE: the variable-order Adams method (Gear type, as the
// paper used) with fixed-point iteration, or BDF with Newton iteration and a dense
// finite-difference Jacobian for stiff cases. One internal step at a time, so the caller can act
// after each accepted step (latch impacts, move storage windows, write output).
#pragma once

#include <memory>

#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

enum class CvodeMethod { adams, bdf };

/// The variable-step integrators' options: ArkodeIntegrator (Dormand-Prince) takes the tolerances
/// and the largest step from here too, and ignores the method.
struct CvodeOptions {
  CvodeMethod method = CvodeMethod::adams;
  double relative_tolerance = 1e-9;
  double absolute_tolerance = 1e-12;
  double max_step = 1e-4;  // s: no step skips over a contact of the demonstration's (~50 us) unseen
};

class CvodeIntegrator {
 public:
  /// Throws std::runtime_error when SUNDIALS cannot be set up.
  CvodeIntegrator(OdeSystem& system, CvodeOptions options);
  ~CvodeIntegrator();
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  /// Starts (or restarts) at time t0 from the state y0.
  void reset(double t0, const double* y0);
  /// Takes one internal step, never past t_stop, and returns the time reached; state() is the
  /// state there. Throws std::runtime_error when CVODE fails (step size too small, ...); an
  /// exception thrown by the system's derivative() is caught before it reaches CVODE's C frames,
  /// CVODE is stopped with a failure code, and the exception is rethrown here.
  double step(double t_stop);
  const double* state() const;

  /// Since the last reset(): accepted steps, derivative() calls, and failures (steps rejected by
  /// the error test plus nonlinear-solver convergence failures).
  long steps() const;
  long rhs_evaluations() const;
  long failures() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
