// SUNDIALS' messages (CVODE's and ARKODE's error handler) routed to the run instead of standard
// error: warnings to the integrator's IntegratorWarningHandler, the last error kept for the
// IntegratorError that the failed step throws.
#pragma once

#include <string>

#include "surfdb/multibody/integrator_variable_step.hpp"

namespace surfdb {

struct SundialsMessages {
  IntegratorWarningHandler warning;
  double t = 0;            // s, the integrator's time before the step under way
  std::string last_error;  // the last error message, empty when none

  /// CVErrHandlerFn and ARKErrHandlerFn: error_code > 0 is a warning. Never throws.
  static void handle(int error_code, const char* /*module*/, const char* function, char* message, void* self) noexcept {
    auto* m = static_cast<SundialsMessages*>(self);
    try {
      const std::string text = std::string(function ? function : "SUNDIALS") + ": " + (message ? message : "");
      if (error_code < 0) m->last_error = text;
      else if (m->warning) m->warning(m->t, text.c_str());
    } catch (...) {  // out of memory for a message: the message is lost, the run goes on
    }
  }

  /// The failure message: `what` and SUNDIALS' own account.
  std::string failure(const std::string& what) const {
    return last_error.empty() ? what : what + ": " + last_error;
  }
};

}  // namespace surfdb
