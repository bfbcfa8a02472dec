#include "surfdb/multibody/run_health.hpp"

#include <algorithm>
#include <cstdio>

namespace surfdb {
namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

std::string counted(long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

void RunHealth::note(HealthKind kind, std::string_view subject, double t, double worst, std::string_view message,
                     long count) {
  auto w = std::find_if(warnings_.begin(), warnings_.end(),
                        [&](const RunWarning& x) { return x.kind == kind && x.subject == subject; });
  if (w == warnings_.end()) {
    warnings_.push_back({kind, std::string(subject), 0, t, worst, std::string(message)});
    w = warnings_.end() - 1;
  }
  w->count += count;
  w->worst = std::max(w->worst, worst);
}

RunStatus RunHealth::status() const {
  RunStatus s = RunStatus::ok;
  for (const RunWarning& w : warnings_) {
    if (w.kind == HealthKind::integrator_failure || w.kind == HealthKind::non_finite_state) return RunStatus::failed;
    s = RunStatus::warnings;
  }
  return s;
}

std::string RunHealth::describe(const RunWarning& w) const {
  const std::string first = "t = " + number(w.first_time) + " s";
  switch (w.kind) {
    case HealthKind::solver_failures:
      return w.subject + ": " + counted(w.count, "solver failure", "solver failures") + " in " +
             counted(steps_, "step", "steps") + " (first at " + first + ")";
    case HealthKind::deep_appearance:
      return w.subject + ": " + counted(w.count, "contact point", "contact points") +
             " appeared deeper than the approach could press them, up to " + number(w.worst) + " m (first at " +
             first + "): a contact jumped in, over an edge or from behind a face";
    case HealthKind::energy_gain:
      return w.subject + ": the mechanical energy plus the dissipated work rose " + number(w.worst) +
             " J above its start (first beyond the bound at " + first + ")";
    case HealthKind::constraint_drift:
      return w.subject + ": position-level violation up to " + number(w.worst) + " (first beyond " + w.message +
             " at " + first + ")";
    case HealthKind::integrator_message:
      return w.subject + ": " + counted(w.count, "warning", "warnings") + " (first at " + first + ": " + w.message + ")";
    case HealthKind::integrator_failure:
      return w.subject + ": " + w.message + "; the run stopped at " + first;
    case HealthKind::non_finite_state:
      return w.subject + ": NaN or infinity in its state at " + first + "; the run stopped at the step before";
    case HealthKind::passed_through:
      return w.subject + ": the sphere's centre was inside the solid at " + counted(w.count, "step", "steps") +
             ", up to " + number(w.worst) + " m deep (first at " + first + "): it passed through";
  }
  return w.subject;
}

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::ok: return "ok";
    case RunStatus::warnings: return "warnings";
    case RunStatus::failed: return "failed";
  }
  return "failed";
}

const char* to_string(HealthKind kind) {
  switch (kind) {
    case HealthKind::solver_failures: return "solver_failures";
    case HealthKind::deep_appearance: return "deep_appearance";
    case HealthKind::energy_gain: return "energy_gain";
    case HealthKind::constraint_drift: return "constraint_drift";
    case HealthKind::integrator_message: return "integrator_message";
    case HealthKind::integrator_failure: return "integrator_failure";
    case HealthKind::non_finite_state: return "non_finite_state";
    case HealthKind::passed_through: return "passed_through";
  }
  return "unknown";
}

}  // namespace surfdb
