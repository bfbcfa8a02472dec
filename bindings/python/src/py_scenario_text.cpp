// Python values as TOML text: a scenario built in code as a dict of the file's tables
// (surfdb.Model({...})) and the values of `set=` overrides. Every table and array is written
// inline, so the text is one `key = value` line per top-level key, in the dict's order.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "py_run.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

std::string quoted(const std::string& s) {
  std::string text = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': text += "\\\""; break;
      case '\\': text += "\\\\"; break;
      case '\n': text += "\\n"; break;
      case '\t': text += "\\t"; break;
      case '\r': text += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) throw std::invalid_argument("a control character in the string " + s);
        text += c;
    }
  }
  return text + "\"";
}

// A key as TOML writes it: bare when it can be, else quoted.
std::string key_text(const py::handle& k) {
  if (!py::isinstance<py::str>(k)) throw std::invalid_argument("a scenario's keys are strings, not " + py::repr(k).cast<std::string>());
  const std::string key = k.cast<std::string>();
  const bool bare = !key.empty() && key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
  return bare ? key : quoted(key);
}

}  // namespace

std::string toml_value(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  // As Python's own int and float write them (a numpy scalar's repr names its type).
  if (py::isinstance<py::int_>(v)) return py::repr(py::int_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
  if (py::isinstance<py::float_>(v)) return py::repr(py::float_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
  if (py::isinstance<py::str>(v)) return quoted(v.cast<std::string>());
  if (py::hasattr(v, "tolist")) return toml_value(v.attr("tolist")());  // numpy arrays and scalars
  if (py::isinstance<py::dict>(v)) {
    std::string text = "{";
    for (const auto& [key, value] : v.cast<py::dict>()) text += (text.size() > 1 ? ", " : "") + key_text(key) + " = " + toml_value(value);
    return text + "}";
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string text = "[";
    for (const py::handle& e : v) text += (text.size() > 1 ? ", " : "") + toml_value(e);
    return text + "]";
  }
  throw std::invalid_argument(py::repr(v).cast<std::string>() + " is not a number, bool, string, list or dict");
}

std::string scenario_text(const py::dict& scenario) {
  std::string text;
  for (const auto& [key, value] : scenario) text += key_text(key) + " = " + toml_value(value) + "\n";
  return text;
}

// The text is one line per top-level key, so a message's line number would say nothing to the
// user; the field it names does.
std::shared_ptr<const Model> model_from_dict(const py::dict& scenario, const std::optional<std::string>& folder,
                                             const std::vector<std::string>& overrides) {
  return parse_model(scenario_text(scenario), "scenario dict", folder ? *folder : std::filesystem::current_path().string(),
                     overrides, LineNumbers::omit);
}

}  // namespace surfdb::python
