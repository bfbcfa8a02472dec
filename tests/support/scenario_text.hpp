// Scenario files written by a test: loaded from a temporary directory as scene.toml, or the error
// loading them gives, from the file's name on ("scene.toml:LINE: FIELD: what").
#pragma once

#include <fstream>
#include <string>

#include "surfdb/scenario/scenario.hpp"
#include "temp_dir.hpp"

namespace surfdb::test {

inline Scenario load_text(const TempDir& dir, const std::string& text) {
  const std::filesystem::path path = dir / "scene.toml";
  std::ofstream(path) << text;
  return load_scenario(path);
}

inline std::string error_of(const TempDir& dir, const std::string& text) {
  try {
    load_text(dir, text);
  } catch (const ScenarioError& e) {
    const std::string m = e.what();
    return m.substr(m.find("scene.toml"));
  }
  return "no error";
}

}  // namespace surfdb::test
