// A simulation's model: everything a run reads and none changes (bodies, joints, drivers,
// springs, surfaces of every kind, contacts and their groups, surface joints, the initial state
// and the run's settings), compiled once from a scenario file (load_model, scenario.hpp) or built
// in code. Held as std::shared_ptr<const Model>, it is shared by any number of runs (Data,
// data.hpp), on any threads: its tables are mapped read-only, each run keeps its own windows.
#pragma once

#include <string>
#include <vector>

#include "surfdb/multibody/contact_group.hpp"
#include "surfdb/multibody/contact_surface.hpp"
#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb {

struct Model {
  std::string source;                      // the scenario file, for messages; empty when built in code
  MultibodyModel multibody;
  std::vector<double> initial_state;       // the bodies' (multibody_state.hpp's layout)
  std::vector<ContactSurface> surfaces;
  std::vector<ContactGroupSpec> contacts;  // one per [[contact]] entry
  Stabilisation stabilisation;             // the joints' Baumgarte gains
  RunSettings run;                         // integrator, step, end time, outputs, health limits
};

}  // namespace surfdb
