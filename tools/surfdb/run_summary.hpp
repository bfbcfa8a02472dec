// summary.json of a run (docs/commands.md): its status and warnings, steps, CPU time, each contact's first contact,
// impacts, indentation and solver failures, each surface joint's figures, the energy balance,
// the constraint drift and the memory used.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "surfdb/multibody/simulation.hpp"
#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb::cli {

/// The run's warnings as summary.json lists them: kind, subject, count, first_time (s), worst
/// (the kind's magnitude) and the line `simulate` prints.
nlohmann::ordered_json health_summary(const RunHealth& health);

/// Writes the summary of a run that ended in state `y` atomically; the keys of `extra` (an
/// object, e.g. a sweep's record of its case) are added after the run's own.
void write_summary(const std::filesystem::path& file, const Simulation& sim, const RunStatistics& run,
                   const std::vector<double>& y, const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());

}  // namespace surfdb::cli
