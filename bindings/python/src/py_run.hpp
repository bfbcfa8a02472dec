// What surfdb.simulate and surfdb.Model share: scenario overrides and scenarios from Python dicts,
// and a run's summary as a dict.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/multibody/data.hpp"
#include "surfdb/multibody/model.hpp"

namespace surfdb::python {

/// {"contact.ball-cup.stiffness": 4e9, "simulation.integrator": "adams"} as `--set` takes them:
/// "PATH=VALUE", the value written as TOML (numbers exactly, strings quoted, lists bracketed).
std::vector<std::string> overrides(const std::optional<pybind11::dict>& set);

/// A Python value as a TOML value (py_scenario_text.cpp): numbers in Python's shortest exact form,
/// strings quoted, lists and tuples (numpy arrays too) as arrays, dicts as inline tables. Throws
/// std::invalid_argument for anything else.
std::string toml_value(const pybind11::handle& v);
/// A scenario's tables given as a dict ({"simulation": {...}, "body": [{...}], ...}) as TOML text.
std::string scenario_text(const pybind11::dict& scenario);
/// A model built in code: the scenario dict's text compiled, its tables' and meshes' paths
/// relative to `folder` (the current directory when unset). A ScenarioError names the field,
/// "scenario dict: body 'ball'.mass: must be positive", without the text's line.
std::shared_ptr<const Model> model_from_dict(const pybind11::dict& scenario, const std::optional<std::string>& folder,
                                             const std::vector<std::string>& overrides = {});

/// The run so far: status, warnings, end_time, steps, rhs_evaluations, integrator_failures,
/// energy, constraint_drift, contacts (as summary.json names them).
pybind11::dict summary(Data& data);

}  // namespace surfdb::python
