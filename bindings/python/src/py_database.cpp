// Database and Binding for Python: queries and projections over whole numpy arrays in one call,
// the loop in C++ with the GIL released, so a million points cost what they cost in C++.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <mutex>
#include <optional>

#include "bindings.hpp"
#include "surfdb/table/projection.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Shape = std::vector<py::ssize_t>;

// The read-only model: a mapped database (its node tree built on the first global projection).
struct DatabaseHandle {
  explicit DatabaseHandle(std::shared_ptr<const Database> d) : db(std::move(d)) {}
  std::shared_ptr<const Database> db;
};

// Per-body data: one storage window. The mutex makes concurrent Python threads on one binding
// safe (they take turns); distinct bindings run in parallel.
struct BindingHandle {
  std::shared_ptr<DatabaseHandle> owner;
  SurfaceBinding binding;
  std::mutex busy;
};

Shape shape_of(const py::array& a) { return Shape(a.shape(), a.shape() + a.ndim()); }

Shape with_three(Shape s) {
  s.push_back(3);
  return s;
}

// Output arrays for n points of the given shape, and a writer of one point into them.
struct PointArrays {
  Doubles u, v, p, n, t, b, k1, k2;
  py::array_t<std::uint8_t> status;
  py::array_t<bool> degenerate;

  explicit PointArrays(const Shape& s)
      : u(s), v(s), p(with_three(s)), n(with_three(s)), t(with_three(s)), b(with_three(s)), k1(s), k2(s),
        status(s), degenerate(s) {}

  struct Writer {
    double *u, *v, *p, *n, *t, *b, *k1, *k2;
    std::uint8_t* status;
    bool* degenerate;
    void operator()(py::ssize_t i, const SurfacePoint& s) const {
      u[i] = s.u, v[i] = s.v, k1[i] = s.k1, k2[i] = s.k2;
      for (int c = 0; c < 3; ++c) p[3 * i + c] = s.p[c], n[3 * i + c] = s.n[c], t[3 * i + c] = s.t[c], b[3 * i + c] = s.b[c];
      status[i] = static_cast<std::uint8_t>(s.status);
      degenerate[i] = s.degenerate;
    }
  };
  Writer writer() {
    return {u.mutable_data(), v.mutable_data(), p.mutable_data(), n.mutable_data(), t.mutable_data(),
            b.mutable_data(), k1.mutable_data(), k2.mutable_data(), status.mutable_data(), degenerate.mutable_data()};
  }
  py::dict dict() const {
    py::dict d;
    d["u"] = u, d["v"] = v, d["p"] = p, d["n"] = n, d["t"] = t, d["b"] = b, d["k1"] = k1, d["k2"] = k2;
    d["status"] = status, d["degenerate"] = degenerate;
    return d;
  }
};

// Calls answer(i, ud[i], vd[i]) for every point, with the GIL released and the binding held, each
// query hinted kPrefetchAhead points before it comes (random points then overlap their misses).
template <class Answer>
void for_each_point(BindingHandle& h, const Doubles& u, const Doubles& v, const char* what, Answer answer) {
  if (shape_of(u) != shape_of(v)) throw std::invalid_argument(std::string(what) + ": u and v must have the same shape");
  const double *ud = u.data(), *vd = v.data();
  const py::ssize_t count = u.size();
  py::gil_scoped_release released;
  std::lock_guard lock(h.busy);
  constexpr py::ssize_t ahead = SurfaceBinding::kPrefetchAhead;
  for (py::ssize_t i = 0; i < count; ++i) {
    if (i + ahead < count) h.binding.prefetch(ud[i + ahead], vd[i + ahead]);
    answer(i, ud[i], vd[i]);
  }
}

py::dict query(BindingHandle& h, const Doubles& u, const Doubles& v) {
  PointArrays out(shape_of(u));
  const auto write = out.writer();
  for_each_point(h, u, v, "query", [&](py::ssize_t i, double ui, double vi) { write(i, h.binding.query(ui, vi)); });
  return out.dict();
}

py::dict query_d1(BindingHandle& h, const Doubles& u, const Doubles& v) {
  const Shape s = shape_of(u);
  Doubles uo(s), vo(s), p(with_three(s)), dp_du(with_three(s)), dp_dv(with_three(s)), n(with_three(s));
  py::array_t<std::uint8_t> status(s);
  double *uw = uo.mutable_data(), *vw = vo.mutable_data(), *pw = p.mutable_data(), *uw3 = dp_du.mutable_data(),
         *vw3 = dp_dv.mutable_data(), *nw = n.mutable_data();
  std::uint8_t* sw = status.mutable_data();
  for_each_point(h, u, v, "query_d1", [&](py::ssize_t i, double ui, double vi) {
    const SurfaceD1 q = h.binding.query_d1(ui, vi);
    uw[i] = q.u, vw[i] = q.v, sw[i] = static_cast<std::uint8_t>(q.status);
    for (int c = 0; c < 3; ++c)
      pw[3 * i + c] = q.p[c], uw3[3 * i + c] = q.dp_du[c], vw3[3 * i + c] = q.dp_dv[c], nw[3 * i + c] = q.n[c];
  });
  py::dict d;
  d["u"] = uo, d["v"] = vo, d["p"] = p, d["dp_du"] = dp_du, d["dp_dv"] = dp_dv, d["n"] = n, d["status"] = status;
  return d;
}

// Rows of x y z; each from the previous answer (the first from `guess` when given), falling back
// to a global search when that does not converge onto a valid cell: `surfdb project --batch`.
py::dict project(BindingHandle& h, const Doubles& points, std::optional<std::pair<double, double>> guess) {
  if (points.ndim() < 1 || points.shape(points.ndim() - 1) != 3)
    throw std::invalid_argument("project: points must have shape (..., 3)");
  Shape shape = shape_of(points);
  shape.pop_back();
  PointArrays out(shape);
  Doubles distance(shape);
  py::array_t<bool> converged(shape);
  const auto write = out.writer();
  double* dist = distance.mutable_data();
  bool* conv = converged.mutable_data();
  const double* x = points.data();
  const py::ssize_t count = points.size() / 3;
  {
    py::gil_scoped_release released;
    std::lock_guard lock(h.busy);
    for (py::ssize_t i = 0; i < count; ++i) {
      const Eigen::Vector3d xi(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
      const Projection p = project_near(h.binding, xi, guess);
      guess = std::pair{p.point.u, p.point.v};
      write(i, p.point);
      dist[i] = p.distance;
      conv[i] = p.converged;
    }
  }
  py::dict d = out.dict();
  d["distance"] = distance;
  d["converged"] = converged;
  return d;
}

py::dict info(const DatabaseHandle& h) {
  const Header& hd = h.db->header();
  const RecordLayout& l = hd.layout;
  py::dict d;
  d["path"] = h.db->path();
  d["grid"] = py::make_tuple(l.u_points, l.v_points);
  d["record"] = py::make_tuple(l.u_record_points, l.v_record_points);
  d["records"] = py::make_tuple(l.u_records, l.v_records);
  d["u_range"] = py::make_tuple(hd.u0, hd.u1);
  d["v_range"] = py::make_tuple(hd.v0, hd.v1);
  d["periodic"] = py::make_tuple(hd.periodic_u, hd.periodic_v);
  d["scalar"] = scalar_name(hd.scalar);
  d["length_unit"] = length_unit_name(hd.length_unit);
  d["meters_per_unit"] = hd.meters_per_unit;
  d["invalid_points"] = hd.invalid_points;
  d["degenerate_points"] = hd.degenerate_points;
  d["source"] = py::dict(py::arg("kind") = hd.source.kind, py::arg("name") = hd.source.name,
                         py::arg("surface_type") = hd.source.surface_type, py::arg("face") = hd.source.face_index);
  d["file_bytes"] = l.file_bytes;
  return d;
}

Residency residency_named(const std::string& name) {
  if (name == "direct") return Residency::direct_mapping;
  if (name == "copy") return Residency::window_copy;
  if (name == "full") return Residency::full_load;
  throw std::invalid_argument("residency must be 'direct', 'copy' or 'full', not '" + name + "'");
}

Interpolation interpolation_named(const std::string& name) {
  if (name == "bilinear") return Interpolation::bilinear;
  if (name == "curved") return Interpolation::curved;
  throw std::invalid_argument("interpolation must be 'bilinear' or 'curved', not '" + name + "'");
}

}  // namespace

std::shared_ptr<const Database> database_of(const py::object& o) {
  return o.cast<std::shared_ptr<DatabaseHandle>>()->db;
}

py::dict window_stats(const SurfaceBinding& b) {
  const WindowStats& s = b.window().stats();
  return py::dict(py::arg("updates") = s.updates, py::arg("records_read") = s.records_read,
                  py::arg("outside_reads") = s.outside_reads, py::arg("bytes_resident") = s.bytes_resident);
}

void bind_database(py::module_& m) {
  py::class_<DatabaseHandle, std::shared_ptr<DatabaseHandle>>(m, "Database",
      "A surface database (.sdb), memory-mapped read-only; shared by any number of bindings.")
      .def(py::init([](const std::filesystem::path& path) {
             return std::make_shared<DatabaseHandle>(Database::open(path));
           }),
           py::arg("path"), "Maps the file and validates its header; raises FormatError when it is unusable.")
      .def_property_readonly("info", &info, "Grid, records, domain, periodicity, unit and source, as a dict.")
      .def("verify", [](const DatabaseHandle& h) { return h.db->first_damaged_record(); },
           py::call_guard<py::gil_scoped_release>(),
           "Checks every record's checksum and values; returns 0 when all are intact, else the number of the\n"
           "first damaged data record (data records are numbered from 1, as `surfdb verify` names them).")
      .def("binding", [](const std::shared_ptr<DatabaseHandle>& h, std::optional<std::pair<unsigned, unsigned>> window,
                         const std::string& residency, const std::string& interpolation) {
             const RecordLayout& l = h->db->layout();
             // The whole table by default: scattered queries would move a small window every time.
             const WindowSize size = window ? WindowSize{window->first, window->second}
                                            : WindowSize{static_cast<std::uint32_t>(l.u_records),
                                                         static_cast<std::uint32_t>(l.v_records)};
             return std::make_unique<BindingHandle>(
                 h, SurfaceBinding(h->db, size, residency_named(residency), interpolation_named(interpolation)));
           },
           py::arg("window") = std::nullopt, py::arg("residency") = "direct", py::arg("interpolation") = "bilinear",
           "A binding with its own storage window of window[0] x window[1] records (None: the whole table, for "
           "scattered queries; a body following a contact point wants a small window, e.g. (5, 5)).");

  py::class_<BindingHandle>(m, "Binding", "One body's use of a database: a storage window that follows its queries.")
      .def("query_arrays", &query, py::arg("u"), py::arg("v"),
           "Point and frame at every (u[k], v[k]) (arrays of one shape, or scalars), as a dict of arrays.")
      .def("query_d1_arrays", &query_d1, py::arg("u"), py::arg("v"),
           "Point, first derivatives and unit normal at every (u[k], v[k]), as a dict of arrays.")
      .def("project_arrays", &project, py::arg("points"), py::arg("guess") = std::nullopt,
           "Closest surface points to points[..., 3], each started from the previous answer.")
      .def_property_readonly("stats", [](const BindingHandle& h) { return window_stats(h.binding); }, "Window updates, records read, bytes resident.");
}

}  // namespace surfdb::python
