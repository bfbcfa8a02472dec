// Simulation::run(): the step loop every user of the multibody layer shares (the command, the
// embedding samples, the tests).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "surfdb/multibody/integrator_ab4.hpp"
#include "surfdb/multibody/integrator_arkode.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"
#include "surfdb/multibody/simulation.hpp"
#include "health_monitor.hpp"

namespace surfdb {
namespace {

// Output instants within this of a scheduled time count as reaching it (s): fixed steps add up
// to k h with round-off.
constexpr double kTimeSlack = 1e-12;
// More fixed steps than this would take years: an end time or a step mistyped.
constexpr double kMaxFixedSteps = 1e12;

// Decides after each accepted step whether it is an output instant.
class OutputClock {
 public:
  OutputClock(const OutputSchedule& schedule, double end_time, std::size_t pairs)
      : schedule_(schedule), end_time_(end_time), next_(schedule.interval), impacts_(pairs, 0), rows_(pairs, 0) {}

  bool due(const Simulation& sim, double t) {
    bool dense = false;
    for (std::size_t k = 0; k < impacts_.size(); ++k) {
      const ContactGroup& c = sim.contacts()[k];
      if (c.statistics().impacts != impacts_[k]) impacts_[k] = c.statistics().impacts, rows_[k] = 0;
      if (c.single() && c.output().points > 0 && rows_[k] < schedule_.steps_per_impact) dense = true, ++rows_[k];
    }
    if (!dense && t + kTimeSlack < next_ && t < end_time_) return false;
    while (next_ <= t + kTimeSlack) next_ += schedule_.interval;
    return true;
  }

 private:
  OutputSchedule schedule_;
  double end_time_, next_;
  std::vector<long> impacts_;
  std::vector<long> rows_;
};

void check(const RunSettings& s) {
  if (!(s.end_time > 0) || !std::isfinite(s.end_time)) throw std::invalid_argument("end time must be positive");
  if (!(s.output.interval > 0)) throw std::invalid_argument("output interval must be positive");
  const bool fixed = s.integrator == IntegratorKind::ab4 || s.integrator == IntegratorKind::rk4;
  if (fixed && !(s.step > 0)) throw std::invalid_argument("fixed step must be positive");
  if (fixed && !(s.end_time / s.step <= kMaxFixedSteps)) {
    char text[128];
    std::snprintf(text, sizeof text, "end time %g s at a fixed step of %g s is %g steps, more than 1e12", s.end_time,
                  s.step, s.end_time / s.step);
    throw std::invalid_argument(text);
  }
}

}  // namespace

RunStatistics Simulation::run(std::vector<double>& y, const RunSettings& settings, RunObserver& observer) {
  check(settings);
  y.resize(static_cast<std::size_t>(size()), 0.0);
  dynamics_.place_welded(y.data());
  start_surface_joints(y.data());
  RunStatistics stats;
  const std::clock_t cpu0 = std::clock();
  std::vector<double> scratch(y.size());
  check_surface_joints(y.data());
  accept(0, y.data());
  stats.initial_energy = mechanical_energy(y.data());
  HealthMonitor monitor(*this, settings.health, stats.initial_energy, stats.health);
  const auto output = [&](double t, const double* state) {
    derivative(t, state, scratch.data());  // the joint reactions at this very state
    const double violation = dynamics_.position_violation(t, state);
    stats.constraint_drift = std::max(stats.constraint_drift, violation);
    monitor.at_output(t, violation);
    observer.output(*this, t, state, violation);
  };
  output(0, y.data());
  OutputClock clock(settings.output, settings.end_time, contacts_.size());
  // Returns false, the step not accepted, when the state at t cannot be carried on (not finite).
  const auto after_step = [&](double t, const double* state) {
    if (!monitor.finite(t, state)) return false;
    ++stats.steps;
    accept(t, state);
    monitor.after_step(t, state);
    if (clock.due(*this, t)) output(t, state);
    observer.accepted(*this, t, state);
    return true;
  };
  double t = 0;
  // A step whose state is not finite is undone: y and t stay the last accepted ones.
  const auto fixed_steps = [&](auto& integrator) {
    const long count = std::lround(settings.end_time / settings.step);
    std::vector<double> last(y.size());
    long k = 1;
    for (; k <= count; ++k) {
      std::copy(y.begin(), y.end(), last.begin());
      integrator.step(*this, t, settings.step, y.data());
      if (!after_step(static_cast<double>(k) * settings.step, y.data())) {
        y = last;
        break;
      }
      t = static_cast<double>(k) * settings.step;
    }
    return k - 1;
  };
  const auto variable_steps = [&](VariableStepIntegrator& integrator) {
    integrator.set_warning_handler([&stats](double at, const char* message) {
      stats.health.note(HealthKind::integrator_message, "integrator", at, 0, message);
    });
    integrator.reset(0, y.data());
    try {
      while (t < settings.end_time) {
        const double reached = integrator.step(settings.end_time);
        if (!after_step(reached, integrator.state())) break;  // (CVODE and ARKODE accept no NaN step)
        t = reached;
      }
    } catch (const IntegratorError& e) {
      stats.health.note(HealthKind::integrator_failure, "integrator", t, 0, e.what());
    }
    std::copy(integrator.state(), integrator.state() + size(), y.begin());
    stats.rhs_evaluations = integrator.rhs_evaluations();
    stats.failures = integrator.failures();
  };
  if (settings.integrator == IntegratorKind::ab4) {
    AdamsBashforth4 ab4(size());
    const long count = fixed_steps(ab4);
    stats.rhs_evaluations = count + 3 * std::min(count, 3L);  // one per step; RK4's three more at the start
  } else if (settings.integrator == IntegratorKind::rk4) {
    Rk4 rk4(size());
    stats.rhs_evaluations = 4 * fixed_steps(rk4);
  } else if (settings.integrator == IntegratorKind::dormand_prince) {
    ArkodeIntegrator dormand_prince(*this, settings.cvode);
    variable_steps(dormand_prince);
  } else {
    CvodeOptions options = settings.cvode;
    options.method = settings.integrator == IntegratorKind::bdf ? CvodeMethod::bdf : CvodeMethod::adams;
    CvodeIntegrator cvode(*this, options);
    variable_steps(cvode);
  }
  stats.end_time = t;
  stats.health.set_steps(stats.steps);
  stats.cpu_seconds = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  return stats;
}

}  // namespace surfdb
