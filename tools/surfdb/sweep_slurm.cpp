#include "sweep_slurm.hpp"

#include <system_error>

namespace surfdb::cli {
namespace {

// A path as one word of a shell command.
std::string quoted(const std::filesystem::path& p) {
  std::string out = "'";
  for (const char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::filesystem::path this_program() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("surfdb") : exe;
}

}  // namespace

std::string slurm_script(const std::filesystem::path& sweep, const std::filesystem::path& outdir, const SlurmJob& job) {
  const std::filesystem::path out = std::filesystem::absolute(outdir);
  std::string s = "#!/bin/bash\n";
  s += "# A parameter sweep as one MPI job, written by `surfdb sweep --emit-slurm` (docs/sweeps.md).\n";
  s += "# Submit it as is: sbatch " + quoted(out / "sweep.sbatch") + "\n";
  s += "# Rank 0 deals the cases to the ranks one at a time. Resubmitted after a time limit or a\n";
  s += "# failure, it runs only the cases not finished: finished cases are kept.\n";
  s += "#SBATCH --job-name=surfdb-sweep\n";
  s += "#SBATCH --nodes=" + std::to_string(job.nodes) + "\n";
  s += "#SBATCH --ntasks-per-node=" + std::to_string(job.tasks_per_node) + "\n";
  s += "#SBATCH --cpus-per-task=1\n";
  s += "#SBATCH --time=" + job.time_limit + "\n";
  s += "#SBATCH --output=" + out.string() + "/slurm-%j.out\n";
  s += "set -euo pipefail\n";
  s += "# One thread per rank: the cases are the parallelism.\n";
  s += "export OMP_NUM_THREADS=1\n";
  s += "mpirun " + quoted(this_program()) + " sweep " + quoted(std::filesystem::absolute(sweep)) + " -o " + quoted(out) +
       (job.time_series ? " --time-series" : "") + "\n";
  return s;
}

}  // namespace surfdb::cli
