// Scenario files (TOML, docs/scenario.md): bodies, joints, surfaces, contacts, integrator and
// outputs of a simulation, read into the runtime's model and contact pairs. Errors name the file,
// the line and the field.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "surfdb/runtime/contact_pair.hpp"
#include "surfdb/runtime/integrator_cvode.hpp"
#include "surfdb/runtime/multibody_model.hpp"

namespace surfdb::cli {

class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class IntegratorKind { ab4, rk4, adams, bdf };  // fixed step: ab4, rk4; CVODE: adams, bdf

struct ScenarioContact {
  std::string surface_i, surface_j;  // names, for outputs
};

struct Scenario {
  MultibodyModel model;
  std::vector<double> initial_state;  // bodies only, multibody_state.hpp's layout
  std::vector<ContactPair> pairs;
  std::vector<ScenarioContact> contact_surfaces;  // parallel to pairs
  IntegratorKind integrator = IntegratorKind::adams;
  double step = 1e-6;  // s, ab4 and rk4
  CvodeOptions cvode;
  double end_time = 0.1;         // s
  double output_interval = 1e-4;  // s
};

/// Reads and checks a scenario; .sdb paths are relative to the scenario's folder.
/// Throws ScenarioError.
Scenario load_scenario(const std::filesystem::path& path);

}  // namespace surfdb::cli
