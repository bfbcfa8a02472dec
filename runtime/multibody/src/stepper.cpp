// The step loop every user of the multibody layer shares: Simulation::run() repeats Stepper::step
// to the end time (the command, the embedding samples, the tests), a Data steps it from C++, C
// and Python.
#include "surfdb/multibody/stepper.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>

#include "surfdb/multibody/integrator_ab4.hpp"
#include "surfdb/multibody/integrator_sundials.hpp"
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

bool fixed_step(IntegratorKind kind) { return kind == IntegratorKind::ab4 || kind == IntegratorKind::rk4; }

void check(const RunSettings& s) {
  if (!(s.end_time > 0) || !std::isfinite(s.end_time)) throw std::invalid_argument("end time must be positive");
  if (!(s.output.interval > 0)) throw std::invalid_argument("output interval must be positive");
  const bool fixed = fixed_step(s.integrator);
  if (fixed && !(s.step > 0)) throw std::invalid_argument("fixed step must be positive");
  if (fixed && !(s.end_time / s.step <= kMaxFixedSteps)) {
    char text[128];
    std::snprintf(text, sizeof text, "end time %g s at a fixed step of %g s is %g steps, more than 1e12", s.end_time,
                  s.step, s.end_time / s.step);
    throw std::invalid_argument(text);
  }
}

std::unique_ptr<VariableStepIntegrator> variable_integrator(Simulation& sim, const RunSettings& s) {
  SundialsOptions options = s.sundials;
  options.method = s.integrator == IntegratorKind::dormand_prince ? SundialsMethod::dormand_prince
                   : s.integrator == IntegratorKind::bdf          ? SundialsMethod::bdf
                                                                  : SundialsMethod::adams;
  return std::make_unique<SundialsIntegrator>(sim, options);
}

}  // namespace

struct Stepper::Impl {
  Impl(Simulation& s, std::vector<double>& state, const RunSettings& run, RunObserver& o)
      : sim(s), y(state), settings(run), observer(&o), cpu0(std::clock()),
        clock(run.output, run.end_time, s.contacts().size()) {}

  void start();
  void begin();
  void output(double t, const double* state);
  bool after_step(double t, const double* state);
  bool fixed(double t_next);
  bool variable(double t_stop);

  Simulation& sim;
  std::vector<double>& y;
  RunSettings settings;
  RunObserver* observer;
  RunStatistics stats;
  std::clock_t cpu0;
  std::vector<double> scratch;   // the derivative at output instants
  std::vector<double> accepted;  // y at the last accepted state: a step whose state is not finite is undone
  std::optional<HealthMonitor> monitor;
  OutputClock clock;
  std::optional<AdamsBashforth4> ab4;
  std::optional<Rk4> rk4;
  std::unique_ptr<VariableStepIntegrator> integrator;
  double t = 0, t_base = 0;  // time reached; that of the last (re)start
  long k = 0;                // fixed steps since the last (re)start
  long fixed_rhs = 0;        // the fixed steps' derivative evaluations
  long rhs_before = 0, failures_before = 0;  // the variable-step integrator's before its last restart
  bool stopped = false;
  bool begun = false;  // the initial state given to the observer
};

void Stepper::Impl::start() {
  check(settings);
  y.resize(static_cast<std::size_t>(sim.size()), 0.0);
  sim.dynamics().place_welded(y.data());
  sim.start_surface_joints(y.data());
  scratch.resize(y.size());
  sim.check_surface_joints(y.data());
  sim.accept(0, y.data());
  stats.initial_energy = sim.mechanical_energy(y.data());
  monitor.emplace(sim, settings.health, stats.initial_energy, stats.health);
  accepted = y;
}

// The initial output, then the integrator (in this order: the output's evaluation leaves the
// contacts' warm starts where the first step finds them).
void Stepper::Impl::begin() {
  begun = true;
  output(t, y.data());
  if (settings.integrator == IntegratorKind::ab4) {
    ab4.emplace(sim.size());
  } else if (settings.integrator == IntegratorKind::rk4) {
    rk4.emplace(sim.size());
  } else {
    integrator = variable_integrator(sim, settings);
    integrator->set_warning_handler([this](double at, const char* message) {
      stats.health.note(HealthKind::integrator_message, "integrator", at, 0, message);
    });
    integrator->reset(t, y.data());
  }
}

void Stepper::Impl::output(double at, const double* state) {
  sim.derivative(at, state, scratch.data());  // the joint reactions at this very state
  const double violation = sim.position_violation(at, state);
  stats.constraint_drift = std::max(stats.constraint_drift, violation);
  monitor->at_output(at, violation);
  observer->output(sim, at, state, violation);
}

// Returns false, the step not accepted, when the state at t cannot be carried on (not finite).
bool Stepper::Impl::after_step(double at, const double* state) {
  if (!monitor->finite(at, state)) return false;
  ++stats.steps;
  sim.accept(at, state);
  monitor->after_step(at, state);
  if (clock.due(sim, at)) output(at, state);
  observer->accepted(sim, at, state);
  return true;
}

bool Stepper::Impl::fixed(double t_next) {
  const long evaluations = rk4 ? 4 : k < 3 ? 4 : 1;  // AB4: one per step, RK4's three more at the start
  if (ab4)
    ab4->step(sim, t, settings.step, y.data());
  else
    rk4->step(sim, t, settings.step, y.data());
  if (!after_step(t_next, y.data())) {
    std::copy(accepted.begin(), accepted.end(), y.begin());
    return false;
  }
  fixed_rhs += evaluations;  // those of accepted steps
  ++k;
  t = t_next;
  std::copy(y.begin(), y.end(), accepted.begin());
  return true;
}

bool Stepper::Impl::variable(double t_stop) {
  try {
    const double reached = integrator->step(t_stop);
    if (!after_step(reached, integrator->state())) return false;  // (CVODE and ARKODE accept no NaN step)
    t = reached;
  } catch (const IntegratorError& e) {
    stats.health.note(HealthKind::integrator_failure, "integrator", t, 0, e.what());
    return false;
  }
  std::copy(integrator->state(), integrator->state() + y.size(), y.begin());
  std::copy(y.begin(), y.end(), accepted.begin());
  return true;
}

Stepper::Stepper(Simulation& sim, std::vector<double>& y, const RunSettings& settings, RunObserver& observer)
    : impl_(std::make_unique<Impl>(sim, y, settings, observer)) {
  impl_->start();
}

Stepper::~Stepper() = default;

bool Stepper::step(double t_stop) {
  Impl& d = *impl_;
  begin();
  if (d.stopped) return false;
  if (state_written()) restart(d.t);
  d.stopped = !(fixed_step(d.settings.integrator) ? d.fixed(d.t_base + static_cast<double>(d.k + 1) * d.settings.step) : d.variable(t_stop));
  return !d.stopped;
}

void Stepper::begin() {
  if (!impl_->begun) impl_->begin();
}

void Stepper::set_observer(RunObserver& observer) { impl_->observer = &observer; }

bool Stepper::reached(double t_end) const {
  const Impl& d = *impl_;
  if (!fixed_step(d.settings.integrator)) return !(d.t < t_end);
  return d.k >= std::lround((t_end - d.t_base) / d.settings.step);
}

bool Stepper::failed() const { return impl_->stopped; }

bool Stepper::state_written() const {
  const Impl& d = *impl_;
  return std::memcmp(d.y.data(), d.accepted.data(), d.y.size() * sizeof(double)) != 0;
}

double Stepper::time() const { return impl_->t; }

void Stepper::restart(double t) {
  Impl& d = *impl_;
  d.t = d.t_base = t;
  d.k = 0;
  d.stopped = false;
  d.sim.accept(t, d.y.data());
  d.accepted = d.y;
  // The energy balance runs on from the state given (a body moved by hand adds energy).
  d.monitor.emplace(d.sim, d.settings.health, d.sim.mechanical_energy(d.y.data()) + d.sim.dissipated_energy(d.y.data()),
                    d.stats.health);
  if (!d.begun) return d.begin();  // the integrator starts here
  if (d.ab4) d.ab4->restart();
  if (!d.integrator) return;
  d.rhs_before += d.integrator->rhs_evaluations();
  d.failures_before += d.integrator->failures();
  d.integrator->reset(t, d.y.data());
}

const RunStatistics& Stepper::statistics() {
  Impl& d = *impl_;
  d.stats.end_time = d.t;
  d.stats.rhs_evaluations = d.integrator ? d.rhs_before + d.integrator->rhs_evaluations() : d.fixed_rhs;
  d.stats.failures = d.integrator ? d.failures_before + d.integrator->failures() : 0;
  d.stats.health.set_steps(d.stats.steps);
  d.stats.cpu_seconds = static_cast<double>(std::clock() - d.cpu0) / CLOCKS_PER_SEC;
  return d.stats;
}

RunStatistics Simulation::run(std::vector<double>& y, const RunSettings& settings, RunObserver& observer) {
  Stepper stepper(*this, y, settings, observer);
  stepper.begin();
  while (!stepper.reached(settings.end_time))
    if (!stepper.step(settings.end_time)) break;
  return stepper.statistics();
}

}  // namespace surfdb
