// Variable-step integration with SUNDIALS CVODE: the variable-order Adams method (Gear type, as the
// paper used) with fixed-point iteration, or BDF with Newton iteration for stiff cases: a dense
// finite-difference Jacobian, by groups of columns where the system says which of its blocks reach
// which rows (OdeSystem::jacobian_blocks), factorised by Eigen's partial-pivoting LU.
#pragma once

#include <memory>

#include "surfdb/multibody/integrator_variable_step.hpp"
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

class CvodeIntegrator : public VariableStepIntegrator {
 public:
  /// Throws std::runtime_error when SUNDIALS cannot be set up.
  CvodeIntegrator(OdeSystem& system, CvodeOptions options);
  ~CvodeIntegrator() override;
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  void reset(double t0, const double* y0) override;
  void set_warning_handler(IntegratorWarningHandler handler) override;
  double step(double t_stop) override;
  const double* state() const override;
  long steps() const override;
  long rhs_evaluations() const override;
  /// Steps rejected by the error test plus nonlinear-solver convergence failures.
  long failures() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
