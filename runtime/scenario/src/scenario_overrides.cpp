#include "scenario_overrides.hpp"

#include <algorithm>
#include <vector>

#include "scenario_keys.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "toml_reader.hpp"

namespace surfdb {
namespace {

struct Override {
  std::string text;               // PATH=VALUE as given
  std::vector<std::string> path;  // its segments, quotes removed
  std::string value;
};

[[noreturn]] void refuse(const Override& o, const std::string& what) {
  throw ScenarioError(std::string(kOverrideOrigin) + o.text + ": " + what);
}

// PATH=VALUE: the path's segments separated by dots outside double quotes, up to the first '='
// outside them.
Override split(const std::string& text) {
  Override o{text, {}, {}};
  std::string segment;
  bool quoted = false, was_quoted = false;
  std::size_t k = 0;
  for (; k < text.size(); ++k) {
    const char c = text[k];
    if (c == '"') {
      quoted = !quoted, was_quoted = true;
    } else if (quoted || (c != '.' && c != '=')) {
      segment += c;
    } else {
      if (segment.empty() && !was_quoted) refuse(o, "an empty name in the path");
      o.path.push_back(std::move(segment));
      segment.clear(), was_quoted = false;
      if (c == '=') break;
    }
  }
  if (quoted) refuse(o, "a quote in the path is not closed");
  if (k == text.size()) refuse(o, "expected PATH=VALUE, e.g. simulation.step=5e-7");
  o.value = text.substr(k + 1);
  return o;
}

std::string listed(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) out.append(out.empty() ? "" : ", ").append(n);
  return out;
}

// The table the override's key goes into: [simulation] (made when the file has none) or the entry
// of [[TABLE]] whose name is the path's second segment.
toml::table& target_of(toml::table& root, const Override& o) {
  const std::string& table = o.path[0];
  const std::span<const std::string_view> keys = scenario_keys::of(table);
  if (keys.empty()) refuse(o, "no table '" + table + "' in a scenario (" + listed(scenario_keys::kTables) + ")");
  const bool single = table == "simulation";
  if (o.path.size() != (single ? 2u : 3u))
    refuse(o, single ? "expected simulation.KEY" : "expected " + table + ".NAME.KEY");
  const std::string& key = o.path.back();
  const std::string heading = single ? "[simulation]" : "[[" + table + "]]";
  if (std::find(keys.begin(), keys.end(), key) == keys.end())
    refuse(o, "no key '" + key + "' in " + heading + " (" + listed(keys) + ")");
  if (single) {
    if (!root.contains(table)) root.insert(table, toml::table{});
    if (toml::table* t = root[table].as_table()) return *t;
    refuse(o, "the file's 'simulation' is not a table");
  }
  if (toml::array* list = root[table].as_array())
    for (toml::node& entry : *list)
      if (toml::table* t = entry.as_table(); t && (*t)["name"].value<std::string>() == o.path[1]) return *t;
  refuse(o, "no " + heading + " named '" + o.path[1] + "'");
}

// A word TOML does not read as a value is taken as a string if it holds nothing TOML would give
// a meaning to (spaces, quotes, brackets, braces, commas, '=', '#', backslashes).
bool bare_word(const std::string& v) {
  return !v.empty() && v.find_first_of(" \t\r\n\"'[]{},=#\\") == std::string::npos;
}

void assign(toml::table& target, const Override& o) {
  const std::string origin = std::string(kOverrideOrigin) + o.text;
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + o.value, origin);
  } catch (const toml::parse_error& e) {
    if (!bare_word(o.value))
      refuse(o, "the value is not a TOML value (" + std::string(e.description()) + "); a string with spaces needs quotes");
    parsed = toml::parse("v = \"" + o.value + "\"", origin);
  }
  if (parsed.size() != 1) refuse(o, "the value must be one TOML value");
  parsed.get("v")->visit([&](auto& value) { target.insert_or_assign(o.path.back(), std::move(value)); });
}

}  // namespace

void apply_overrides(toml::table& root, std::span<const std::string> overrides) {
  for (const std::string& text : overrides) {
    const Override o = split(text);
    assign(target_of(root, o), o);
  }
}

}  // namespace surfdb
