// Reading scenario TOML with messages that name the file, the line and the field; every number
// checked finite where it is read.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "surfdb/scenario/scenario.hpp"

namespace surfdb {

using Eigen::Matrix3d;
using Eigen::Vector3d;

/// The source path of values a --set override parsed: "--set PATH=VALUE".
inline constexpr std::string_view kOverrideOrigin = "--set ";

/// A scenario file parsed; a missing file or a TOML error is a ScenarioError naming the file
/// (and the line).
inline toml::table parse_scenario_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ScenarioError(path.string() + ": no such scenario file");
  if (!std::filesystem::is_regular_file(path, ec))
    throw ScenarioError(path.string() + ": not a regular file (a directory, a FIFO or a device), not a scenario file");
  try {
    return toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    throw ScenarioError(path.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
}

// Field access with messages that name the file, the line and the field.
class Reader {
 public:
  explicit Reader(std::string file, LineNumbers lines = LineNumbers::cite) : file_(std::move(file)), lines_(lines) {}

  /// A value a --set override put in the file is named by its override, not by a line.
  [[noreturn]] void fail(const toml::node& at, const std::string& field, const std::string& what) const {
    const auto& origin = at.source().path;
    if (origin && origin->starts_with(kOverrideOrigin)) throw ScenarioError(*origin + ": " + field + ": " + what);
    throw ScenarioError(at_line(at.source().begin.line) + ": " + field + ": " + what);
  }

  /// "FILE:LINE", or "FILE" where lines are not cited.
  std::string at_line(std::size_t line) const {
    return lines_ == LineNumbers::cite ? file_ + ":" + std::to_string(line) : file_;
  }

  const toml::node* find(const toml::table& t, const char* key) const { return t.get(key); }

  double number(const toml::table& t, const char* key, const std::string& where, std::optional<double> fallback = {}) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(t, where + "." + key, "missing");
    }
    if (auto v = n->value<double>()) {
      if (!std::isfinite(*v)) fail(*n, where + "." + key, "must be a finite number");
      return *v;
    }
    fail(*n, where + "." + key, "must be a number");
  }

  double positive(const toml::table& t, const char* key, const std::string& where, std::optional<double> fallback = {}) const {
    const double v = number(t, key, where, fallback);
    if (!(v > 0)) fail(t.get(key) ? *t.get(key) : static_cast<const toml::node&>(t), where + "." + key, "must be positive");
    return v;
  }

  std::string text(const toml::table& t, const char* key, const std::string& where, std::optional<std::string> fallback = {}) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(t, where + "." + key, "missing");
    }
    if (auto v = n->value<std::string>()) return *v;
    fail(*n, where + "." + key, "must be a string");
  }

  std::vector<double> numbers(const toml::table& t, const char* key, const std::string& where, std::size_t count) const {
    const toml::node* n = t.get(key);
    if (!n) fail(t, where + "." + key, "missing");
    const toml::array* a = n->as_array();
    if (!a || a->size() != count) fail(*n, where + "." + key, "must be an array of " + std::to_string(count) + " numbers");
    std::vector<double> out;
    for (const toml::node& e : *a) {
      auto v = e.value<double>();
      if (!v || !std::isfinite(*v)) fail(e, where + "." + key, "must hold finite numbers");
      out.push_back(*v);
    }
    return out;
  }

  Vector3d vec3(const toml::table& t, const char* key, const std::string& where, std::optional<Vector3d> fallback = {}) const {
    if (!t.get(key) && fallback) return *fallback;
    const auto v = numbers(t, key, where, 3);
    return {v[0], v[1], v[2]};
  }

  Vector3d direction(const toml::table& t, const char* key, const std::string& where, std::optional<Vector3d> fallback = {}) const {
    const Vector3d v = vec3(t, key, where, fallback);
    if (!(v.norm() > 0)) fail(t.get(key) ? *t.get(key) : static_cast<const toml::node&>(t), where + "." + key, "must not be zero");
    return v.normalized();
  }

  void only(const toml::table& t, std::span<const std::string_view> allowed, const std::string& where) const {
    for (const auto& [key, value] : t)
      if (std::find(allowed.begin(), allowed.end(), key.str()) == allowed.end())
        fail(value, where, "unknown key '" + std::string(key.str()) + "'");
  }

  const toml::array* tables(const toml::table& root, const char* key) const {
    const toml::node* n = root.get(key);
    if (!n) return nullptr;
    const toml::array* a = n->as_array();
    if (!a || !a->is_array_of_tables()) fail(*n, key, "must be a list of tables ([[" + std::string(key) + "]])");
    return a;
  }

 private:
  std::string file_;
  LineNumbers lines_;
};

/// How far R^T R may be from the identity for R, read from a file, to count as a rotation.
inline constexpr double kRotationTolerance = 1e-9;

/// A 3 x 3 rotation given as rows (identity when absent); refuses anything but a rotation.
Matrix3d rotation_from(const Reader& r, const toml::table& t, const char* key, const std::string& where);

/// [[body]] `inertia` (principal moments, with `principal_axes` or not, or a full symmetric
/// tensor) as the tensor about the centre of mass in body axes (body_inertia.cpp).
Matrix3d read_body_inertia(const Reader& r, const toml::table& b, const std::string& where);

}  // namespace surfdb
