// The parts of the _surfdb extension module, one file each.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "surfdb/table/database.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb::python {

void bind_database(pybind11::module_& m);  // Database, Binding: vectorised query and project
void bind_contact(pybind11::module_& m);   // Mount, BodyState, Contact, ContactResult
void bind_convert(pybind11::module_& m);   // convert, faces
void bind_simulation(pybind11::module_& m);  // simulate, ScenarioError
void bind_model(pybind11::module_& m);       // Model, Data, step, advance, reset, restore

/// The mapped database behind a Python surfdb.Database.
std::shared_ptr<const Database> database_of(const pybind11::object& database);

/// A storage window's statistics as a dict.
pybind11::dict window_stats(const SurfaceBinding& binding);

}  // namespace surfdb::python
