// Contact for Python: mounts, body states and a contact pair of tables, surface sets or analytic
// shapes evaluated at given poses, as another simulator's time loop calls it. SI units (m, s, rad), world axes.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "py_run.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/multibody/contact_group.hpp"
#include "surfdb/multibody/contact_pair.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

constexpr const char* kContactDoc =
    "Contact between surface i on body i and surface j on body j, at body states given per call. A surface\n"
    "is a Database (a table), or a dict of a scenario [[surface]] entry's keys without name, body, origin,\n"
    "rotation and placement: {'table': 'plate.sdbs'} (a surface set or a table, faces=[...] to choose), {'sphere_radius': r},\n"
    "{'plane_normal': n}, {'box_size': s}, {'cylinder_radius': r, 'cylinder_length': l}, {'cavity_radius':\n"
    "r}, ... (docs/scenario.md); its paths relative to folder (default: the current one). Two tables are\n"
    "detected by the warm-started common-normal solve with windows window_i, window_j; otherwise the pairs\n"
    "a scene's contact takes: a table or set with another, a sphere (surface i) with any surface.";

// A contact of two tables (FreeformContact, the seed method as the C API runs it), or of any two
// surfaces the detector table pairs (ContactPair, contact_group.hpp's pair_spec).
struct PyContact {
  std::optional<FreeformContact> tables;
  std::optional<ContactPair> pair;

  ContactResult evaluate(const BodyState& i, const BodyState& j) {
    if (tables) return tables->evaluate(i, j);
    const std::span<const ContactResult> r = pair->detect(i, j);
    std::size_t best = 0;  // the deepest active, else the nearest
    for (std::size_t k = 1; k < r.size(); ++k) {
      const bool a = pair->active(k), b = pair->active(best);
      if (a != b ? a : a ? r[k].indentation > r[best].indentation : r[k].gap < r[best].gap) best = k;
    }
    return r.empty() ? ContactResult{} : r[best];
  }

  std::vector<ContactResult> points(const BodyState& i, const BodyState& j) {
    if (tables) {
      const ContactResult r = tables->evaluate(i, j);
      return r.in_contact() ? std::vector{r} : std::vector<ContactResult>{};
    }
    const std::span<const ContactResult> r = pair->detect(i, j);
    std::vector<ContactResult> out;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (pair->active(k)) out.push_back(r[k]);
    return out;
  }

  void request_global_search() {
    if (tables) tables->request_global_search();
  }
};

// Surface `name` on body `body` from a Database or a [[surface]] dict (parsed as a scene's).
ContactSurface surface_of(const py::object& o, const char* name, int body, const SurfaceMount& mount,
                          std::pair<unsigned, unsigned> window, const std::optional<std::string>& folder) {
  ContactSurface s;
  if (py::isinstance<py::dict>(o)) {
    py::dict entry;
    for (const auto& [key, value] : o.cast<py::dict>()) {
      const std::string k = key.cast<std::string>();
      if (k == "name" || k == "body" || k == "origin" || k == "rotation" || k == "placement")
        throw std::invalid_argument(std::string(name) + ": '" + k + "' is the Contact's to give (mount_i, mount_j), not the surface's");
      entry[key] = value;
    }
    entry["name"] = name;
    entry["body"] = "ground";
    py::dict scenario;
    scenario["simulation"] = py::dict(py::arg("end_time") = 1.0);
    scenario["body"] = py::make_tuple(py::dict(py::arg("name") = "b", py::arg("mass") = 1.0,  // a scene needs one
                                               py::arg("inertia") = py::make_tuple(1.0, 1.0, 1.0),
                                               py::arg("position") = py::make_tuple(0.0, 0.0, 0.0)));
    scenario["surface"] = py::make_tuple(entry);
    s = model_from_dict(scenario, folder)->surfaces.at(0);
  } else {
    s.kind = ContactSurface::Kind::table;
    s.tables = TableSet::single(database_of(o));
    s.window = {window.first, window.second};
  }
  s.name = name;
  s.body = body;
  s.mount = mount;
  return s;
}

PyContact make_contact(const py::object& surface_i, const py::object& surface_j, const SurfaceMount& mount_i,
                       const SurfaceMount& mount_j, std::pair<unsigned, unsigned> window_i,
                       std::pair<unsigned, unsigned> window_j, const std::optional<std::string>& folder) {
  PyContact c;
  if (!py::isinstance<py::dict>(surface_i) && !py::isinstance<py::dict>(surface_j)) {
    ContactOptions o;
    o.window_i = {window_i.first, window_i.second};
    o.window_j = {window_j.first, window_j.second};
    c.tables.emplace(database_of(surface_i), mount_i, database_of(surface_j), mount_j, o);
    return c;
  }
  const std::vector<ContactSurface> surfaces{surface_of(surface_i, "surface_i", 0, mount_i, window_i, folder),
                                             surface_of(surface_j, "surface_j", 1, mount_j, window_j, folder)};
  MultibodyModel bodies;
  bodies.bodies = {{"i", 1.0, Eigen::Matrix3d::Identity()}, {"j", 1.0, Eigen::Matrix3d::Identity()}};
  ContactSpec spec = pair_spec(ContactGroupSpec{.name = "contact"}, surfaces, bodies, 0, 1);
  // Every call answers, apart or not: the gap is wanted here, not only forces.
  if (auto* f = std::get_if<FreeformSurfaces>(&spec.geometry)) f->options.skip_while_apart = false;
  if (auto* s = std::get_if<SphereOnTables>(&spec.geometry)) s->options.skip_while_apart = false;
  c.pair.emplace(std::move(spec));
  return c;
}

}  // namespace

void bind_contact(py::module_& m) {
  py::class_<SurfaceMount>(m, "Mount", "Where a surface sits in its body: offset (m, body axes), rotation (surface to body).")
      .def(py::init([](const Eigen::Vector3d& offset, const Eigen::Matrix3d& rotation) {
             return SurfaceMount{offset, rotation};
           }),
           py::arg("offset") = Eigen::Vector3d::Zero(), py::arg("rotation") = Eigen::Matrix3d::Identity())
      .def_readwrite("offset", &SurfaceMount::offset)
      .def_readwrite("rotation", &SurfaceMount::rotation);

  py::class_<BodyState>(m, "BodyState", "A body's pose and velocities: position of its reference point, rotation "
                                        "(body to world), velocity and angular velocity, world axes, SI.")
      .def(py::init([](const Eigen::Vector3d& position, const Eigen::Matrix3d& rotation, const Eigen::Vector3d& velocity,
                       const Eigen::Vector3d& angular_velocity) {
             BodyState s;
             s.pose = {position, rotation};
             s.velocity = velocity;
             s.angular_velocity = angular_velocity;
             return s;
           }),
           py::arg("position") = Eigen::Vector3d::Zero(), py::arg("rotation") = Eigen::Matrix3d::Identity(),
           py::arg("velocity") = Eigen::Vector3d::Zero(), py::arg("angular_velocity") = Eigen::Vector3d::Zero())
      .def_property("position", [](const BodyState& s) { return s.pose.r; },
                    [](BodyState& s, const Eigen::Vector3d& r) { s.pose.r = r; })
      .def_property("rotation", [](const BodyState& s) { return s.pose.A; },
                    [](BodyState& s, const Eigen::Matrix3d& A) { s.pose.A = A; })
      .def_readwrite("velocity", &BodyState::velocity)
      .def_readwrite("angular_velocity", &BodyState::angular_velocity);

  py::class_<ContactResult>(m, "ContactResult", "A contact detection: points, common normal, indentation and rates.")
      .def_property_readonly("status", [](const ContactResult& r) { return contact_status_name(r.status); })
      .def_property_readonly("touching", &ContactResult::in_contact)
      .def_readonly("iterations", &ContactResult::iterations)
      .def_property_readonly("uv_i", [](const ContactResult& r) { return std::pair{r.u_i, r.v_i}; })
      .def_property_readonly("uv_j", [](const ContactResult& r) { return std::pair{r.u_j, r.v_j}; })
      .def_readonly("point_i", &ContactResult::point_i, "contact point on surface i, world, m")
      .def_readonly("point_j", &ContactResult::point_j, "contact point on surface j, world, m")
      .def_readonly("normal", &ContactResult::normal, "unit, out of j's material: the force on i acts along it")
      .def_readonly("indentation", &ContactResult::indentation, "m, 0 unless touching")
      .def_readonly("gap", &ContactResult::gap, "m, when separated")
      .def_readonly("indentation_rate", &ContactResult::indentation_rate, "m/s, positive while approaching")
      .def_readonly("tangential_velocity", &ContactResult::tangential_velocity, "of i relative to j, m/s")
      .def_readonly("curvature_i", &ContactResult::curvature_i, "mean curvature at the point on i, 1/m")
      .def_readonly("curvature_j", &ContactResult::curvature_j, "mean curvature at the point on j, 1/m");

  py::class_<PyContact>(m, "Contact", kContactDoc)
      .def(py::init(&make_contact), py::arg("surface_i"), py::arg("surface_j"), py::arg("mount_i") = SurfaceMount{},
           py::arg("mount_j") = SurfaceMount{}, py::arg("window_i") = std::pair{5u, 5u},
           py::arg("window_j") = std::pair{5u, 5u}, py::arg("folder") = py::none())
      .def("evaluate", &PyContact::evaluate, py::arg("body_i"), py::arg("body_j"),
           py::call_guard<py::gil_scoped_release>(),
           "Detection at the given body states: the deepest point in contact, else the nearest. Never raises for\n"
           "numerical trouble: the status says what happened.")
      .def("points", &PyContact::points, py::arg("body_i"), py::arg("body_j"), py::call_guard<py::gil_scoped_release>(),
           "Detection at the given body states: every point in contact (a ball on a plate's edge and face, in a\n"
           "groove, on a hole's rim), each with its own normal and indentation; empty when apart.")
      .def("request_global_search", &PyContact::request_global_search)
      .def_property_readonly("stats_i", [](const PyContact& c) { return c.tables ? window_stats(c.tables->binding_i()) : py::object(py::none()); },
                             "Surface i's storage window (two tables), else None.")
      .def_property_readonly("stats_j", [](const PyContact& c) { return c.tables ? window_stats(c.tables->binding_j()) : py::object(py::none()); },
                             "Surface j's storage window (two tables), else None.");
}

}  // namespace surfdb::python
