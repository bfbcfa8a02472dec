// OUTDIR/results.csv of a sweep: one row per case, in case order, from the cases' files, so the
// same cases give the same bytes whichever process ran them (only the timing columns,
// setup_cpu_seconds and cpu_seconds, differ from run to run).
#pragma once

#include <filesystem>
#include <vector>

#include "sweep_file.hpp"

namespace surfdb::cli {

/// The columns after the case id and the parameters.
extern const std::vector<std::string> kResultColumns;

/// Writes OUTDIR/results.csv atomically; a case not finished gets status "not_run". Returns the
/// number of failed cases.
std::size_t write_results(const SweepPlan& plan, const std::filesystem::path& outdir);

}  // namespace surfdb::cli
