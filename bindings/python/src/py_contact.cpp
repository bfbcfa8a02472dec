// Free-form contact for Python: mounts, body states and a contact pair evaluated at given poses,
// as another simulator's time loop calls it. SI units (m, s, rad), world axes.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "surfdb/contact/contact_newton.hpp"

namespace py = pybind11;

namespace surfdb::python {

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

  py::class_<FreeformContact>(m, "Contact", "Contact between surface i on body i and surface j on body j, detected on "
                                            "the lookup tables by a warm-started Newton solve.")
      .def(py::init([](const py::object& surface_i, const py::object& surface_j, const SurfaceMount& mount_i,
                       const SurfaceMount& mount_j, std::pair<unsigned, unsigned> window_i,
                       std::pair<unsigned, unsigned> window_j) {
             ContactOptions o;
             o.window_i = {window_i.first, window_i.second};
             o.window_j = {window_j.first, window_j.second};
             return FreeformContact(database_of(surface_i), mount_i, database_of(surface_j), mount_j, o);
           }),
           py::arg("surface_i"), py::arg("surface_j"), py::arg("mount_i") = SurfaceMount{},
           py::arg("mount_j") = SurfaceMount{}, py::arg("window_i") = std::pair{5u, 5u},
           py::arg("window_j") = std::pair{5u, 5u})
      .def("evaluate", &FreeformContact::evaluate, py::arg("body_i"), py::arg("body_j"),
           py::call_guard<py::gil_scoped_release>(), "Detection at the given body states; never raises for "
                                                     "numerical trouble, the status says what happened.")
      .def("request_global_search", &FreeformContact::request_global_search)
      .def_property_readonly("stats_i", [](const FreeformContact& c) { return window_stats(c.binding_i()); })
      .def_property_readonly("stats_j", [](const FreeformContact& c) { return window_stats(c.binding_j()); });
}

}  // namespace surfdb::python
