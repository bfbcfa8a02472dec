// surfdb/simulation.h over surfdb::scenario and Simulation::run.
#include "surfdb/simulation.h"

#include <cmath>
#include <memory>
#include <vector>

#include "c_errors.hpp"
#include "surfdb/multibody/simulation.hpp"
#include "surfdb/scenario/scenario.hpp"

struct surfdb_simulation {
  std::unique_ptr<surfdb::Simulation> sim;
  std::vector<double> y;  // the bodies' initial state, then the final one
  surfdb::RunSettings settings;
  bool ran = false;
  surfdb::RunHealth health;            // the run's, once it ran
  std::vector<std::string> messages;   // per warning: its line
};

namespace {

static_assert(static_cast<int>(surfdb::RunStatus::ok) == SURFDB_RUN_OK &&
              static_cast<int>(surfdb::RunStatus::warnings) == SURFDB_RUN_WARNINGS &&
              static_cast<int>(surfdb::RunStatus::failed) == SURFDB_RUN_FAILED);

using surfdb::capi::fail;
using surfdb::capi::guarded;

// Hands each output instant to the C callback.
class CallbackObserver : public surfdb::RunObserver {
 public:
  CallbackObserver(surfdb_output_callback output, void* user) : output_(output), user_(user) {}
  void output(const surfdb::Simulation& sim, double t, const double* y, double) override {
    if (output_) output_(user_, t, y, static_cast<int>(sim.model().bodies.size()));
  }

 private:
  surfdb_output_callback output_;
  void* user_;
};

}  // namespace

surfdb_status surfdb_simulation_open(const char* scenario, surfdb_simulation** out) {
  if (!scenario || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_open: null argument");
  *out = nullptr;
  try {
    surfdb::Scenario s = surfdb::load_scenario(scenario);
    auto handle = std::make_unique<surfdb_simulation>();
    handle->sim = surfdb::make_simulation(s);
    handle->y = std::move(s.initial_state);
    handle->settings = s.run;
    *out = handle.release();
    return SURFDB_OK;
  } catch (const surfdb::ScenarioError& e) {
    return fail(SURFDB_ERROR_SCENARIO, e.what());
  } catch (...) {
    return guarded([] { throw; });
  }
}

void surfdb_simulation_close(surfdb_simulation* sim) { delete sim; }

int surfdb_simulation_body_count(const surfdb_simulation* sim) {
  return sim ? static_cast<int>(sim->sim->model().bodies.size()) : 0;
}

int surfdb_simulation_contact_count(const surfdb_simulation* sim) {
  return sim ? static_cast<int>(sim->sim->contacts().size()) : 0;
}

surfdb_status surfdb_simulation_run(surfdb_simulation* sim, double end_time, surfdb_output_callback output,
                                    void* user, surfdb_run_summary* summary) {
  if (!sim) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: null simulation");
  if (sim->ran) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: this simulation has run; open it again");
  if (std::isnan(end_time)) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: end_time is NaN");
  return guarded([&] {
    surfdb::RunSettings settings = sim->settings;
    if (end_time > 0) settings.end_time = end_time;
    CallbackObserver observer(output, user);
    sim->ran = true;
    const surfdb::RunStatistics run = sim->sim->run(sim->y, settings, observer);
    sim->health = run.health;
    for (const surfdb::RunWarning& w : run.health.warnings()) sim->messages.push_back(run.health.describe(w));
    if (!summary) return;
    summary->end_time = run.end_time;
    summary->steps = run.steps;
    summary->rhs_evaluations = run.rhs_evaluations;
    summary->initial_energy = run.initial_energy;
    summary->final_energy = sim->sim->mechanical_energy(sim->y.data());
    summary->dissipated_energy = sim->sim->dissipated_energy(sim->y.data());
    summary->constraint_drift = run.constraint_drift;
    summary->run_status = static_cast<int>(run.health.status());
    summary->warning_count = static_cast<int>(run.health.warnings().size());
  });
}

surfdb_status surfdb_simulation_contact(const surfdb_simulation* sim, int index, surfdb_contact_summary* out) {
  if (!sim || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_contact: null argument");
  if (index < 0 || index >= surfdb_simulation_contact_count(sim))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_contact: no contact " + std::to_string(index));
  const surfdb::GroupStatistics& s = sim->sim->contacts()[static_cast<std::size_t>(index)].statistics();
  out->first_contact_time = std::isnan(s.first_contact_time) ? -1.0 : s.first_contact_time;
  out->max_indentation = s.max_indentation;
  out->impacts = s.impacts;
  out->solver_failures = static_cast<long long>(s.solver_failures);
  return SURFDB_OK;
}

surfdb_status surfdb_simulation_warning(const surfdb_simulation* sim, int index, surfdb_run_warning* out) {
  if (!sim || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_warning: null argument");
  const std::vector<surfdb::RunWarning>& warnings = sim->health.warnings();
  if (index < 0 || index >= static_cast<int>(warnings.size()))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_warning: no warning " + std::to_string(index) + " (the run has " +
                                           std::to_string(warnings.size()) + ")");
  const surfdb::RunWarning& w = warnings[static_cast<std::size_t>(index)];
  out->kind = surfdb::to_string(w.kind);
  out->subject = w.subject.c_str();
  out->count = w.count;
  out->first_time = w.first_time;
  out->worst = w.worst;
  out->message = sim->messages[static_cast<std::size_t>(index)].c_str();
  return SURFDB_OK;
}
