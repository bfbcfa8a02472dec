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

/// A point of a run to come back to exactly (restore(model, data, snapshot)): not a copy of the
/// run's memory (the integrator's history lives inside SUNDIALS, which cannot copy it) but how the
/// run got there: where it started (the model's initial state, or the last restore of a time and
/// a state), the states written into it between steps and how many steps it took. Restoring one
/// runs those steps again, so it costs the steps since that start.
struct Snapshot {
  std::shared_ptr<const Model> model;  // the model it belongs to (kept alive: compared by address)
  double time = 0;               // s, the run's time at the save
  bool from_initial = true;      // the run started from the model's initial state, else from:
  double origin_time = 0;        //   s
  std::vector<double> origin_state;
  struct Write {
    long step;                 // before this step (counted from the start)
    std::vector<double> state; // the state written
  };
  std::vector<Write> writes;
  struct Stop {
    long step;      // from this step on (counted from the start)
    double t_stop;  // s, the time its steps were not to pass
  };
  std::vector<Stop> stops;
  long steps = 0;  // accepted steps from the start
};

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
  RunObserver& observer() const { return *observer_; }

 private:
  friend bool step(const Model&, Data&);
  friend bool advance(const Model&, Data&, double);
  friend void reset(const Model&, Data&);
  friend void restore(const Model&, Data&, double, std::span<const double>);
  friend Snapshot save(const Model&, const Data&);
  friend void restore(const Model&, Data&, const Snapshot&);
  friend const RunStatistics& run(const Model&, Data&, RunObserver&);
  void start();
  bool step_once(double t_stop);  // one step, the state written since the last one journalled

  std::shared_ptr<const Model> model_;
  std::unique_ptr<Simulation> sim_;
  std::vector<double> y_;
  std::vector<InitialPenetration> touching_;
  std::unique_ptr<Stepper> stepper_;
  RunObserver* observer_;
  Snapshot journal_;  // how the run got where it is: what save() returns
  static constexpr std::size_t kJournalBytes = std::size_t{256} << 20;  // of states written by hand, at most
  std::size_t journal_bytes_ = 0;  // written since the start; beyond kJournalBytes none are kept
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

/// Where the run is now, to come back to with restore(model, data, snapshot); the run goes on
/// untouched. Allocates a copy of the journal: the states written into the run since its start
/// and the stop times its steps were given (one entry per change of advance()'s target). A Data
/// keeps a copy of each state written into it by hand for this, up to 256 MiB since its start
/// (reset() and restore() start it again); beyond that it keeps none and save() throws
/// std::invalid_argument saying so. Throws std::invalid_argument for a Data of another model.
Snapshot save(const Model& model, const Data& data);
/// Brings `data` (of the model the snapshot was saved from, this Data or another) back to the
/// snapshot: the run from its start again, the same steps and writes, so that the run on from
/// here is the one that went on from the save, bit for bit (states, contacts, statistics). Costs
/// the steps from the run's start (its t = 0 or its last restore of a time and a state) to the
/// save; observers see none of them. Throws std::invalid_argument for another model's snapshot.
void restore(const Model& model, Data& data, const Snapshot& snapshot);

/// Runs `data` to the model's end time with `observer` (for this run only): what `surfdb
/// simulate`, the C API and Python's simulate() do. Returns the statistics.
const RunStatistics& run(const Model& model, Data& data, RunObserver& observer);

}  // namespace surfdb
