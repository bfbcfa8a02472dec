#include "run_scenario.hpp"

#include <time.h>

#include <optional>

#include "animation_writer.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "output_checks.hpp"
#include "run_summary.hpp"
#include "surfdb/multibody/data.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "time_series.hpp"

namespace surfdb::cli {
namespace {

// The scenario and its tables: no output may be one of them.
std::vector<std::filesystem::path> inputs_of(const ScenarioJob& job, const Model& s) {
  std::vector<std::filesystem::path> inputs{job.scenario};
  for (const ContactSurface& surface : s.surfaces)
    if (surface.tables)
      for (const TableFace& face : surface.tables->faces()) inputs.push_back(face.table->path());
  return inputs;
}

void make_output_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create output directory " + dir.string() + ": " +
                             (ec ? ec.message() : "a file of that name exists"));
}

void check_output_size(const ScenarioJob& job, const Simulation& sim, const RunSettings& run) {
  if (!job.time_series) return;
  const std::uint64_t bytes = TimeSeries::estimated_bytes(sim, run.end_time, run.output.interval);
  const std::string subject = "cannot write " + (job.output / "time_series.csv").string() + ": the time series (" +
                              format_number(run.end_time) + " s every " + format_number(run.output.interval) + " s)";
  if (bytes > job.max_output_bytes)
    throw std::runtime_error(subject + " would take " + size_text(bytes) + ", more than --max-size " +
                             format_size(job.max_output_bytes) + " (shorten end_time or lengthen output_interval)");
  std::error_code ec;
  std::filesystem::path existing = std::filesystem::absolute(job.output);
  while (!std::filesystem::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path())
    existing = existing.parent_path();
  check_free_space(existing, bytes, subject, true);
}

void warn_initial_penetration(const Data& data) {
  for (const InitialPenetration& p : data.initial_penetrations())
    spdlog::warn("contact '{}': surfaces '{}' and '{}' start {:.4g} m inside each other at t = 0 (within the tolerance {:.4g} m)",
                 p.contact, p.surface_i, p.surface_j, p.depth, p.tolerance);
}

}  // namespace

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

ScenarioOutcome run_scenario(const ScenarioJob& job) {
  const double cpu0 = thread_cpu_seconds();
  if (std::error_code ec; std::filesystem::is_directory(job.scenario, ec))
    throw std::runtime_error(job.scenario.string() + ": is a directory, not a scenario file");
  const std::shared_ptr<Model> model = load_model(job.scenario, job.overrides);
  if (job.end_time) model->run.end_time = *job.end_time;
  if (job.output_interval) model->run.output.interval = *job.output_interval;
  const std::vector<std::filesystem::path> inputs = inputs_of(job, *model);
  Data data(model);  // the initial checks: surface joints, initial penetration
  const Simulation& sim = data.simulation();
  const RunSettings& run_settings = model->run;
  warn_initial_penetration(data);
  check_output_size(job, sim, run_settings);

  make_output_directory(job.output);
  for (const char* name : {"time_series.csv", "summary.json", "final_frame.png"})
    refuse_input_as_output(job.output / name, inputs);

  std::optional<TimeSeries> series;
  Observers observers;
  if (job.time_series) observers.add(series.emplace(job.output / "time_series.csv", sim, run_settings.end_time, job.progress));
  std::optional<AnimationWriter> animation;
  if (job.animation)
    observers.add(animation.emplace(job.output, sim, model->initial_state.data(), inputs, job.animation_interval, run_settings.end_time));
  ScenarioOutcome outcome;
  outcome.end_time = run_settings.end_time;
  const double cpu1 = thread_cpu_seconds();
  outcome.setup_cpu_seconds = cpu1 - cpu0;
  outcome.stats = run(*model, data, observers);
  outcome.stats.cpu_seconds = thread_cpu_seconds() - cpu1;
  if (series) series->commit();
  if (animation) {
    animation->commit();
    outcome.animation_frames = animation->frames();
    outcome.animation_collection = animation->collection();
  }
  nlohmann::ordered_json extra{{"setup_cpu_seconds", outcome.setup_cpu_seconds}};
  for (const auto& [key, value] : job.summary_extra.items()) extra[key] = value;
  write_summary(job.output / "summary.json", sim, outcome.stats, data.state(), extra);
  if (series) series->finish_progress();
  return outcome;
}

}  // namespace surfdb::cli
