// Scenario files (TOML, docs/scenario.md): bodies, joints, surfaces, contacts, integrator and
// outputs of a simulation, read into the multibody layer's model, contact specifications and run
// settings. Errors name the file, the line and the field.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <stdexcept>
#include <vector>

#include "surfdb/multibody/contact_group.hpp"
#include "surfdb/multibody/model.hpp"
#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/multibody/simulation.hpp"
#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb {

class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Scenario {
  MultibodyModel model;
  std::vector<double> initial_state;  // bodies only, multibody_state.hpp's layout
  std::vector<ContactSurface> surfaces;
  std::vector<ContactGroupSpec> contacts;  // one per [[contact]] entry
  RunSettings run;
  Stabilisation stabilisation;  // the joints' Baumgarte gains ([simulation] stabilisation_gain)
};

/// Reads and checks a scenario; .sdb paths are relative to the scenario's folder. The overrides,
/// "PATH=VALUE" as `surfdb simulate --set` takes them (docs/commands.md), change the file's values
/// in order before it is checked. Throws ScenarioError (an override's errors name it).
Scenario load_scenario(const std::filesystem::path& path, std::span<const std::string> overrides = {});
/// Whether messages cite the line of a scenario's text: a text written by hand has lines worth
/// citing; one generated from other data (Python's dict) does not, and its messages name the field alone.
enum class LineNumbers { cite, omit };

/// A scenario given as TOML text rather than a file (built in code, by a script): `source` names
/// it in messages, its tables' and meshes' paths are relative to `folder`. As load_scenario
/// otherwise.
Scenario parse_scenario(std::string_view text, const std::string& source, const std::filesystem::path& folder,
                        std::span<const std::string> overrides = {}, LineNumbers lines = LineNumbers::cite);

/// The kind of value a scenario key holds.
struct ScenarioValueKind {
  enum Type { number, boolean, string, vector, other } type = number;
  std::size_t size = 0;  // of a vector (of numbers)
};

/// The kind of the value `path` names in the scenario file `scenario`, or nothing when the file
/// leaves that key out. The path is `--set`'s (`simulation.KEY` or `TABLE.NAME.KEY`), checked as
/// `--set` checks it; throws ScenarioError, naming the file, for a malformed path, an unknown table
/// or key, or a missing entry.
std::optional<ScenarioValueKind> scenario_value_kind(const std::filesystem::path& scenario, const std::string& path);

/// The scenario as a model (model.hpp), its parts moved in; `source` names it in messages.
/// Adjust its run settings before sharing it as std::shared_ptr<const Model>.
std::shared_ptr<Model> make_model(Scenario scenario, std::string source);
/// load_scenario(path, overrides) as a model.
std::shared_ptr<Model> load_model(const std::filesystem::path& path, std::span<const std::string> overrides = {});
/// parse_scenario(text, source, folder, overrides, lines) as a model.
std::shared_ptr<Model> parse_model(std::string_view text, const std::string& source, const std::filesystem::path& folder,
                                   std::span<const std::string> overrides = {}, LineNumbers lines = LineNumbers::cite);

/// The scenario's simulation: its model, surfaces and contacts moved in (the scenario keeps its
/// initial state and run settings), each fixed pair set up (free-form windows, node trees).
std::unique_ptr<Simulation> make_simulation(Scenario& scenario);

}  // namespace surfdb
