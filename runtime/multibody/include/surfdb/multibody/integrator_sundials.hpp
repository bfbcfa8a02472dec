// Variable-step integration with SUNDIALS, one wrapper for its three methods:
// - CVODE's variable-order Adams method (Gear type, as the paper used) with fixed-point iteration;
// - CVODE's BDF with Newton iteration for stiff cases: a finite-difference Jacobian, by groups of
//   columns where the system says which of its blocks reach which rows
//   (OdeSystem::jacobian_blocks), factorised by Eigen's LU (dense, or sparse from 100 states on);
// - ARKODE's explicit Dormand-Prince 5(4) (ERKStep), seven stages, the fifth-order solution
//   advanced and the embedded fourth-order one used for the error estimate (MATLAB's ode45).
#pragma once

#include <memory>

#include "surfdb/multibody/integrator_variable_step.hpp"
#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

enum class SundialsMethod { adams, bdf, dormand_prince };

struct SundialsOptions {
  SundialsMethod method = SundialsMethod::adams;
  double relative_tolerance = 1e-9;
  double absolute_tolerance = 1e-12;
  double max_step = 1e-4;  // s: no step skips over a contact of the demonstration's (~50 us) unseen
};

class SundialsIntegrator : public VariableStepIntegrator {
 public:
  /// Throws std::runtime_error when SUNDIALS cannot be set up.
  SundialsIntegrator(OdeSystem& system, SundialsOptions options);
  ~SundialsIntegrator() override;
  SundialsIntegrator(const SundialsIntegrator&) = delete;
  SundialsIntegrator& operator=(const SundialsIntegrator&) = delete;

  void reset(double t0, const double* y0) override;
  void set_warning_handler(IntegratorWarningHandler handler) override;
  double step(double t_stop) override;
  const double* state() const override;
  long steps() const override;
  long rhs_evaluations() const override;
  /// Steps rejected by the error test, plus (CVODE) the nonlinear solver's convergence failures.
  long failures() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
