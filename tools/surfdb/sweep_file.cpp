#include "sweep_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <span>
#include <sstream>
#include <toml++/toml.h>

#include "number_format.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "sweep_sampling.hpp"

namespace surfdb::cli {
namespace {

constexpr std::array<std::string_view, 4> kSweepKeys{"scenario", "end_time", "combine", "parameter"};
constexpr std::array<std::string_view, 6> kParameterKeys{"path", "values", "range", "count", "sample", "seed"};

// Messages that name the sweep file, the line and, for a parameter, its path.
class SweepReader {
 public:
  explicit SweepReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& what) const {
    throw SweepError(file_ + ":" + std::to_string(at.source().begin.line) + ": " + what);
  }
  void only(const toml::table& t, std::span<const std::string_view> keys, const std::string& where) const {
    for (const auto& [key, value] : t)
      if (std::find(keys.begin(), keys.end(), key.str()) == keys.end())
        fail(value, where + "unknown key '" + std::string(key.str()) + "'");
  }
  double finite(const toml::node& n, const std::string& where) const {
    const auto v = n.value<double>();
    if (!v || !std::isfinite(*v)) fail(n, where + "must be a finite number");
    return *v;
  }
  std::size_t whole(const toml::node& n, const std::string& where, std::int64_t low) const {
    const auto v = n.value_exact<std::int64_t>();
    if (!v || *v < low) fail(n, where + "must be a whole number of at least " + std::to_string(low));
    return static_cast<std::size_t>(*v);
  }

 private:
  std::string file_;
};

std::optional<ParameterValue> value_of(const toml::node& n) {
  if (n.is_number()) return ParameterValue{*n.value<double>()};
  if (auto b = n.value_exact<bool>()) return ParameterValue{*b};
  if (auto s = n.value_exact<std::string>()) return ParameterValue{*s};
  const toml::array* a = n.as_array();
  if (!a || a->empty()) return std::nullopt;
  std::vector<double> v;
  for (const toml::node& e : *a) {
    if (!e.is_number()) return std::nullopt;
    v.push_back(*e.value<double>());
  }
  return ParameterValue{v};
}

// "a number", "a vector of 3 numbers".
std::string kind_name(const ScenarioValueKind& k) {
  switch (k.type) {
    case ScenarioValueKind::number: return "a number";
    case ScenarioValueKind::boolean: return "a boolean";
    case ScenarioValueKind::string: return "a string";
    case ScenarioValueKind::vector: return "a vector of " + std::to_string(k.size) + " numbers";
    case ScenarioValueKind::other: break;
  }
  return "neither a number, a boolean, a string nor a vector of numbers";
}

// Whether `v` is of kind `k` (a whole or fractional number counts as a number).
bool fits(const ParameterValue& v, const ScenarioValueKind& k) {
  switch (k.type) {
    case ScenarioValueKind::number: return std::holds_alternative<double>(v);
    case ScenarioValueKind::boolean: return std::holds_alternative<bool>(v);
    case ScenarioValueKind::string: return std::holds_alternative<std::string>(v);
    case ScenarioValueKind::vector: {
      const auto* x = std::get_if<std::vector<double>>(&v);
      return x && x->size() == k.size;
    }
    case ScenarioValueKind::other: break;
  }
  return false;
}

bool finite(const ParameterValue& v) {
  if (const double* x = std::get_if<double>(&v)) return std::isfinite(*x);
  if (const auto* x = std::get_if<std::vector<double>>(&v))
    return std::all_of(x->begin(), x->end(), [](double e) { return std::isfinite(e); });
  return true;
}

std::vector<ParameterValue> listed_values(const SweepReader& r, const toml::node& n, const std::string& where,
                                          const ScenarioValueKind& kind) {
  const toml::array* a = n.as_array();
  if (!a || a->empty()) r.fail(n, where + "values must be a non-empty list");
  std::vector<ParameterValue> out;
  for (const toml::node& e : *a) {
    const std::optional<ParameterValue> v = value_of(e);
    if (!v || !fits(*v, kind) || !finite(*v))
      r.fail(e, where + "value " + std::to_string(out.size() + 1) + " must be " + kind_name(kind) +
                    (kind.type == ScenarioValueKind::number || kind.type == ScenarioValueKind::vector ? " (finite)" : "") +
                    ", as in the base scenario");
    out.push_back(*v);
  }
  return out;
}

// range = [a, b] with count: evenly spaced, or sampled (sample, seed).
std::vector<ParameterValue> range_values(const SweepReader& r, const toml::table& p, const std::string& where,
                                         const ScenarioValueKind& kind) {
  const toml::node& range = *p.get("range");
  if (kind.type != ScenarioValueKind::number) r.fail(range, where + "a range applies to a number; give " + kind_name(kind) + " as values");
  const toml::array* a = range.as_array();
  if (!a || a->size() != 2) r.fail(range, where + "range must be [a, b]");
  const double lo = r.finite((*a)[0], where + "range: "), hi = r.finite((*a)[1], where + "range: ");
  if (!p.get("count")) r.fail(range, where + "a range needs count");
  const std::size_t count = r.whole(*p.get("count"), where + "count ", 1);
  std::vector<double> x;
  if (const toml::node* sample = p.get("sample")) {
    const std::string kind_name = sample->value<std::string>().value_or("");
    // Without a seed, one from the path: sampled parameters zipped together are then drawn
    // independently (one seed for all would put a Latin hypercube's cases on its diagonal).
    const std::string path = p["path"].value<std::string>().value_or("");
    const std::uint64_t seed = p.get("seed") ? r.whole(*p.get("seed"), where + "seed ", 0)
                                             : checksum({reinterpret_cast<const std::uint8_t*>(path.data()), path.size()});
    if (!(lo < hi)) r.fail(range, where + "an empty range: a sampled range [a, b] needs a < b");
    if (kind_name == "latin_hypercube") x = latin_hypercube(lo, hi, count, seed);
    else if (kind_name == "uniform") x = uniform_samples(lo, hi, count, seed);
    else r.fail(*sample, where + "sample must be \"latin_hypercube\" or \"uniform\"");
  } else {
    if (p.get("seed")) r.fail(*p.get("seed"), where + "seed applies to a sampled range (sample = ...)");
    if (count > 1 && lo == hi) r.fail(range, where + "an empty range: a == b gives one value, not " + std::to_string(count));
    x = linear_range(lo, hi, count);
  }
  return {x.begin(), x.end()};
}

SweepParameter read_parameter(const SweepReader& r, const toml::table& p, const std::filesystem::path& scenario) {
  r.only(p, kParameterKeys, "[[parameter]]: ");
  const auto path = p["path"].value<std::string>();
  if (!path) r.fail(p, "[[parameter]]: path must be given, e.g. path = \"contact.NAME.stiffness\"");
  const std::string where = "parameter '" + *path + "': ";
  std::optional<ScenarioValueKind> kind;
  try {
    kind = scenario_value_kind(scenario, *path);
  } catch (const ScenarioError& e) {
    r.fail(*p.get("path"), where + e.what());
  }
  if (!kind)
    r.fail(*p.get("path"), where + scenario.string() +
                               " leaves this key out (a swept key must be in the base scenario: its value there gives the kind of the values)");
  if (kind->type == ScenarioValueKind::other)
    r.fail(*p.get("path"), where + "its value in " + scenario.string() + " is " + kind_name(*kind) + ": it cannot be swept");
  const bool values = p.contains("values"), range = p.contains("range");
  if (values == range) r.fail(p, where + "give either values = [...] or range = [a, b] with count");
  if (values)
    for (const char* key : {"count", "sample", "seed"})
      if (p.contains(key)) r.fail(*p.get(key), where + key + " applies to a range, not to values");
  return {*path, values ? listed_values(r, *p.get("values"), where, *kind) : range_values(r, p, where, *kind)};
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) throw SweepError(file.string() + ": cannot read the base scenario");
  return s.str();
}

}  // namespace

namespace {

// The cases' values: grid, every combination (the last parameter fastest); zip, the k-th of each.
std::vector<std::vector<std::size_t>> combinations(const SweepReader& r, const toml::table& root,
                                                   const std::vector<SweepParameter>& parameters) {
  const std::string combine = root["combine"].value<std::string>().value_or("grid");
  std::vector<std::vector<std::size_t>> out;
  if (combine == "zip") {
    const std::size_t n = parameters[0].values.size();
    for (const SweepParameter& p : parameters)
      if (p.values.size() != n)
        r.fail(*root.get("combine"), "combine = \"zip\" needs as many values for each parameter: '" + parameters[0].path +
                                         "' has " + std::to_string(n) + ", '" + p.path + "' " +
                                         std::to_string(p.values.size()));
    for (std::size_t k = 0; k < n; ++k) out.emplace_back(parameters.size(), k);
    return out;
  }
  if (combine != "grid") r.fail(*root.get("combine"), "combine must be \"grid\" or \"zip\"");
  std::vector<std::size_t> index(parameters.size(), 0);
  for (;;) {
    out.push_back(index);
    std::size_t k = parameters.size();
    while (k > 0 && ++index[k - 1] == parameters[k - 1].values.size()) index[--k] = 0;
    if (k == 0) return out;
  }
}

std::string hex(std::uint64_t x) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(x));
  return text;
}

}  // namespace

std::string toml_text(const ParameterValue& v) {
  if (const double* x = std::get_if<double>(&v)) return format_number(*x);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const std::string* s = std::get_if<std::string>(&v)) {
    std::string out = "\"";
    for (const char c : *s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return out + "\"";
  }
  std::string out = "[";
  for (const double x : std::get<std::vector<double>>(v)) out += (out.size() > 1 ? ", " : "") + format_number(x);
  return out + "]";
}

SweepPlan read_sweep(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) throw SweepError(file.string() + ": no such sweep file");
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw SweepError(file.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const SweepReader r(file.string());
  r.only(root, kSweepKeys, "");
  SweepPlan plan;
  plan.file = file;
  const auto scenario = root["scenario"].value<std::string>();
  if (!scenario) r.fail(root, "scenario = \"PATH.toml\" must be given (relative to the sweep file)");
  plan.scenario = file.parent_path() / *scenario;
  if (const toml::node* t = root.get("end_time")) {
    plan.end_time = r.finite(*t, "end_time ");
    if (!(*plan.end_time > 0)) r.fail(*t, "end_time must be positive");
  }
  if (!std::filesystem::is_regular_file(plan.scenario))
    r.fail(*root.get("scenario"), "no such scenario file " + plan.scenario.string());
  const std::string scenario_text = read_text(plan.scenario);
  const toml::array* list = root["parameter"].as_array();
  if (!list || list->empty() || !list->is_array_of_tables()) r.fail(root, "at least one [[parameter]] must be given");
  for (const toml::node& p : *list) plan.parameters.push_back(read_parameter(r, *p.as_table(), plan.scenario));
  const auto cases = combinations(r, root, plan.parameters);
  const std::size_t width = std::max<std::size_t>(4, std::to_string(cases.size()).size());
  const std::string end_time = plan.end_time ? format_number(*plan.end_time) : "";
  for (std::size_t k = 0; k < cases.size(); ++k) {
    SweepCase c;
    c.id = std::string(width - std::to_string(k + 1).size(), '0') + std::to_string(k + 1);
    std::string keyed = scenario_text + '\0' + end_time;
    for (std::size_t p = 0; p < plan.parameters.size(); ++p) {
      c.values.push_back(toml_text(plan.parameters[p].values[cases[k][p]]));
      c.overrides.push_back(plan.parameters[p].path + "=" + c.values.back());
      keyed += '\0' + c.overrides.back();
    }
    c.key = hex(checksum({reinterpret_cast<const std::uint8_t*>(keyed.data()), keyed.size()}));
    plan.cases.push_back(std::move(c));
  }
  return plan;
}

}  // namespace surfdb::cli
