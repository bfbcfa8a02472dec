#include "surfdb/multibody/integrator_cvode.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

namespace surfdb {
namespace {
// Internal steps CVODE may take per call before it gives up: in effect no limit (one step per call).
constexpr long kMaxInternalSteps = 100000000;
}  // namespace

struct CvodeIntegrator::Impl {
  OdeSystem& system;
  CvodeOptions options;
  SUNContext context = nullptr;
  N_Vector y = nullptr;
  void* cvode = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  SUNNonlinearSolver nonlinear = nullptr;
  bool started = false;
  double t = 0;
  std::exception_ptr rhs_error{};  // thrown by the system inside CVODE, rethrown after it returns

  // No exception may unwind through CVODE's C frames: a negative return stops CVODE at once.
  static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* self) {
    auto* impl = static_cast<Impl*>(self);
    try {
      impl->system.derivative(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
      return 0;
    } catch (...) {
      impl->rhs_error = std::current_exception();
      return -1;
    }
  }

  void check(int flag, const char* what) const {
    if (flag < 0) throw std::runtime_error(std::string("CVODE ") + what + " failed (flag " + std::to_string(flag) + ")");
  }

  ~Impl() {
    if (cvode) CVodeFree(&cvode);
    if (linear) SUNLinSolFree(linear);
    if (matrix) SUNMatDestroy(matrix);
    if (nonlinear) SUNNonlinSolFree(nonlinear);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

CvodeIntegrator::CvodeIntegrator(OdeSystem& system, CvodeOptions options)
    : impl_(new Impl{system, options}) {
  Impl& d = *impl_;
  d.check(SUNContext_Create(nullptr, &d.context), "context");
  d.y = N_VNew_Serial(system.size(), d.context);
  if (!d.y) throw std::runtime_error("CVODE: cannot allocate the state vector");
}

CvodeIntegrator::~CvodeIntegrator() = default;

void CvodeIntegrator::reset(double t0, const double* y0) {
  Impl& d = *impl_;
  double* y = N_VGetArrayPointer(d.y);
  for (int c = 0; c < d.system.size(); ++c) y[c] = y0[c];
  d.t = t0;
  if (d.started) {
    d.check(CVodeReInit(d.cvode, t0, d.y), "reinit");
    return;
  }
  const bool adams = d.options.method == CvodeMethod::adams;
  d.cvode = CVodeCreate(adams ? CV_ADAMS : CV_BDF, d.context);
  if (!d.cvode) throw std::runtime_error("CVODE: cannot create the integrator");
  d.check(CVodeInit(d.cvode, &Impl::rhs, t0, d.y), "init");
  d.check(CVodeSetUserData(d.cvode, &d), "user data");
  d.check(CVodeSStolerances(d.cvode, d.options.relative_tolerance, d.options.absolute_tolerance), "tolerances");
  d.check(CVodeSetMaxStep(d.cvode, d.options.max_step), "max step");
  d.check(CVodeSetMaxNumSteps(d.cvode, kMaxInternalSteps), "max steps");
  if (adams) {  // non-stiff: fixed-point iteration, no Jacobian
    d.nonlinear = SUNNonlinSol_FixedPoint(d.y, 0, d.context);
    d.check(CVodeSetNonlinearSolver(d.cvode, d.nonlinear), "nonlinear solver");
  } else {
    d.matrix = SUNDenseMatrix(d.system.size(), d.system.size(), d.context);
    d.linear = SUNLinSol_Dense(d.y, d.matrix, d.context);
    d.check(CVodeSetLinearSolver(d.cvode, d.linear, d.matrix), "linear solver");
  }
  d.started = true;
}

double CvodeIntegrator::step(double t_stop) {
  Impl& d = *impl_;
  d.check(CVodeSetStopTime(d.cvode, t_stop), "stop time");
  sunrealtype reached = d.t;
  const int flag = CVode(d.cvode, t_stop, d.y, &reached, CV_ONE_STEP);
  if (d.rhs_error) std::rethrow_exception(std::exchange(d.rhs_error, nullptr));
  if (flag < 0)
    throw std::runtime_error("CVODE failed at t = " + std::to_string(d.t) + " s (flag " + std::to_string(flag) +
                             "): the step size became too small or the error test failed repeatedly");
  d.t = reached;
  return reached;
}

const double* CvodeIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

long CvodeIntegrator::steps() const {
  long n = 0;
  CVodeGetNumSteps(impl_->cvode, &n);
  return n;
}

long CvodeIntegrator::rhs_evaluations() const {
  long n = 0;
  CVodeGetNumRhsEvals(impl_->cvode, &n);
  return n;
}

long CvodeIntegrator::failures() const {
  long error_test = 0, convergence = 0;
  CVodeGetNumErrTestFails(impl_->cvode, &error_test);
  CVodeGetNumNonlinSolvConvFails(impl_->cvode, &convergence);
  return error_test + convergence;
}

}  // namespace surfdb
