#include "surfdb/multibody/integrator_sundials.hpp"

#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "grouped_jacobian.hpp"
#include "newton_lu.hpp"
#include "sundials_messages.hpp"

namespace surfdb {
namespace {
// Internal steps CVODE may take per call before it gives up: in effect no limit (one step per call).
constexpr long kMaxInternalSteps = 100000000;
// From this many states (eight bodies) a structured system's Newton matrix is sparse: below it the
// dense LU of at most 100 x 100 costs less than the sparse one's analysis.
constexpr sunindextype kSparseFromStates = 100;

// ARKODE's name for a return flag ("ARK_ERR_FAILURE"), from a string it allocates.
std::string arkode_flag_name(int flag) {
  char* name = ERKStepGetReturnFlagName(flag);
  std::string text = name ? name : "unknown";
  std::free(name);
  return text;
}

}  // namespace

struct SundialsIntegrator::Impl {
  OdeSystem& system;
  SundialsOptions options;
  SUNContext context = nullptr;
  N_Vector y = nullptr;
  void* cvode = nullptr;   // CVODE's memory (adams, bdf)
  void* arkode = nullptr;  // ARKODE's (dormand_prince)
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear = nullptr;
  SUNNonlinearSolver nonlinear = nullptr;
  double t = 0;
  bool fresh = true;  // no step taken since reset(): the next asks for first_step_target
  std::exception_ptr rhs_error{};  // thrown by the system inside CVODE, rethrown after it returns
  JacobianBlocks blocks{};         // BDF, when the system knows its Jacobian's structure
  GroupedJacobian grouped{};
  SundialsMessages messages{};

  // No exception may unwind through SUNDIALS' C frames: a negative return stops it at once.
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

  // BDF's Jacobian by grouped differences, for a system that knows its structure.
  static int jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* self, N_Vector weights, N_Vector,
                      N_Vector) {
    auto* impl = static_cast<Impl*>(self);
    try {
      impl->system.jacobian_blocks(impl->blocks);
      CVodeGetErrWeights(impl->cvode, weights);
      sunrealtype h = 0;
      CVodeGetCurrentStep(impl->cvode, &h);
      // CVODE's own smallest increment (cvLsDenseDQJac): 1000 |h| eps n ||fy||_WRMS, 1 when fy = 0.
      const double f_norm = N_VWrmsNorm(fy, weights);
      const double min_increment = f_norm > 0 ? 1000 * std::abs(h) * std::numeric_limits<double>::epsilon() *
                                                     static_cast<double>(N_VGetLength(y)) * f_norm
                                              : 1.0;
      if (SUNMatGetID(J) == SUNMATRIX_SPARSE) {
        const std::int64_t entries = GroupedJacobian::entries(impl->blocks, impl->system.size());
        if (SUNSparseMatrix_NNZ(J) < entries && SUNSparseMatrix_Reallocate(J, entries) != SUNMAT_SUCCESS)
          throw std::bad_alloc();
        GroupedJacobian::pattern(impl->blocks, impl->system.size(), SUNSparseMatrix_IndexPointers(J),
                                 SUNSparseMatrix_IndexValues(J));
        impl->grouped.evaluate(impl->system, impl->blocks, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                               N_VGetArrayPointer(weights), min_increment, SUNSparseMatrix_IndexPointers(J),
                               SUNSparseMatrix_Data(J));
      } else {
        impl->grouped.evaluate(impl->system, impl->blocks, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                               N_VGetArrayPointer(weights), min_increment, SUNDenseMatrix_Data(J));
      }
      return 0;
    } catch (...) {
      impl->rhs_error = std::current_exception();
      return -1;
    }
  }

  bool explicit_rk() const { return options.method == SundialsMethod::dormand_prince; }

  void check(int flag, const char* what) const {
    if (flag >= 0) return;
    if (explicit_rk())
      throw std::runtime_error(std::string("ARKODE ") + what + " failed (" + arkode_flag_name(flag) + ", flag " +
                               std::to_string(flag) + ")");
    throw std::runtime_error(std::string("CVODE ") + what + " failed (flag " + std::to_string(flag) + ")");
  }

  void create_cvode(double t0);
  void create_arkode(double t0);

  ~Impl() {
    if (arkode) ERKStepFree(&arkode);
    if (cvode) CVodeFree(&cvode);
    if (linear) SUNLinSolFree(linear);
    if (matrix) SUNMatDestroy(matrix);
    if (nonlinear) SUNNonlinSolFree(nonlinear);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

void SundialsIntegrator::Impl::create_cvode(double t0) {
  const bool adams = options.method == SundialsMethod::adams;
  cvode = CVodeCreate(adams ? CV_ADAMS : CV_BDF, context);
  if (!cvode) throw std::runtime_error("CVODE: cannot create the integrator");
  check(CVodeInit(cvode, &Impl::rhs, t0, y), "init");
  check(CVodeSetUserData(cvode, this), "user data");
  check(CVodeSetErrHandlerFn(cvode, &SundialsMessages::handle, &messages), "error handler");
  check(CVodeSStolerances(cvode, options.relative_tolerance, options.absolute_tolerance), "tolerances");
  check(CVodeSetMaxStep(cvode, options.max_step), "max step");
  check(CVodeSetMaxNumSteps(cvode, kMaxInternalSteps), "max steps");
  if (adams) {  // non-stiff: fixed-point iteration, no Jacobian
    nonlinear = SUNNonlinSol_FixedPoint(y, 0, context);
    check(CVodeSetNonlinearSolver(cvode, nonlinear), "nonlinear solver");
    return;
  }
  // A system that knows which bodies' rows each body's columns reach is differenced in groups
  // (grouped_jacobian.hpp), and from kSparseFromStates states on its Newton matrix is sparse
  // (newton_lu.hpp); else CVODE differences every column of a dense matrix.
  const sunindextype n = system.size();
  const bool structured = system.jacobian_blocks(blocks);
  matrix = structured && n >= kSparseFromStates
               ? SUNSparseMatrix(n, n, GroupedJacobian::entries(blocks, static_cast<int>(n)), CSC_MAT, context)
               : SUNDenseMatrix(n, n, context);
  if (!matrix) throw std::runtime_error("CVODE: cannot allocate the Newton matrix");
  linear = make_newton_lu(context, n);
  check(CVodeSetLinearSolver(cvode, linear, matrix), "linear solver");
  if (structured) check(CVodeSetJacFn(cvode, &Impl::jacobian), "Jacobian function");
}

void SundialsIntegrator::Impl::create_arkode(double t0) {
  arkode = ERKStepCreate(&Impl::rhs, t0, y, context);
  if (!arkode) throw std::runtime_error("ARKODE: cannot create the ERKStep integrator");
  check(ERKStepSetTableNum(arkode, ARKODE_DORMAND_PRINCE_7_4_5), "Dormand-Prince table");
  check(ERKStepSetUserData(arkode, this), "user data");
  check(ERKStepSStolerances(arkode, options.relative_tolerance, options.absolute_tolerance), "tolerances");
  check(ERKStepSetMaxStep(arkode, options.max_step), "max step");
  check(ERKStepSetErrHandlerFn(arkode, &SundialsMessages::handle, &messages), "error handler");
  check(ERKStepSetMaxNumSteps(arkode, kMaxInternalSteps), "max steps");
}

SundialsIntegrator::SundialsIntegrator(OdeSystem& system, SundialsOptions options) : impl_(new Impl{system, options}) {
  Impl& d = *impl_;
  d.check(SUNContext_Create(nullptr, &d.context), "context");
  d.y = N_VNew_Serial(system.size(), d.context);
  if (!d.y) throw std::runtime_error("SUNDIALS: cannot allocate the state vector");
}

SundialsIntegrator::~SundialsIntegrator() = default;

void SundialsIntegrator::reset(double t0, const double* y0) {
  Impl& d = *impl_;
  double* y = N_VGetArrayPointer(d.y);
  for (int c = 0; c < d.system.size(); ++c) y[c] = y0[c];
  d.t = t0;
  d.fresh = true;
  if (d.cvode) return d.check(CVodeReInit(d.cvode, t0, d.y), "reinit");
  if (d.arkode) return d.check(ERKStepReInit(d.arkode, &Impl::rhs, t0, d.y), "reinit");
  if (d.explicit_rk()) return d.create_arkode(t0);
  d.create_cvode(t0);
}

void SundialsIntegrator::set_warning_handler(IntegratorWarningHandler handler) {
  impl_->messages.warning = std::move(handler);
}

double SundialsIntegrator::step(double t_stop) {
  Impl& d = *impl_;
  d.check(d.arkode ? ERKStepSetStopTime(d.arkode, t_stop) : CVodeSetStopTime(d.cvode, t_stop), "stop time");
  sunrealtype reached = d.t;
  d.messages.t = d.t;
  const double target = d.fresh ? first_step_target(d.t, t_stop, d.options.max_step) : t_stop;
  d.fresh = false;
  const int flag = d.arkode ? ERKStepEvolve(d.arkode, target, d.y, &reached, ARK_ONE_STEP)
                            : CVode(d.cvode, target, d.y, &reached, CV_ONE_STEP);
  if (d.rhs_error) std::rethrow_exception(std::exchange(d.rhs_error, nullptr));
  if (flag < 0 && d.arkode)
    throw IntegratorError(d.messages.failure(
        "ARKODE Dormand-Prince failed (" + arkode_flag_name(flag) + ", flag " + std::to_string(flag) +
        "): the error test failed repeatedly or the step became too small; look for a discontinuity in the model or "
        "loosen relative_tolerance and absolute_tolerance"));
  if (flag < 0)
    throw IntegratorError(d.messages.failure("CVODE failed (flag " + std::to_string(flag) +
                                             "): the step size became too small or the error test failed repeatedly"));
  d.t = reached;
  return reached;
}

const double* SundialsIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

long SundialsIntegrator::steps() const {
  long n = 0;
  if (impl_->arkode) ERKStepGetNumSteps(impl_->arkode, &n);
  else CVodeGetNumSteps(impl_->cvode, &n);
  return n;
}

long SundialsIntegrator::rhs_evaluations() const {
  long n = 0;
  if (impl_->arkode) ERKStepGetNumRhsEvals(impl_->arkode, &n);
  else CVodeGetNumRhsEvals(impl_->cvode, &n);
  return n;
}

long SundialsIntegrator::failures() const {
  long error_test = 0, convergence = 0;
  if (impl_->arkode) {
    ERKStepGetNumErrTestFails(impl_->arkode, &error_test);
    return error_test;
  }
  CVodeGetNumErrTestFails(impl_->cvode, &error_test);
  CVodeGetNumNonlinSolvConvFails(impl_->cvode, &convergence);
  return error_test + convergence;
}

}  // namespace surfdb
