// surfdb/simulation.h over the library's run of a model (data.hpp): a scenario read into a
// model, run once to its end time by a Data.
#include "surfdb/simulation.h"

#include <cmath>
#include <memory>
#include <vector>

#include "c_errors.hpp"
#include "c_run.hpp"

struct surfdb_simulation {
  std::shared_ptr<const surfdb::Model> model;
  std::unique_ptr<surfdb::Data> data;  // the run: made at open (the initial checks), run once
  bool ran = false;
  mutable std::vector<std::string> messages;  // per warning: its line
};

namespace {

using surfdb::capi::fail;
using surfdb::capi::guarded;
using surfdb::capi::scenario_guarded;

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
  return scenario_guarded([&] {
    auto handle = std::make_unique<surfdb_simulation>();
    handle->model = surfdb::load_model(scenario);
    handle->data = std::make_unique<surfdb::Data>(handle->model);
    *out = handle.release();
  });
}

void surfdb_simulation_close(surfdb_simulation* sim) { delete sim; }

int surfdb_simulation_body_count(const surfdb_simulation* sim) {
  return sim ? static_cast<int>(sim->model->multibody.bodies.size()) : 0;
}

int surfdb_simulation_contact_count(const surfdb_simulation* sim) {
  return sim ? static_cast<int>(sim->model->contacts.size()) : 0;
}

surfdb_status surfdb_simulation_run(surfdb_simulation* sim, double end_time, surfdb_output_callback output,
                                    void* user, surfdb_run_summary* summary) {
  if (!sim) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: null simulation");
  if (sim->ran) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: this simulation has run; open it again");
  if (std::isnan(end_time)) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_run: end_time is NaN");
  return guarded([&] {
    sim->ran = true;
    if (end_time > 0 && end_time != sim->model->run.end_time) {
      auto model = std::make_shared<surfdb::Model>(*sim->model);
      model->run.end_time = end_time;
      sim->model = std::move(model);
      sim->data = std::make_unique<surfdb::Data>(sim->model);
    }
    CallbackObserver observer(output, user);
    surfdb::run(*sim->model, *sim->data, observer);
    if (summary) surfdb::capi::fill_summary(*sim->data, summary);
  });
}

surfdb_status surfdb_simulation_contact(const surfdb_simulation* sim, int index, surfdb_contact_summary* out) {
  if (!sim || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_contact: null argument");
  return surfdb::capi::fill_contact(*sim->data, index, out, "surfdb_simulation_contact");
}

surfdb_status surfdb_simulation_warning(const surfdb_simulation* sim, int index, surfdb_run_warning* out) {
  if (!sim || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_simulation_warning: null argument");
  return surfdb::capi::fill_warning(*sim->data, index, sim->messages, out, "surfdb_simulation_warning");
}
