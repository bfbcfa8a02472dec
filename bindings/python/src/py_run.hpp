// What surfdb.simulate and surfdb.Model share: scenario overrides from a Python dict and a run's
// summary as a dict.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "surfdb/multibody/data.hpp"

namespace surfdb::python {

/// {"contact.ball-cup.stiffness": 4e9, "simulation.integrator": "adams"} as `--set` takes them:
/// "PATH=VALUE", the value written as TOML (numbers exactly, strings quoted, lists bracketed).
std::vector<std::string> overrides(const std::optional<pybind11::dict>& set);

/// The run so far: status, warnings, end_time, steps, rhs_evaluations, integrator_failures,
/// energy, constraint_drift, contacts (as summary.json names them).
pybind11::dict summary(Data& data);

}  // namespace surfdb::python
