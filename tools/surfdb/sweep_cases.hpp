// One case of a sweep on disk: OUTDIR/cases/ID/ holds what `surfdb simulate` writes
// (summary.json last, each file atomically) or, when the case failed, error.json with the message.
// Either file records the case (id, parameters, key); a case is finished when one of them parses
// and holds the key of the case as the sweep file now gives it, so a restarted sweep skips it and a
// changed sweep file or base scenario runs it again.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "sweep_file.hpp"

namespace surfdb::cli {

std::filesystem::path case_directory(const std::filesystem::path& outdir, const SweepCase& c);

/// The case's record as it finished: summary.json (its run's "status": ok, warnings or failed) or
/// error.json (the case could not run: "status" failed), when it verifies; nullopt when the case has not finished (or finished for another sweep).
std::optional<nlohmann::json> finished_case(const std::filesystem::path& outdir, const SweepCase& c);

/// Runs case `k` of the plan into its directory; the case's own failure (a bad value, a solver
/// that gives up) is written to error.json, not thrown. `time_series`: also write time_series.csv.
void run_case(const SweepPlan& plan, std::size_t k, const std::filesystem::path& outdir, bool time_series);

}  // namespace surfdb::cli
