// A sweep parameter's path in its base scenario: `simulation.KEY`, or `TABLE.NAME.KEY` for the
// entry of [[TABLE]] whose name is NAME (a segment in double quotes may hold dots), the syntax of
// `simulate --set`. The key must be in the base scenario: its value gives the kind every value
// of the parameter must have.
#pragma once

#include <string>
#include <toml++/toml.h>

#include "sweep_file.hpp"

namespace surfdb::cli {

struct ValueKind {
  enum Type { number, boolean, string, vector } type = number;
  std::size_t size = 0;  // of a vector
  std::string name() const;  // "a number", "a vector of 3 numbers"
};

/// The kind of the value at `path` in the scenario `root` (the file `scenario`). Throws
/// std::invalid_argument saying what is missing (the table, the entry, the key) or that the value
/// cannot be swept.
ValueKind value_kind_at(const toml::table& root, const std::string& path, const std::string& scenario);

/// Whether `v` is of kind `k` (a whole or fractional number counts as a number).
bool fits(const ParameterValue& v, const ValueKind& k);

}  // namespace surfdb::cli
