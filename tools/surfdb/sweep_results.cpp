#include "sweep_results.hpp"

#include <algorithm>
#include <cmath>

#include "atomic_file.hpp"
#include "number_format.hpp"
#include "sweep_cases.hpp"

namespace surfdb::cli {

const std::vector<std::string> kResultColumns{
    "status",           "first_contact_time", "impacts",          "max_indentation",     "energy_dissipated",
    "energy_drift_relative", "constraint_drift", "solver_failures", "integrator_failures", "steps",
    "setup_cpu_seconds", "cpu_seconds",       "warnings",         "message"};

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line end.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A JSON number as the commands print numbers; empty for null or a missing value.
std::string number(const nlohmann::json& j) {
  if (j.is_number_integer() || j.is_number_unsigned()) return j.dump();
  if (j.is_number_float()) return format_number(j.get<double>());
  return "";
}

std::string json_number(const nlohmann::json& j, const char* a, const char* b = nullptr) {
  const auto x = j.find(a);
  if (x == j.end()) return "";
  if (!b) return number(*x);
  const auto y = x->find(b);
  return y == x->end() ? "" : number(*y);
}

// The contacts' figures: the earliest first contact, the impacts summed, the deepest indentation;
// solver failures of contacts and surface joints summed.
std::vector<std::string> summary_figures(const nlohmann::json& s) {
  std::optional<double> first, deepest;
  std::int64_t impacts = 0, failures = 0;
  for (const nlohmann::json& c : s["contacts"]) {
    if (c["first_contact_time"].is_number()) first = std::min(first.value_or(INFINITY), c["first_contact_time"].get<double>());
    deepest = std::max(deepest.value_or(-INFINITY), c.value("max_indentation", 0.0));
    impacts += c.value("impacts", std::int64_t{0});
    failures += c.value("solver_failures", std::int64_t{0});
  }
  for (const nlohmann::json& j : s.value("surface_joints", nlohmann::json::array()))
    failures += j.value("solver_failures", std::int64_t{0});
  std::string kinds, message;  // the warnings' kinds, each once; the failure's line
  for (const nlohmann::json& w : s.value("warnings", nlohmann::json::array())) {
    const std::string kind = w.value("kind", "");
    if (kinds.find(kind) == std::string::npos) kinds += (kinds.empty() ? "" : ";") + kind;
    if (kind == "integrator_failure" || kind == "non_finite_state") message = w.value("message", "");
  }
  return {s["status"].get<std::string>(), first ? format_number(*first) : "", std::to_string(impacts), deepest ? format_number(*deepest) : "",
          json_number(s, "energy", "dissipated"), json_number(s, "energy", "drift_relative"),
          json_number(s, "constraint_drift"), std::to_string(failures), json_number(s, "integrator_failures"),
          json_number(s, "steps"), json_number(s, "setup_cpu_seconds"), json_number(s, "cpu_seconds"), kinds, message};
}

std::vector<std::string> row(const std::optional<nlohmann::json>& j) {
  std::vector<std::string> out(kResultColumns.size());
  if (!j) {
    out.front() = "not_run";
    return out;
  }
  if (j->contains("contacts")) return summary_figures(*j);
  out.front() = "failed";
  const auto cpu = std::find(kResultColumns.begin(), kResultColumns.end(), "cpu_seconds");
  out[static_cast<std::size_t>(cpu - kResultColumns.begin())] = json_number((*j)["sweep_case"], "cpu_seconds");
  out.back() = (*j)["error"].get<std::string>();
  return out;
}

}  // namespace

SweepTally write_results(const SweepPlan& plan, const std::filesystem::path& outdir) {
  std::string text = "case";
  for (const SweepParameter& p : plan.parameters) text.append(",").append(field(p.path));
  for (const std::string& c : kResultColumns) text.append(",").append(c);
  text += "\n";
  SweepTally tally;
  for (const SweepCase& c : plan.cases) {
    text += c.id;
    for (const std::string& v : c.values) text.append(",").append(field(v));
    const std::vector<std::string> figures = row(finished_case(outdir, c));
    tally.failed += figures.front() == "failed" || figures.front() == "not_run";
    tally.warnings += figures.front() == "warnings";
    for (const std::string& f : figures) text.append(",").append(field(f));
    text += "\n";
  }
  AtomicFile file(outdir / "results.csv");
  std::fputs(text.c_str(), file.get());
  file.commit();
  return tally;
}

}  // namespace surfdb::cli
