#include "surfdb/multibody/integrator_cvode.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <cstdint>
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
  bool fresh = true;  // no step taken since reset(): the next asks for first_step_target
  std::exception_ptr rhs_error{};  // thrown by the system inside CVODE, rethrown after it returns
  JacobianBlocks blocks{};         // BDF, when the system knows its Jacobian's structure
  GroupedJacobian grouped{};
  SundialsMessages messages{};

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
  d.fresh = true;
  if (d.started) {
    d.check(CVodeReInit(d.cvode, t0, d.y), "reinit");
    return;
  }
  const bool adams = d.options.method == CvodeMethod::adams;
  d.cvode = CVodeCreate(adams ? CV_ADAMS : CV_BDF, d.context);
  if (!d.cvode) throw std::runtime_error("CVODE: cannot create the integrator");
  d.check(CVodeInit(d.cvode, &Impl::rhs, t0, d.y), "init");
  d.check(CVodeSetUserData(d.cvode, &d), "user data");
  d.check(CVodeSetErrHandlerFn(d.cvode, &SundialsMessages::handle, &d.messages), "error handler");
  d.check(CVodeSStolerances(d.cvode, d.options.relative_tolerance, d.options.absolute_tolerance), "tolerances");
  d.check(CVodeSetMaxStep(d.cvode, d.options.max_step), "max step");
  d.check(CVodeSetMaxNumSteps(d.cvode, kMaxInternalSteps), "max steps");
  if (adams) {  // non-stiff: fixed-point iteration, no Jacobian
    d.nonlinear = SUNNonlinSol_FixedPoint(d.y, 0, d.context);
    d.check(CVodeSetNonlinearSolver(d.cvode, d.nonlinear), "nonlinear solver");
  } else {
    // A system that knows which bodies' rows each body's columns reach is differenced in groups
    // (grouped_jacobian.hpp), and from kSparseFromStates states on its Newton matrix is sparse
    // (newton_lu.hpp); else CVODE differences every column of a dense matrix.
    const sunindextype n = d.system.size();
    const bool structured = d.system.jacobian_blocks(d.blocks);
    d.matrix = structured && n >= kSparseFromStates
                   ? SUNSparseMatrix(n, n, GroupedJacobian::entries(d.blocks, static_cast<int>(n)), CSC_MAT, d.context)
                   : SUNDenseMatrix(n, n, d.context);
    if (!d.matrix) throw std::runtime_error("CVODE: cannot allocate the Newton matrix");
    d.linear = make_newton_lu(d.context, n);
    d.check(CVodeSetLinearSolver(d.cvode, d.linear, d.matrix), "linear solver");
    if (structured) d.check(CVodeSetJacFn(d.cvode, &Impl::jacobian), "Jacobian function");
  }
  d.started = true;
}

void CvodeIntegrator::set_warning_handler(IntegratorWarningHandler handler) {
  impl_->messages.warning = std::move(handler);
}

double CvodeIntegrator::step(double t_stop) {
  Impl& d = *impl_;
  d.check(CVodeSetStopTime(d.cvode, t_stop), "stop time");
  sunrealtype reached = d.t;
  d.messages.t = d.t;
  const double target = d.fresh ? first_step_target(d.t, t_stop, d.options.max_step) : t_stop;
  d.fresh = false;
  const int flag = CVode(d.cvode, target, d.y, &reached, CV_ONE_STEP);
  if (d.rhs_error) std::rethrow_exception(std::exchange(d.rhs_error, nullptr));
  if (flag < 0)
    throw IntegratorError(d.messages.failure("CVODE failed (flag " + std::to_string(flag) +
                                             "): the step size became too small or the error test failed repeatedly"));
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
