// summary.json of a run (docs/commands.md): steps, CPU time, each contact's first contact,
// impacts, indentation and solver failures, each surface joint's figures, the energy balance,
// the constraint drift and the memory used.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "surfdb/multibody/simulation.hpp"
#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb::cli {

/// Writes the summary of a run that ended in state `y` atomically; the keys of `extra` (an
/// object, e.g. a sweep's record of its case) are added after the run's own.
void write_summary(const std::filesystem::path& file, const Simulation& sim, const RunStatistics& run,
                   const std::vector<double>& y, const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());

}  // namespace surfdb::cli
