// surfdb sweep: run a scenario for every combination of parameter values a sweep file gives, on
// the local cores or under mpirun on many nodes; resumable; results.csv in case order.
#include <CLI/CLI.hpp>

#include <chrono>
#include <thread>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "log.hpp"
#include "mpi_session.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "sweep_cases.hpp"
#include "sweep_file.hpp"
#include "sweep_results.hpp"
#include "sweep_slurm.hpp"

namespace surfdb::cli {
namespace {

struct SweepArgs {
  std::string sweep, output;
  unsigned jobs = 0;  // local threads, 0: every core
  bool time_series = false, emit_slurm = false, quiet = false, strict = false;
  SlurmJob slurm;
};

// Cases done of the total, time elapsed and left, on rank 0's standard error: one line at most
// every few seconds, so a batch job's log stays short.
class SweepProgress {
 public:
  SweepProgress(std::size_t to_run, std::size_t total, bool shown)
      : to_run_(to_run), total_(total), shown_(shown), start_(Clock::now()), last_(start_) {}

  void case_done() {
    ++done_;
    const auto now = Clock::now();
    if (!shown_ || (now - last_ < kInterval && done_ != to_run_)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double left = elapsed * static_cast<double>(to_run_ - done_) / static_cast<double>(done_);
    spdlog::info("sweep: {}/{} cases done, {:.1f} s elapsed, about {:.0f} s left", total_ - to_run_ + done_, total_,
                 elapsed, left);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kInterval{2};
  std::size_t to_run_, total_, done_ = 0;
  bool shown_;
  Clock::time_point start_, last_;
};

// Seconds rank 0 waits at most for the cases' files to appear on a network file system.
constexpr int kSightings = 60;

void make_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "cases", ec);
  if (!std::filesystem::is_directory(dir / "cases"))
    throw std::runtime_error("cannot create output directory " + dir.string() + ": " +
                             (ec ? ec.message() : "a file of that name exists"));
}

void emit_slurm(const SweepArgs& a) {
  const std::filesystem::path out = a.output;
  make_directory(out);
  AtomicFile script(out / "sweep.sbatch");
  std::fputs(slurm_script(a.sweep, out, a.slurm).c_str(), script.get());
  script.commit();
  std::filesystem::permissions(out / "sweep.sbatch", std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  spdlog::info("wrote {}: submit it with sbatch", (out / "sweep.sbatch").string());
}

// The cases not finished before (rank 0 reads the case directories); with time series asked for,
// also the finished cases that ran without one.
std::vector<std::size_t> pending_cases(const SweepPlan& plan, const std::filesystem::path& outdir, bool time_series) {
  std::vector<std::size_t> pending;
  for (std::size_t k = 0; k < plan.cases.size(); ++k) {
    const std::optional<nlohmann::json> done = finished_case(outdir, plan.cases[k]);
    const bool series_missing = time_series && done && (*done)["status"] == "ok" &&
                                !std::filesystem::exists(case_directory(outdir, plan.cases[k]) / "time_series.csv");
    if (!done || series_missing) pending.push_back(k);
  }
  return pending;
}

// Waits (up to a minute) until rank 0 sees the files of every case the ranks reported finished: a
// network file system may keep, for its attribute-cache time, rank 0's earlier lookup that found
// no summary.
void await_cases(const SweepPlan& plan, const std::filesystem::path& outdir, std::vector<std::size_t> ran) {
  for (int attempt = 0; attempt < kSightings && !ran.empty(); ++attempt) {
    std::erase_if(ran, [&](std::size_t k) { return finished_case(outdir, plan.cases[k]).has_value(); });
    if (!ran.empty()) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

void sweep_on_ranks(const MpiSession& mpi, const SweepArgs& a, const SweepPlan& plan, bool jobs_given) {
  const std::filesystem::path out = a.output;
  if (mpi.rank() != 0) spdlog::set_level(spdlog::level::warn);
  if (mpi.rank() == 0) make_directory(out);
  mpi.barrier();
  const std::vector<std::size_t> pending = mpi.rank() == 0 ? pending_cases(plan, out, a.time_series) : std::vector<std::size_t>{};
  const unsigned threads = mpi.size() > 1 ? 1 : (a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency()));
  if (mpi.size() > 1 && jobs_given && mpi.rank() == 0)
    spdlog::warn("-j applies without MPI: under mpirun each rank runs one case at a time");
  if (mpi.rank() == 0)
    spdlog::info("sweep: {} of {} to run ({} finished before) on {}", count_of(pending.size(), "case"), plan.cases.size(),
                 plan.cases.size() - pending.size(),
                 mpi.size() > 1 ? count_of(static_cast<std::uint64_t>(mpi.size()), "MPI rank")
                                : count_of(threads, "thread"));
  SweepProgress progress(pending.size(), plan.cases.size(), !a.quiet);
  deal_work(
      mpi, pending, threads, [&](std::size_t k) { run_case(plan, k, out, a.time_series); },
      [&](std::size_t) { progress.case_done(); });
  if (mpi.rank() != 0) return;
  await_cases(plan, out, pending);
  const SweepTally tally = write_results(plan, out);
  const std::size_t ok = plan.cases.size() - tally.failed - tally.warnings;
  const std::string line = fmt::format("{}: {} ok, {} with warnings, {} failed; wrote {}", count_of(plan.cases.size(), "case"),
                                       ok, tally.warnings, tally.failed, (out / "results.csv").string());
  if (ok == plan.cases.size()) spdlog::info("{}", line);
  else spdlog::warn("{} (the status, warnings and message columns say why)", line);
  if (a.strict && ok != plan.cases.size())
    throw std::runtime_error(count_of(plan.cases.size() - ok, "case") + " not ok under --strict");
}

void run_sweep(const SweepArgs& a, const SweepPlan& plan, bool jobs_given) {
  MpiSession mpi;
  try {
    sweep_on_ranks(mpi, a, plan, jobs_given);
  } catch (const std::exception& e) {
    mpi.report(e);
    throw;
  }
}

void run(const SweepArgs& a, bool jobs_given) {
  if (a.quiet) spdlog::set_level(spdlog::level::warn);
  SweepPlan plan;
  try {
    plan = read_sweep(a.sweep);  // every rank reads it; a bad file fails them all before any case runs
  } catch (const std::exception& e) {
    if (MpiSession::launched_rank() != 0) throw ReportedElsewhere(e.what());
    throw;
  }
  if (a.emit_slurm) return emit_slurm(a);
  run_sweep(a, plan, jobs_given);
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a scenario for each case of a sweep file (locally or under mpirun): OUTDIR/cases/ID/, results.csv");
  cmd->add_option("SWEEP", args->sweep, "Sweep file (.toml, docs/sweeps.md)")->required();
  cmd->add_option("-o,--output", args->output, "Output directory (a sweep restarted into it runs only the cases left)")
      ->required();
  cmd->add_option("-j,--jobs", args->jobs, "Cases run at once without MPI (default: every core)")->check(at_least(1));
  cmd->add_flag("--time-series", args->time_series, "Also write each case's time_series.csv");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines and no informational messages");
  cmd->add_flag("--strict", args->strict, "Exit non-zero unless every case's status is ok (results.csv still written)");
  cmd->add_flag("--emit-slurm", args->emit_slurm, "Write OUTDIR/sweep.sbatch, a Slurm job running the sweep under mpirun, and stop");
  cmd->add_option("--nodes", args->slurm.nodes, "With --emit-slurm: nodes to ask for")->check(at_least(1))->needs("--emit-slurm");
  cmd->add_option("--tasks-per-node", args->slurm.tasks_per_node, "With --emit-slurm: MPI ranks per node (one per core)")
      ->check(at_least(1))
      ->needs("--emit-slurm");
  cmd->add_option("--time-limit", args->slurm.time_limit, "With --emit-slurm: Slurm's --time, e.g. 04:00:00 or 2-00:00:00")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            const bool ok = !text.empty() && text.find_first_not_of("0123456789:-") == std::string::npos;
            return ok ? std::string() : "must be a Slurm time such as 04:00:00, not '" + text + "'";
          },
          "TIME"))
      ->needs("--emit-slurm");
  cmd->callback([args, cmd] {
    args->slurm.time_series = args->time_series;
    run(*args, cmd->count("--jobs") > 0);
  });
}

}  // namespace surfdb::cli
