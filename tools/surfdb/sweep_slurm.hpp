// `surfdb sweep SWEEP.toml -o OUTDIR --emit-slurm`: a Slurm batch script that runs the sweep as
// one MPI job (docs/sweeps.md). Resubmitted after a time limit or a failure, it finishes the cases
// left, since a sweep skips the cases it finished before.
#pragma once

#include <filesystem>
#include <string>

namespace surfdb::cli {

struct SlurmJob {
  unsigned nodes = 1;
  unsigned tasks_per_node = 32;
  std::string time_limit = "01:00:00";  // Slurm's --time
  bool time_series = false;
};

/// The script's text: absolute paths to this surfdb, the sweep file and OUTDIR.
std::string slurm_script(const std::filesystem::path& sweep, const std::filesystem::path& outdir, const SlurmJob& job);

}  // namespace surfdb::cli
