// surfdb simulate: run a scenario, write the time series, the summary, the plots and, on request,
// the animation.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>

#include "commands.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "output_checks.hpp"
#include "output_directory.hpp"
#include "run_scenario.hpp"

namespace surfdb::cli {
namespace {

struct SimulateArgs {
  std::string scenario, output;
  double end_time = 0, output_interval = 0;
  std::vector<std::string> overrides;  // --set PATH=VALUE, in order
  double animation_interval = 0;  // s, 0: every output instant
  std::string max_size = "64G";   // of the time series
  bool no_plots = false, quiet = false, animation = false, strict = false;
};

// The plotting script `name`: the environment variable `env` when set, else the one installed
// beside the command (PREFIX/bin/surfdb, PREFIX/share/surfdb/), else the source tree's.
std::filesystem::path plot_script(const char* env, const char* name) {
  if (const char* path = std::getenv(env)) return path;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path installed = exe.parent_path().parent_path() / "share/surfdb" / name;
  if (!ec && std::filesystem::exists(installed, ec)) return installed;
  return std::filesystem::path(SURFDB_SOURCE_PLOTS) / name;
}

// Runs a plotting script on OUTDIR; a warning, not an error, when it fails.
void plot(const std::filesystem::path& script, const std::filesystem::path& dir) {
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string command = python + " '" + script.string() + "' '" + dir.string() + "'";
  if (std::system(command.c_str()) != 0)
    spdlog::warn("plots not written: '{}' failed (needs python3-matplotlib)", command);
}

// One line per warning of the run; an error when it failed, or had warnings under --strict, after
// every output was written.
void report_health(const RunHealth& health, bool strict, const std::filesystem::path& dir) {
  for (const RunWarning& w : health.warnings()) spdlog::warn("{}", health.describe(w));
  const RunStatus status = health.status();
  if (status == RunStatus::failed)
    throw std::runtime_error("the run failed; its outputs up to then are in " + dir.string());
  if (status == RunStatus::warnings && strict)
    throw std::runtime_error(count_of(health.warnings().size(), "warning") + " under --strict; the outputs are in " +
                             dir.string());
}

void run(const SimulateArgs& a, const CLI::App& cmd) {
  if (a.quiet) spdlog::set_level(spdlog::level::warn);
  const std::uint64_t max_bytes = parse_size(a.max_size, "--max-size");
  const OutputDirectory directory(a.output);  // removed again unless the run writes into it
  ScenarioJob job;
  job.scenario = a.scenario;
  job.overrides = a.overrides;
  if (cmd.count("--end-time")) job.end_time = a.end_time;
  if (cmd.count("--output-interval")) job.output_interval = a.output_interval;
  job.output = a.output;
  job.progress = !a.quiet;
  job.animation = a.animation;
  job.animation_interval = a.animation_interval;
  job.max_output_bytes = max_bytes;
  const ScenarioOutcome r = run_scenario(job);
  const std::filesystem::path dir = a.output;
  // The end time as given, not as the steps summed it (0.1, not 0.09999999999999999).
  const bool reached = std::abs(r.stats.end_time - r.end_time) <= 1e-9 * r.end_time;
  spdlog::info("simulated {} s in {}, {:.2f} s CPU; wrote {}", format_number(reached ? r.end_time : r.stats.end_time),
               count_of(static_cast<std::uint64_t>(r.stats.steps), "step"), r.stats.cpu_seconds, dir.string());
  if (a.animation)
    spdlog::info("animation: {} in {} (ParaView: File > Open)", count_of(r.animation_frames, "frame"),
                 r.animation_collection.string());
  if (!a.no_plots) {
    plot(plot_script("SURFDB_PLOT_SCRIPT", "plot_simulation.py"), dir);
    if (a.animation) plot(plot_script("SURFDB_FRAME_PLOT_SCRIPT", "plot_frame.py"), dir);
  }
  report_health(r.stats.health, a.strict, dir);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run a scenario: time series, summary.json and plots in OUTDIR");
  cmd->add_option("SCENARIO", args->scenario, "Scenario file (.toml)")->required();
  cmd->add_option("-o,--output", args->output, "Output directory")->required();
  cmd->add_option("--end-time", args->end_time, "Override the scenario's end time, s")->check(positive_number());
  cmd->add_option("--output-interval", args->output_interval, "Override the scenario's output interval, s")
      ->check(positive_number());
  cmd->add_option("--set", args->overrides,
                  "Override a scenario value, PATH=VALUE (simulation.step=5e-7, contact.NAME.stiffness=4e9); repeatable, "
                  "applied in order")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_flag("--animation", args->animation,
                "Also write OUTDIR/animation.pvd and OUTDIR/animation/: the surfaces and contact forces at every output "
                "instant, for ParaView");
  cmd->add_option("--animation-interval", args->animation_interval,
                  "With --animation: a frame at the output instants no closer than this, s (and the last); default every one")
      ->check(positive_number())
      ->needs("--animation");
  cmd->add_flag("--no-plots", args->no_plots, "Write no PNG plots");
  cmd->add_flag("--strict", args->strict,
                "Exit non-zero when the run has any warning (status \"warnings\" in summary.json); the outputs are "
                "still written");
  cmd->add_option("--max-size", args->max_size,
                  "Refuse a run whose time series would take more than this (e.g. 500M, 2G; default 64G) or the free "
                  "space");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress bar and no informational messages (warnings and errors still)");
  cmd->callback([args, cmd] { run(*args, *cmd); });
}

}  // namespace surfdb::cli
