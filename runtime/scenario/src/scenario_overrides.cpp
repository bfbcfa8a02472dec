#include "scenario_overrides.hpp"

#include <algorithm>
#include <vector>

#include "scenario_keys.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "toml_reader.hpp"

namespace surfdb {
namespace {

struct Override {
  std::string origin;             // "--set PATH=VALUE" as given
  std::vector<std::string> path;  // its segments, quotes removed
  std::string value;
};

[[noreturn]] void refuse(const std::string& origin, const std::string& what) {
  throw ScenarioError(origin + ": " + what);
}

// A path's segments: separated by dots outside double quotes, the quotes removed.
std::vector<std::string> segments_of(std::string_view path, const std::string& origin) {
  std::vector<std::string> out;
  std::string segment;
  bool quoted = false, was_quoted = false;
  const auto end_segment = [&] {
    if (segment.empty() && !was_quoted) refuse(origin, "an empty name in the path");
    out.push_back(std::move(segment));
    segment.clear(), was_quoted = false;
  };
  for (const char c : path) {
    if (c == '"') quoted = !quoted, was_quoted = true;
    else if (quoted || c != '.') segment += c;
    else end_segment();
  }
  if (quoted) refuse(origin, "a quote in the path is not closed");
  end_segment();
  return out;
}

// PATH=VALUE: the path up to the first '=' outside double quotes.
Override split(const std::string& text) {
  const std::string origin = std::string(kOverrideOrigin) + text;
  bool quoted = false;
  std::size_t k = 0;
  for (; k < text.size() && (quoted || text[k] != '='); ++k)
    if (text[k] == '"') quoted = !quoted;
  if (quoted) refuse(origin, "a quote in the path is not closed");
  if (k == text.size()) refuse(origin, "expected PATH=VALUE, e.g. simulation.step=5e-7");
  return {origin, segments_of(std::string_view(text).substr(0, k), origin), text.substr(k + 1)};
}

std::string listed(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out.append(out.empty() ? "" : ", ").append(n);
  return out;
}

// The table holding the path's key: [simulation] (null when the file has none) or the entry of
// [[TABLE]] whose name is the path's second segment. The table and the key must be a scenario's.
template <class Table>  // toml::table, or const toml::table to look without changing
Table* holder_of(Table& root, const std::vector<std::string>& path, const std::string& origin) {
  const std::string& table = path[0];
  const std::span<const std::string_view> keys = scenario_keys::of(table);
  if (keys.empty()) refuse(origin, "no table '" + table + "' in a scenario (" + listed(scenario_keys::kTables) + ")");
  const bool single = table == "simulation";
  if (path.size() != (single ? 2u : 3u)) refuse(origin, single ? "expected simulation.KEY" : "expected " + table + ".NAME.KEY");
  const std::string& key = path.back();
  const std::string heading = single ? "[simulation]" : "[[" + table + "]]";
  if (std::find(keys.begin(), keys.end(), key) == keys.end())
    refuse(origin, "no key '" + key + "' in " + heading + " (" + listed(keys) + ")");
  if (single) {
    if (!root.contains(table)) return nullptr;
    if (Table* t = root[table].as_table()) return t;
    refuse(origin, "the file's 'simulation' is not a table");
  }
  if (auto* list = root[table].as_array())
    for (auto& entry : *list)
      if (Table* t = entry.as_table(); t && (*t)["name"].template value<std::string>() == path[1]) return t;
  refuse(origin, "no " + heading + " named '" + path[1] + "'");
}

// The table the override's key goes into, [simulation] made when the file has none.
toml::table& target_of(toml::table& root, const Override& o) {
  if (toml::table* t = holder_of(root, o.path, o.origin)) return *t;
  return *root.insert(o.path[0], toml::table{}).first->second.as_table();
}

// A word TOML does not read as a value is taken as a string if it holds nothing TOML would give
// a meaning to (spaces, quotes, brackets, braces, commas, '=', '#', backslashes).
bool bare_word(const std::string& v) {
  return !v.empty() && v.find_first_of(" \t\r\n\"'[]{},=#\\") == std::string::npos;
}

void assign(toml::table& target, const Override& o) {
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + o.value, o.origin);
  } catch (const toml::parse_error& e) {
    if (!bare_word(o.value))
      refuse(o.origin, "the value is not a TOML value (" + std::string(e.description()) + "); a string with spaces needs quotes");
    parsed = toml::parse("v = \"" + o.value + "\"", o.origin);
  }
  if (parsed.size() != 1) refuse(o.origin, "the value must be one TOML value");
  parsed.get("v")->visit([&](auto& value) { target.insert_or_assign(o.path.back(), std::move(value)); });
}

}  // namespace

void apply_overrides(toml::table& root, std::span<const std::string> overrides) {
  for (const std::string& text : overrides) {
    const Override o = split(text);
    assign(target_of(root, o), o);
  }
}

std::optional<ScenarioValueKind> scenario_value_kind(const std::filesystem::path& scenario, const std::string& path) {
  const toml::table root = parse_scenario_file(scenario);
  const std::string origin = scenario.string();
  const std::vector<std::string> segments = segments_of(path, origin);
  const toml::table* holder = holder_of(root, segments, origin);
  const toml::node* n = holder ? holder->get(segments.back()) : nullptr;
  if (!n) return std::nullopt;
  if (n->is_number()) return ScenarioValueKind{ScenarioValueKind::number};
  if (n->is_boolean()) return ScenarioValueKind{ScenarioValueKind::boolean};
  if (n->is_string()) return ScenarioValueKind{ScenarioValueKind::string};
  if (const toml::array* a = n->as_array(); a && !a->empty() &&
                                             std::all_of(a->begin(), a->end(), [](const toml::node& e) { return e.is_number(); }))
    return ScenarioValueKind{ScenarioValueKind::vector, a->size()};
  return ScenarioValueKind{ScenarioValueKind::other};
}

}  // namespace surfdb
