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

// Lends a data an observer for a while: its own comes back after, thrown or not.
class ObserverFor {
 public:
  ObserverFor(Data& data, RunObserver& observer) : data_(data), own_(data.observer()) { data.set_observer(observer); }
  ~ObserverFor() { data_.set_observer(own_); }
  ObserverFor(const ObserverFor&) = delete;
  ObserverFor& operator=(const ObserverFor&) = delete;

 private:
  Data& data_;
  RunObserver& own_;
};

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
  journal_ = Snapshot{};
  journal_.model = model_;
  journal_bytes_ = 0;
}

bool Data::step_once(double t_stop) {
  if (stepper_->state_written() && journal_bytes_ <= kJournalBytes) {
    journal_bytes_ += y_.size() * sizeof(double);
    if (journal_bytes_ <= kJournalBytes) journal_.writes.push_back({journal_.steps, y_});
    else std::vector<Snapshot::Write>().swap(journal_.writes);  // save() says so; the run goes on
  }
  std::vector<Snapshot::Stop>& stops = journal_.stops;
  if (!stops.empty() && stops.back().step == journal_.steps) stops.back().t_stop = t_stop;  // after a failed step
  else if (stops.empty() || stops.back().t_stop != t_stop) stops.push_back({journal_.steps, t_stop});
  if (!stepper_->step(t_stop)) return false;
  ++journal_.steps;
  return true;
}

void Data::set_observer(RunObserver& observer) {
  observer_ = &observer;
  stepper_->set_observer(observer);
}

bool step(const Model& model, Data& data) {
  check_model(model, data, "step");
  return data.step_once(stop_after(data.time(), model.run.end_time));
}

bool advance(const Model& model, Data& data, double t) {
  check_model(model, data, "advance");
  if (std::isnan(t)) throw std::invalid_argument("advance: the time is NaN");
  while (!data.stepper_->reached(t))
    if (!data.step_once(t)) return false;
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
  data.journal_.from_initial = false;
  data.journal_.origin_time = t;
  data.journal_.origin_state.assign(state.begin(), state.end());
}

Snapshot save(const Model& model, const Data& data) {
  check_model(model, data, "save");
  if (data.journal_bytes_ > Data::kJournalBytes)
    throw std::invalid_argument("save: more than " + std::to_string(Data::kJournalBytes >> 20) +
                             " MiB of states were written into this run by hand since its start, and a snapshot "
                             "keeps a copy of each: restore(model, data, time, state) starts the run afresh from a "
                             "state, a start that save() can return to");
  Snapshot s = data.journal_;
  s.time = data.time();
  if (data.stepper_->state_written()) s.writes.push_back({s.steps, data.y_});
  return s;
}

void restore(const Model& model, Data& data, const Snapshot& snapshot) {
  check_model(model, data, "restore");
  if (snapshot.model.get() != &model) throw std::invalid_argument("restore: the snapshot was saved from another model");
  if (snapshot.from_initial)
    data.start();
  else
    restore(model, data, snapshot.origin_time, snapshot.origin_state);
  // The steps again, unseen: an observer's outputs are the run's, already given.
  const ObserverFor unseen(data, no_observer());
  std::size_t w = 0, s = 0;
  double t_stop = model.run.end_time;
  for (long k = 0; k <= snapshot.steps; ++k) {
    for (; w < snapshot.writes.size() && snapshot.writes[w].step == k; ++w)
      std::copy(snapshot.writes[w].state.begin(), snapshot.writes[w].state.end(), data.y_.begin());
    for (; s < snapshot.stops.size() && snapshot.stops[s].step == k; ++s) t_stop = snapshot.stops[s].t_stop;
    if (k < snapshot.steps && !data.step_once(t_stop)) break;
  }
}

const RunStatistics& run(const Model& model, Data& data, RunObserver& observer) {
  const ObserverFor this_run(data, observer);
  data.stepper_->begin();
  advance(model, data, model.run.end_time);
  return data.statistics();
}

}  // namespace surfdb
