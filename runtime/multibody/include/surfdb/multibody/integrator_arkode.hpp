// Variable-step explicit Runge-Kutta integration with SUNDIALS ARKODE (ERKStep): Dormand-Prince
// 5(4), seven stages, the fifth-order solution advanced and the embedded fourth-order one used for
// the error estimate (the method of MATLAB's ode45). One internal step at a time, so the caller can
// act after each accepted step (latch impacts, move storage windows, write output).
#pragma once

#include <memory>

#include "surfdb/multibody/integrator_cvode.hpp"
#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

class ArkodeIntegrator {
 public:
  /// Takes the tolerances and the largest step (s) from `options`; its CVODE method is not used.
  /// Throws std::runtime_error when SUNDIALS cannot be set up.
  ArkodeIntegrator(OdeSystem& system, CvodeOptions options);
  ~ArkodeIntegrator();
  ArkodeIntegrator(const ArkodeIntegrator&) = delete;
  ArkodeIntegrator& operator=(const ArkodeIntegrator&) = delete;

  /// Starts (or restarts) at time t0 (s) from the state y0 (system.size() numbers).
  void reset(double t0, const double* y0);
  /// Takes one internal step, never past t_stop (s), and returns the time reached; state() is the
  /// state there. Throws std::runtime_error when ARKODE fails (the error test failing repeatedly,
  /// ...); an exception thrown by the system's derivative() is caught before it reaches ARKODE's
  /// C frames, ARKODE is stopped with a failure code, and the exception is rethrown here.
  double step(double t_stop);
  const double* state() const;

  /// Since the last reset(): accepted steps, derivative() calls, steps rejected by the error test.
  long steps() const;
  long rhs_evaluations() const;
  long failures() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
