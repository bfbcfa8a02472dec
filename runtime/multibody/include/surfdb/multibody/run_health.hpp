// The health of a run: what went wrong while it ran, counted by kind and by what it concerns (a
// contact, a body, the integrator), so that every front end can say whether the run can be
// trusted. A run whose warnings list is empty is "ok"; one with warnings ran to its end but some
// of its results are doubtful ("warnings"); one that could not go on (the integrator gave up, a
// state turned NaN) stopped early and is "failed".
//
// Kinds (docs/scenario.md, "The health of a run", says when each is counted):
//   solver_failures     accepted steps at which a contact's detection did not solve
//   deep_appearance     a contact point that appeared deeper than its approach could have pressed
//                       it (it jumped in: an edge crossed, a face entered from behind)
//   passed_through      a sphere's centre inside a solid surface set while none of its points touches
//   energy_gain         the mechanical energy plus the dissipated work rose above its start
//   constraint_drift    a joint's position-level violation beyond the bound
//   integrator_message  SUNDIALS warned (e.g. t + h = t: steps at the smallest step)
//   integrator_failure  the integrator gave up: the run stopped there (failed)
//   non_finite_state    NaN or infinity in a body's state: the run stopped there (failed)
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace surfdb {

enum class RunStatus { ok, warnings, failed };

enum class HealthKind {
  solver_failures,
  deep_appearance,
  energy_gain,
  constraint_drift,
  integrator_message,
  integrator_failure,
  non_finite_state,
  passed_through,
};

/// One kind of trouble about one subject.
struct RunWarning {
  HealthKind kind = HealthKind::solver_failures;
  std::string subject;      // "contact 'ball_plate'", "body 'ball'", "integrator"
  long count = 0;           // occurrences (steps, appearances, messages)
  double first_time = NAN;  // s
  double worst = 0;         // the largest magnitude seen: depth (m), gain (J), drift (m or rad)
  std::string message;      // the first occurrence's own text (SUNDIALS' message, the failure)
};

/// Bounds beyond which a run's measures are reported.
struct HealthLimits {
  /// Of the energy scale (the largest kinetic, elastic and dissipated energy and the range of
  /// the potential energy reached, none of which depends on where the origin lies): the
  /// mechanical energy plus the dissipated
  /// work may rise this far above its start. Checked only in scenes without drivers (a driver does
  /// work). Not tighter: the contact models' own bookkeeping of friction work is consistent to
  /// about 1e-4 of it for point contacts and 1 % for the polygonal model on tilted elements.
  double energy_gain = 2e-2;
  /// m (or rad): the largest position-level constraint violation at the output instants.
  double constraint_drift = 1e-4;
};

class RunHealth {
 public:
  /// Counts one occurrence of `kind` about `subject` at time t with magnitude `worst` (kept at
  /// its largest) and, the first time, `message`. Allocates only for a kind and subject not seen.
  void note(HealthKind kind, std::string_view subject, double t, double worst = 0, std::string_view message = {},
            long count = 1);

  const std::vector<RunWarning>& warnings() const { return warnings_; }
  RunStatus status() const;
  /// The steps the run accepted, for describe().
  void set_steps(long steps) { steps_ = steps; }
  /// One line for a warning: "contact 'rod_plate': 509 solver failures in 507 steps (first at
  /// t = 0.0012 s)".
  std::string describe(const RunWarning& w) const;

 private:
  std::vector<RunWarning> warnings_;
  long steps_ = 0;
};

/// "ok", "warnings", "failed".
const char* to_string(RunStatus status);
/// The kind's name as in summary.json: "solver_failures", "deep_appearance", ...
const char* to_string(HealthKind kind);

}  // namespace surfdb
