// One run of a Model (model.hpp): the state, the simulation's contact pairs with their storage
// windows and warm starts, statistics and health, the integrator and every scratch buffer,
// allocated when made. Any number of Data per Model, each stepped on one thread at a time;
// distinct Data on distinct threads. The stepping functions take the model first, as MuJoCo's
// mj_step(m, d) does, and refuse a Data made from another model.
//
//   auto model = surfdb::load_model("scene.toml");
//   surfdb::Data data(model);
//   while (data.time() < 0.1) surfdb::step(*model, data);
//
// The state vector (state(): per body 13 numbers, multibody_state.hpp, then the contacts'
// dissipated energies and the five-equation surface joints' parameters: simulation.hpp) may be
// written between steps: the next step restarts the integrator from it (stepper.hpp). Its storage
// never moves while the Data lives, reset() included.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "surfdb/multibody/initial_penetration.hpp"
#include "surfdb/multibody/model.hpp"
#include "surfdb/multibody/simulation.hpp"
#include "surfdb/multibody/stepper.hpp"

namespace surfdb {

class Data {
 public:
  /// The model's run at its initial state and t = 0, after the initial checks: surface joints
  /// touching and independent, no surfaces inside each other beyond their tolerance
  /// (initial_penetration.hpp; shallower ones are listed by initial_penetrations()). Throws
  /// std::invalid_argument (settings, surface joints) or InitialPenetrationError, each naming the
  /// model's source.
  explicit Data(std::shared_ptr<const Model> model);
  Data(const Data&) = delete;
  Data& operator=(const Data&) = delete;

  const Model& model() const { return *model_; }
  const std::shared_ptr<const Model>& shared_model() const { return model_; }
  double time() const { return stepper_->time(); }
  /// The whole state (see above); written between steps, it is where the next step starts.
  std::vector<double>& state() { return y_; }
  const std::vector<double>& state() const { return y_; }
  const Simulation& simulation() const { return *sim_; }
  /// The run so far: steps, evaluations, health (its status and warnings), end_time the time reached.
  const RunStatistics& statistics() { return stepper_->statistics(); }
  /// Contacts touching at t = 0 within their tolerance.
  const std::vector<InitialPenetration>& initial_penetrations() const { return touching_; }
  /// Kinetic + gravitational + springs' + elastic contact energy at the last accepted state, J.
  double mechanical_energy() const { return sim_->mechanical_energy(y_.data()); }
  /// Energy dissipated by the contacts so far, J.
  double dissipated_energy() const { return sim_->dissipated_energy(y_.data()); }
  /// Where outputs go (time series, animation): from the initial state on when set before the
  /// first step; kept by reset(). It must outlive the Data, or be replaced.
  void set_observer(RunObserver& observer);

 private:
  friend bool step(const Model&, Data&);
  friend bool advance(const Model&, Data&, double);
  friend void reset(const Model&, Data&);
  friend void restore(const Model&, Data&, double, std::span<const double>);
  friend const RunStatistics& run(const Model&, Data&, RunObserver&);
  void start();

  std::shared_ptr<const Model> model_;
  std::unique_ptr<Simulation> sim_;
  std::vector<double> y_;
  std::vector<InitialPenetration> touching_;
  std::unique_ptr<Stepper> stepper_;
  RunObserver* observer_;
};

/// One step of the model's integrator: the fixed step, or the variable-step integrator's own
/// step toward the model's end time (past it, toward the next multiple of it). Returns false,
/// nothing changed, when the run cannot go on (statistics().health says why: the integrator gave
/// up, the state turned NaN). Throws std::invalid_argument for a Data of another model.
bool step(const Model& model, Data& data);
/// Steps until time t (s): the fixed steps up to round(t / step), the variable-step integrator's
/// own steps stopping at t. Returns false when the run stopped before t.
bool advance(const Model& model, Data& data, double t);
/// Back to the initial state at t = 0, statistics and contacts' memories cleared: the run that
/// follows is the first one's, bit for bit.
void reset(const Model& model, Data& data);

/// Starts the run afresh from time t (s) and `state` (the whole state vector, as state() gave
/// it): as reset(), then the state and the time set. The contacts' memories (warm starts, impact
/// latches, storage windows) and the statistics start afresh there too, so that a state restored
/// twice runs on bit for bit alike. Throws std::invalid_argument for a state of another size or a
/// time that is not finite and non-negative.
void restore(const Model& model, Data& data, double t, std::span<const double> state);

/// Runs `data` to the model's end time with `observer` (for this run only): what `surfdb
/// simulate`, the C API and Python's simulate() do. Returns the statistics.
const RunStatistics& run(const Model& model, Data& data, RunObserver& observer);

}  // namespace surfdb
