// Running one scenario into an output directory: what `surfdb simulate` does and what each case
// of `surfdb sweep` does, so both write the same files from the same code.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/multibody/simulation_run.hpp"

namespace surfdb::cli {

struct ScenarioJob {
  std::filesystem::path scenario;
  std::vector<std::string> overrides;      // PATH=VALUE, as `simulate --set` takes them, in order
  std::optional<double> end_time;          // s, replaces the scenario's
  std::optional<double> output_interval;   // s, replaces the scenario's
  std::filesystem::path output;            // directory, made when missing
  bool time_series = true;                 // write OUTDIR/time_series.csv
  bool progress = false;                   // a progress bar while it runs (on a terminal)
  bool animation = false;                  // OUTDIR/animation.pvd and OUTDIR/animation/
  double animation_interval = 0;           // s, 0: every output instant
  std::uint64_t max_output_bytes = UINT64_MAX;  // the time series may take at most this (and the free space)
  nlohmann::ordered_json summary_extra = nlohmann::ordered_json::object();  // added to summary.json
};

struct ScenarioOutcome {
  RunStatistics stats;            // cpu_seconds: this thread's CPU time in the run
  double end_time = 0;            // s, as asked
  double setup_cpu_seconds = 0;   // this thread's CPU time before the run: reading, mapping tables, trees
  std::uint64_t animation_frames = 0;
  std::filesystem::path animation_collection;  // the .pvd, with --animation
};

/// Reads the scenario (its overrides applied), checks the bodies' initial placement and the time
/// series' estimated size, runs it and writes OUTDIR/time_series.csv (on request), summary.json
/// last, whatever the run's status (stats.health). Each file is written atomically, so a summary
/// that exists belongs to a finished run. Throws with a one-line message.
ScenarioOutcome run_scenario(const ScenarioJob& job);

/// CPU seconds this thread has used (cases of a sweep run side by side on threads).
double thread_cpu_seconds();

}  // namespace surfdb::cli
