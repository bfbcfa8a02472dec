// Conversion for Python: a CAD face (STEP, IGES, BREP or NURBS text) to a surface database, with
// the options of `surfdb convert`, and the list of a CAD file's faces.
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

using Progress = std::function<void(std::uint64_t, std::uint64_t)>;

py::dict convert(const std::filesystem::path& input, const std::filesystem::path& output, std::uint32_t face,
                 std::pair<std::uint64_t, std::uint64_t> grid, std::pair<std::uint32_t, std::uint32_t> record,
                 bool float32, bool flip_normals, unsigned threads, const std::optional<Progress>& progress) {
  ConvertOptions o;
  o.grid = {grid.first, grid.second};
  o.record = {record.first, record.second};
  o.scalar = float32 ? ScalarType::f32 : ScalarType::f64;
  o.flip_normals = flip_normals;
  o.threads = threads;
  ConvertReport r;
  {
    py::gil_scoped_release released;
    const auto source = CadModel::load(input).face(face);
    ConvertProgress report;
    if (progress)
      report = [&](std::uint64_t done, std::uint64_t total) {
        py::gil_scoped_acquire held;
        (*progress)(done, total);
      };
    r = convert_surface(*source, o, output, report);
  }
  const RecordLayout& l = r.header.layout;
  return py::dict(py::arg("grid") = py::make_tuple(l.u_points, l.v_points),
                  py::arg("records") = l.data_records, py::arg("file_bytes") = l.file_bytes,
                  py::arg("invalid_points") = r.header.invalid_points,
                  py::arg("degenerate_points") = r.header.degenerate_points,
                  py::arg("seconds") = r.total_seconds);
}

py::list faces(const std::filesystem::path& input) {
  py::list out;
  const CadModel model = CadModel::load(input);
  for (std::uint32_t f = 1; f <= model.face_count(); ++f) {
    const FaceInfo i = model.face_info(f);
    out.append(py::dict(py::arg("face") = i.index, py::arg("surface_type") = i.surface_type,
                        py::arg("u_range") = py::make_tuple(i.bounds.u0, i.bounds.u1),
                        py::arg("v_range") = py::make_tuple(i.bounds.v0, i.bounds.v1),
                        py::arg("orientation") = i.orientation == FaceOrientation::reversed ? "reversed" : "forward",
                        py::arg("area") = i.area));
  }
  return out;
}

}  // namespace

void bind_convert(py::module_& m) {
  m.def("convert", &convert, py::arg("input"), py::arg("output"), py::arg("face") = 1u,
        py::arg("grid") = std::pair<std::uint64_t, std::uint64_t>{999, 999},
        py::arg("record") = std::pair<std::uint32_t, std::uint32_t>{27, 27}, py::arg("float32") = false,
        py::arg("flip_normals") = false, py::arg("threads") = 0u, py::arg("progress") = std::nullopt,
        "Samples face `face` (1-based) of a CAD file into a surface database written crash-safely at "
        "`output`; progress(done, total) is called after each row of records.");
  m.def("faces", &faces, py::arg("input"), "The faces of a CAD file, numbered as convert's `face`.");
}

}  // namespace surfdb::python
