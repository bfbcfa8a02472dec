#include "sweep_cases.hpp"

#include <fstream>

#include "atomic_file.hpp"
#include "run_scenario.hpp"

namespace surfdb::cli {
namespace {

nlohmann::ordered_json case_record(const SweepPlan& plan, const SweepCase& c) {
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (std::size_t p = 0; p < plan.parameters.size(); ++p) parameters[plan.parameters[p].path] = c.values[p];
  return {{"id", c.id}, {"key", c.key}, {"parameters", parameters}};
}

std::optional<nlohmann::json> read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

// The record is this case's: same key (scenario, end time, values) and id.
bool records(const nlohmann::json& j, const SweepCase& c) {
  const auto r = j.find("sweep_case");
  return r != j.end() && r->is_object() && r->value("key", "") == c.key && r->value("id", "") == c.id;
}

void write_error(const std::filesystem::path& dir, nlohmann::ordered_json record, const std::string& message) {
  nlohmann::ordered_json j;
  j["sweep_case"] = std::move(record);
  j["error"] = message;
  AtomicFile file(dir / "error.json");
  std::fputs((j.dump(2) + "\n").c_str(), file.get());
  file.commit();
}

}  // namespace

std::filesystem::path case_directory(const std::filesystem::path& outdir, const SweepCase& c) {
  return outdir / "cases" / c.id;
}

std::optional<nlohmann::json> finished_case(const std::filesystem::path& outdir, const SweepCase& c) {
  const std::filesystem::path dir = case_directory(outdir, c);
  if (auto j = read_json(dir / "summary.json"); j && records(*j, c) && j->contains("contacts")) {
    if (!(*j)["status"].is_string()) (*j)["status"] = "ok";  // a summary from before runs had a status
    return j;
  }
  if (auto j = read_json(dir / "error.json"); j && records(*j, c) && (*j)["error"].is_string()) {
    (*j)["status"] = "failed";
    return j;
  }
  return std::nullopt;
}

void run_case(const SweepPlan& plan, std::size_t k, const std::filesystem::path& outdir, bool time_series) {
  const SweepCase& c = plan.cases[k];
  const std::filesystem::path dir = case_directory(outdir, c);
  nlohmann::ordered_json record = case_record(plan, c);
  const double cpu0 = thread_cpu_seconds();
  std::error_code ec;
  try {
    std::filesystem::create_directories(dir);
    ScenarioJob job;
    job.scenario = plan.scenario;
    job.overrides = c.overrides;
    job.end_time = plan.end_time;
    job.output = dir;
    job.time_series = time_series;
    if (!time_series) std::filesystem::remove(dir / "time_series.csv", ec);  // not from an earlier sweep
    job.summary_extra["sweep_case"] = record;
    run_scenario(job);
    std::filesystem::remove(dir / "error.json", ec);
  } catch (const std::exception& e) {
    record["cpu_seconds"] = thread_cpu_seconds() - cpu0;
    std::filesystem::remove(dir / "summary.json", ec);
    write_error(dir, record, e.what());
  }
}

}  // namespace surfdb::cli
