// Variable-step explicit Runge-Kutta integration with SUNDIALS ARKODE (ERKStep): Dormand-Prince
// 5(4), seven stages, the fifth-order solution advanced and the embedded fourth-order one used for
// the error estimate (the method of MATLAB's ode45).
#pragma once

#include <memory>

#include "surfdb/multibody/integrator_cvode.hpp"
#include "surfdb/multibody/integrator_variable_step.hpp"
#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

class ArkodeIntegrator : public VariableStepIntegrator {
 public:
  /// Takes the tolerances and the largest step (s) from `options`; its CVODE method is not used.
  /// Throws std::runtime_error when SUNDIALS cannot be set up.
  ArkodeIntegrator(OdeSystem& system, CvodeOptions options);
  ~ArkodeIntegrator() override;
  ArkodeIntegrator(const ArkodeIntegrator&) = delete;
  ArkodeIntegrator& operator=(const ArkodeIntegrator&) = delete;

  void reset(double t0, const double* y0) override;
  void set_warning_handler(IntegratorWarningHandler handler) override;
  double step(double t_stop) override;
  const double* state() const override;
  long steps() const override;
  long rhs_evaluations() const override;
  /// Steps rejected by the error test.
  long failures() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
