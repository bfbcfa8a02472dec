// A sweep file (docs/sweeps.md): a base scenario, the parameters to vary by their path in it, and
// how their values combine into cases. Everything is checked against the base scenario before any
// case runs: a path it lacks, a value of the wrong type or an empty range is an error naming the
// path.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace surfdb::cli {

class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One value of a parameter: a number, a boolean, a string or a vector of numbers.
using ParameterValue = std::variant<double, bool, std::string, std::vector<double>>;

/// The value as TOML text (shortest round-trip numbers), as an override and results.csv give it.
std::string toml_text(const ParameterValue& v);

struct SweepParameter {
  std::string path;  // as the file gives it: "contact.ball-cup.restitution"
  std::vector<ParameterValue> values;
};

struct SweepCase {
  std::string id;                      // "0001": the case's folder under OUTDIR/cases
  std::vector<std::string> values;     // toml_text of each parameter's value, in parameter order
  std::vector<std::string> overrides;  // "PATH=VALUE", as `simulate --set` takes them
  std::string key;                     // hex digest of the scenario file, end time and overrides
};

struct SweepPlan {
  std::filesystem::path file;      // the sweep file
  std::filesystem::path scenario;  // the base scenario, relative paths resolved
  std::optional<double> end_time;  // s, replaces the scenario's
  std::vector<SweepParameter> parameters;
  std::vector<SweepCase> cases;    // grid: the last parameter varies fastest; zip: i-th values together
};

/// Reads the sweep file, checks it against its base scenario and lists the cases. Throws
/// SweepError naming the file, the line and the parameter's path.
SweepPlan read_sweep(const std::filesystem::path& file);

}  // namespace surfdb::cli
