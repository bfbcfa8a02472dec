#include "surfdb/multibody/integrator_arkode.hpp"

#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "sundials_messages.hpp"

namespace surfdb {
namespace {
// Internal steps ARKODE may take per call before it gives up: in effect no limit (one step per call).
constexpr long kMaxInternalSteps = 100000000;

// ARKODE's name for a return flag ("ARK_ERR_FAILURE"), from a string it allocates.
std::string flag_name(int flag) {
  char* name = ERKStepGetReturnFlagName(flag);
  std::string text = name ? name : "unknown";
  std::free(name);
  return text;
}
}  // namespace

struct ArkodeIntegrator::Impl {
  OdeSystem& system;
  CvodeOptions options;
  SUNContext context = nullptr;
  N_Vector y = nullptr;
  void* arkode = nullptr;
  double t = 0;
  bool fresh = true;  // no step taken since reset(): the next asks for first_step_target
  std::exception_ptr rhs_error{};  // thrown by the system inside ARKODE, rethrown after it returns
  SundialsMessages messages{};

  // No exception may unwind through ARKODE's C frames: a negative return stops ARKODE at once.
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
    if (flag < 0)
      throw std::runtime_error(std::string("ARKODE ") + what + " failed (" + flag_name(flag) + ", flag " +
                               std::to_string(flag) + ")");
  }

  ~Impl() {
    if (arkode) ERKStepFree(&arkode);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

ArkodeIntegrator::ArkodeIntegrator(OdeSystem& system, CvodeOptions options) : impl_(new Impl{system, options}) {
  Impl& d = *impl_;
  d.check(SUNContext_Create(nullptr, &d.context), "context");
  d.y = N_VNew_Serial(system.size(), d.context);
  if (!d.y) throw std::runtime_error("ARKODE: cannot allocate the state vector");
}

ArkodeIntegrator::~ArkodeIntegrator() = default;

void ArkodeIntegrator::reset(double t0, const double* y0) {
  Impl& d = *impl_;
  double* y = N_VGetArrayPointer(d.y);
  for (int c = 0; c < d.system.size(); ++c) y[c] = y0[c];
  d.t = t0;
  d.fresh = true;
  if (d.arkode) {
    d.check(ERKStepReInit(d.arkode, &Impl::rhs, t0, d.y), "reinit");
    return;
  }
  d.arkode = ERKStepCreate(&Impl::rhs, t0, d.y, d.context);
  if (!d.arkode) throw std::runtime_error("ARKODE: cannot create the ERKStep integrator");
  d.check(ERKStepSetTableNum(d.arkode, ARKODE_DORMAND_PRINCE_7_4_5), "Dormand-Prince table");
  d.check(ERKStepSetUserData(d.arkode, &d), "user data");
  d.check(ERKStepSStolerances(d.arkode, d.options.relative_tolerance, d.options.absolute_tolerance), "tolerances");
  d.check(ERKStepSetMaxStep(d.arkode, d.options.max_step), "max step");
  d.check(ERKStepSetErrHandlerFn(d.arkode, &SundialsMessages::handle, &d.messages), "error handler");
  d.check(ERKStepSetMaxNumSteps(d.arkode, kMaxInternalSteps), "max steps");
}

void ArkodeIntegrator::set_warning_handler(IntegratorWarningHandler handler) {
  impl_->messages.warning = std::move(handler);
}

double ArkodeIntegrator::step(double t_stop) {
  Impl& d = *impl_;
  d.check(ERKStepSetStopTime(d.arkode, t_stop), "stop time");
  sunrealtype reached = d.t;
  d.messages.t = d.t;
  const double target = d.fresh ? first_step_target(d.t, t_stop, d.options.max_step) : t_stop;
  d.fresh = false;
  const int flag = ERKStepEvolve(d.arkode, target, d.y, &reached, ARK_ONE_STEP);
  if (d.rhs_error) std::rethrow_exception(std::exchange(d.rhs_error, nullptr));
  if (flag < 0)
    throw IntegratorError(d.messages.failure(
        "ARKODE Dormand-Prince failed (" + flag_name(flag) + ", flag " + std::to_string(flag) +
        "): the error test failed repeatedly or the step became too small; look for a discontinuity in the model or "
        "loosen relative_tolerance and absolute_tolerance"));
  d.t = reached;
  return reached;
}

const double* ArkodeIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

long ArkodeIntegrator::steps() const {
  long n = 0;
  ERKStepGetNumSteps(impl_->arkode, &n);
  return n;
}

long ArkodeIntegrator::rhs_evaluations() const {
  long n = 0;
  ERKStepGetNumRhsEvals(impl_->arkode, &n);
  return n;
}

long ArkodeIntegrator::failures() const {
  long n = 0;
  ERKStepGetNumErrTestFails(impl_->arkode, &n);
  return n;
}

}  // namespace surfdb
