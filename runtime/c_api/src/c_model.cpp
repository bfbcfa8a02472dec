// surfdb/model.h over the library's Model, Data and stepping functions (data.hpp).
#include "surfdb/model.h"

#include <cmath>
#include <memory>

#include "c_errors.hpp"
#include "c_run.hpp"
#include "surfdb/multibody/contact_points.hpp"
#include "surfdb/scenario/scenario.hpp"

struct surfdb_model {
  std::shared_ptr<const surfdb::Model> model;
};

struct surfdb_snapshot {
  surfdb::Snapshot snapshot;
};

struct surfdb_data {
  std::unique_ptr<surfdb::Data> data;
  std::vector<surfdb::ContactPoint> points;  // scratch of surfdb_data_contact_points
  std::vector<std::string> messages;         // the warnings' lines
};


namespace {

using surfdb::capi::fail;
using surfdb::capi::guarded;
using surfdb::capi::scenario_guarded;

// A model and a data of it, or the status saying which is missing or foreign.
surfdb_status check_pair(const surfdb_model* model, const surfdb_data* data, const char* call) {
  if (!model || !data) return fail(SURFDB_ERROR_ARGUMENT, std::string(call) + ": null model or data");
  if (data->data->shared_model() != model->model)
    return fail(SURFDB_ERROR_ARGUMENT, std::string(call) + ": the data was made from another model");
  return SURFDB_OK;
}

}  // namespace

surfdb_status surfdb_model_open(const char* scenario, const char* const* overrides, int override_count, surfdb_model** out) {
  if (!scenario || !out || override_count < 0 || (override_count > 0 && !overrides))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_model_open: null argument or negative override count");
  *out = nullptr;
  return scenario_guarded([&] {
    std::vector<std::string> set;
    for (int k = 0; k < override_count; ++k) {
      if (!overrides[k]) throw std::invalid_argument("surfdb_model_open: override " + std::to_string(k) + " is null");
      set.emplace_back(overrides[k]);
    }
    *out = new surfdb_model{surfdb::load_model(scenario, set)};
  });
}

void surfdb_model_close(surfdb_model* model) { delete model; }

int surfdb_model_body_count(const surfdb_model* model) {
  return model ? static_cast<int>(model->model->multibody.bodies.size()) : 0;
}

int surfdb_model_contact_count(const surfdb_model* model) {
  return model ? static_cast<int>(model->model->contacts.size()) : 0;
}

const char* surfdb_model_body_name(const surfdb_model* model, int index) {
  if (!model || index < 0 || index >= surfdb_model_body_count(model)) return nullptr;
  return model->model->multibody.bodies[static_cast<std::size_t>(index)].name.c_str();
}

double surfdb_model_end_time(const surfdb_model* model) { return model ? model->model->run.end_time : 0.0; }

surfdb_status surfdb_data_make(const surfdb_model* model, surfdb_data** out) {
  if (!model || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_make: null argument");
  *out = nullptr;
  return scenario_guarded([&] { *out = new surfdb_data{std::make_unique<surfdb::Data>(model->model), {}, {}}; });
}

void surfdb_data_close(surfdb_data* data) { delete data; }

double surfdb_data_time(const surfdb_data* data) { return data ? data->data->time() : 0.0; }

int surfdb_data_state_size(const surfdb_data* data) { return data ? static_cast<int>(data->data->state().size()) : 0; }

surfdb_status surfdb_data_get_state(const surfdb_data* data, double* state, int size) {
  if (!data || !state) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_get_state: null argument");
  const std::vector<double>& y = data->data->state();
  if (size < static_cast<int>(y.size()))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_get_state: room for " + std::to_string(size) + " numbers, the state has " +
                                           std::to_string(y.size()));
  std::copy(y.begin(), y.end(), state);
  return SURFDB_OK;
}

surfdb_status surfdb_data_set_state(surfdb_data* data, const double* state, int size) {
  if (!data || !state) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_set_state: null argument");
  std::vector<double>& y = data->data->state();
  if (size != static_cast<int>(y.size()))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_set_state: " + std::to_string(size) + " numbers, the state has " +
                                           std::to_string(y.size()));
  std::copy(state, state + size, y.begin());
  return SURFDB_OK;
}

surfdb_status surfdb_step(const surfdb_model* model, surfdb_data* data) {
  if (const surfdb_status s = check_pair(model, data, "surfdb_step")) return s;
  return guarded([&] { surfdb::step(*model->model, *data->data); });
}

surfdb_status surfdb_advance(const surfdb_model* model, surfdb_data* data, double t) {
  if (const surfdb_status s = check_pair(model, data, "surfdb_advance")) return s;
  if (std::isnan(t)) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_advance: t is NaN");
  return guarded([&] { surfdb::advance(*model->model, *data->data, t); });
}

surfdb_status surfdb_reset(const surfdb_model* model, surfdb_data* data) {
  if (const surfdb_status s = check_pair(model, data, "surfdb_reset")) return s;
  return guarded([&] { surfdb::reset(*model->model, *data->data); });
}

surfdb_status surfdb_restore(const surfdb_model* model, surfdb_data* data, double t, const double* state, int size) {
  if (const surfdb_status s = check_pair(model, data, "surfdb_restore")) return s;
  if (!state || size < 0) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_restore: null state");
  return guarded([&] { surfdb::restore(*model->model, *data->data, t, {state, static_cast<std::size_t>(size)}); });
}

surfdb_status surfdb_save(const surfdb_model* model, const surfdb_data* data, surfdb_snapshot** out) {
  if (!out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_save: null argument");
  *out = nullptr;
  if (const surfdb_status s = check_pair(model, data, "surfdb_save")) return s;
  return guarded([&] { *out = new surfdb_snapshot{surfdb::save(*model->model, *data->data)}; });
}

surfdb_status surfdb_restore_snapshot(const surfdb_model* model, surfdb_data* data, const surfdb_snapshot* snapshot) {
  if (const surfdb_status s = check_pair(model, data, "surfdb_restore_snapshot")) return s;
  if (!snapshot) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_restore_snapshot: null snapshot");
  return guarded([&] { surfdb::restore(*model->model, *data->data, snapshot->snapshot); });
}

double surfdb_snapshot_time(const surfdb_snapshot* snapshot) { return snapshot ? snapshot->snapshot.time : 0.0; }

void surfdb_snapshot_close(surfdb_snapshot* snapshot) { delete snapshot; }

surfdb_status surfdb_data_summary(surfdb_data* data, surfdb_run_summary* out) {
  if (!data || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_summary: null argument");
  surfdb::capi::fill_summary(*data->data, out);
  return SURFDB_OK;
}

surfdb_status surfdb_data_warning(surfdb_data* data, int index, surfdb_run_warning* out) {
  if (!data || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_warning: null argument");
  return surfdb::capi::fill_warning(*data->data, index, data->messages, out, "surfdb_data_warning");
}

surfdb_status surfdb_data_contact(const surfdb_data* data, int index, surfdb_contact_summary* out) {
  if (!data || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_contact: null argument");
  return surfdb::capi::fill_contact(*data->data, index, out, "surfdb_data_contact");
}

surfdb_status surfdb_data_contact_points(surfdb_data* data, surfdb_contact_point* points, int capacity, int* count) {
  if (!data || !count || capacity < 0 || (capacity > 0 && !points))
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_data_contact_points: null argument or negative capacity");
  return guarded([&] {
    surfdb::active_contact_points(data->data->simulation(), data->points);
    *count = static_cast<int>(data->points.size());
    for (int k = 0; k < std::min(capacity, *count); ++k) {
      const surfdb::ContactPoint& p = data->points[static_cast<std::size_t>(k)];
      surfdb_contact_point& c = points[k];
      c.contact = p.contact;
      c.indentation = p.indentation;
      for (int a = 0; a < 3; ++a) c.point[a] = p.point[a], c.normal[a] = p.normal[a], c.force[a] = p.force[a];
    }
  });
}
