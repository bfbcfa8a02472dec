// The _surfdb extension module: surfdb's runtime and converter for Python. The pure-Python
// package surfdb/__init__.py re-exports it with the result types.
#include "bindings.hpp"

#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/libsurfdb/node_geometry.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_surfdb, m) {
  m.doc() = "surfdb: surface lookup tables for contact in multibody dynamics";
  // Errors a caller can act on, under one base class; std::invalid_argument arrives as ValueError.
  static py::exception<std::runtime_error> error(m, "Error");
  py::register_exception<surfdb::FormatError>(m, "FormatError", error.ptr());
  py::register_exception<surfdb::CadError>(m, "CadError", error.ptr());
  py::register_exception<surfdb::DegenerateGeometry>(m, "DegenerateGeometry", error.ptr());
  surfdb::python::bind_database(m);
  surfdb::python::bind_contact(m);
  surfdb::python::bind_convert(m);
  surfdb::python::bind_simulation(m);
  surfdb::python::bind_model(m);
}
