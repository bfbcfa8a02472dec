#include "surfdb/multibody/data.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <stdexcept>

namespace surfdb {
namespace {

// Receives nothing: a Data stepped by hand reads its state itself.
RunObserver& no_observer() {
  static RunObserver none;
  return none;
}

void check_model(const Model& model, const Data& data, const char* call) {
  if (&data.model() != &model)
    throw std::invalid_argument(std::string(call) + ": the data was made from another model");
}

// Where a variable-step integrator's step may stop: the model's end time, past it the next
// multiple of it (its steps never stop at t itself).
double stop_after(double t, double end_time) {
  return t < end_time ? end_time : end_time * (std::floor(t / end_time) + 1);
}

}  // namespace

Data::Data(std::shared_ptr<const Model> model) : model_(std::move(model)), observer_(&no_observer()) {
  if (!model_) throw std::invalid_argument("Data: no model");
  start();
}

// The scenario's checks in the command's order: the surface joints at the given state, the
// initial penetration, then the stepper's own (welded bodies placed, surface joints started).
void Data::start() {
  const Model& m = *model_;
  stepper_.reset();
  sim_ = std::make_unique<Simulation>(model_);
  y_.assign(m.initial_state.begin(), m.initial_state.end());
  y_.resize(static_cast<std::size_t>(sim_->size()), 0.0);
  sim_->check_surface_joints(y_.data());
  try {
    touching_ = check_initial_penetration(*sim_, y_.data());
  } catch (const InitialPenetrationError& e) {
    if (m.source.empty()) throw;
    throw InitialPenetrationError(m.source + ": " + e.what());  // the file whose bodies are misplaced
  }
  stepper_ = std::make_unique<Stepper>(*sim_, y_, m.run, *observer_);
}

void Data::set_observer(RunObserver& observer) {
  observer_ = &observer;
  stepper_->set_observer(observer);
}

bool step(const Model& model, Data& data) {
  check_model(model, data, "step");
  return data.stepper_->step(stop_after(data.time(), model.run.end_time));
}

bool advance(const Model& model, Data& data, double t) {
  check_model(model, data, "advance");
  if (std::isnan(t)) throw std::invalid_argument("advance: the time is NaN");
  Stepper& s = *data.stepper_;
  while (!s.reached(t))
    if (!s.step(t)) return false;
  return true;
}

void reset(const Model& model, Data& data) {
  check_model(model, data, "reset");
  data.start();
}

void restore(const Model& model, Data& data, double t, std::span<const double> state) {
  check_model(model, data, "restore");
  if (state.size() != data.y_.size())
    throw std::invalid_argument("restore: the state has " + std::to_string(state.size()) + " numbers, the model's " +
                                std::to_string(data.y_.size()));
  if (!(t >= 0) || !std::isfinite(t)) throw std::invalid_argument("restore: the time must be finite and >= 0");
  data.start();
  std::copy(state.begin(), state.end(), data.y_.begin());
  data.stepper_->restart(t);
}

const RunStatistics& run(const Model& model, Data& data, RunObserver& observer) {
  // The observer serves this run only: the data's own comes back after it, thrown or not.
  struct Restore {
    Data& data;
    RunObserver& previous;
    ~Restore() { data.set_observer(previous); }
  } restore{data, *data.observer_};
  data.set_observer(observer);
  data.stepper_->begin();
  advance(model, data, model.run.end_time);
  return data.statistics();
}

}  // namespace surfdb
