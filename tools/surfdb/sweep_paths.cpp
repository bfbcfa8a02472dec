#include "sweep_paths.hpp"

#include <stdexcept>
#include <vector>

namespace surfdb::cli {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument(what); }

// The path's segments, split at dots outside double quotes, the quotes removed.
std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (const char c : path) {
    if (c == '"') quoted = !quoted;
    else if (c == '.' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  if (quoted) refuse("a quote in the path is not closed");
  for (const std::string& s : out)
    if (s.empty()) refuse("an empty name in the path (expected simulation.KEY or TABLE.NAME.KEY)");
  return out;
}

// The table holding the key: [simulation], or the entry of [[TABLE]] with the path's name.
const toml::table& holder(const toml::table& root, const std::vector<std::string>& s, const std::string& scenario) {
  const bool single = s[0] == "simulation";
  if (s.size() != (single ? 2u : 3u)) refuse(single ? "expected simulation.KEY" : "expected TABLE.NAME.KEY, e.g. contact.NAME.stiffness");
  if (single) {
    if (const toml::table* t = root["simulation"].as_table()) return *t;
    refuse(scenario + " has no [simulation]");
  }
  const toml::array* list = root[s[0]].as_array();
  if (!list) refuse(scenario + " has no [[" + s[0] + "]]");
  for (const toml::node& entry : *list)
    if (const toml::table* t = entry.as_table(); t && (*t)["name"].value<std::string>() == s[1]) return *t;
  refuse(scenario + " has no [[" + s[0] + "]] named '" + s[1] + "'");
}

}  // namespace

std::string ValueKind::name() const {
  switch (type) {
    case number: return "a number";
    case boolean: return "a boolean";
    case string: return "a string";
    case vector: return "a vector of " + std::to_string(size) + " numbers";
  }
  return {};
}

ValueKind value_kind_at(const toml::table& root, const std::string& path, const std::string& scenario) {
  const std::vector<std::string> s = segments(path);
  const toml::table& t = holder(root, s, scenario);
  const toml::node* n = t.get(s.back());
  if (!n)
    refuse(scenario + " has no key '" + s.back() + "' in " +
           (s.size() == 2 ? "[simulation]" : "[[" + s[0] + "]] '" + s[1] + "'") + " (a swept key must be in the base scenario)");
  if (n->is_number()) return {ValueKind::number};
  if (n->is_boolean()) return {ValueKind::boolean};
  if (n->is_string()) return {ValueKind::string};
  if (const toml::array* a = n->as_array(); a && !a->empty()) {
    bool numbers = true;
    for (const toml::node& e : *a) numbers = numbers && e.is_number();
    if (numbers) return {ValueKind::vector, a->size()};
  }
  refuse("its value in " + scenario + " is neither a number, a boolean, a string nor a vector of numbers");
}

bool fits(const ParameterValue& v, const ValueKind& k) {
  switch (k.type) {
    case ValueKind::number: return std::holds_alternative<double>(v);
    case ValueKind::boolean: return std::holds_alternative<bool>(v);
    case ValueKind::string: return std::holds_alternative<std::string>(v);
    case ValueKind::vector: {
      const auto* x = std::get_if<std::vector<double>>(&v);
      return x && x->size() == k.size;
    }
  }
  return false;
}

}  // namespace surfdb::cli
