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

struct SweepTally {
  std::size_t failed = 0;    // cases that failed or did not run
  std::size_t warnings = 0;  // cases that ran with warnings
};

/// Writes OUTDIR/results.csv atomically; each case's status is its run's (ok, warnings, failed),
/// "failed" too when it could not run, "not_run" when it has not finished. Returns the counts.
SweepTally write_results(const SweepPlan& plan, const std::filesystem::path& outdir);

}  // namespace surfdb::cli
