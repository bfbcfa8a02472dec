// Model, Data and the stepping functions for Python, as MuJoCo's mj_step(m, d): a model compiled
// once from a scenario file, any number of runs (Data) of it, stepped with the GIL released so
// that Data objects step in parallel threads. The state is read and written in place through
// numpy arrays over the Data's own state vector.
#include <pybind11/numpy.h>
#include <pybind11/stl/filesystem.h>
#include <pybind11/stl.h>

#include <filesystem>

#include "bindings.hpp"
#include "py_run.hpp"
#include "surfdb/multibody/contact_points.hpp"
#include "surfdb/multibody/data.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

struct PyModel {
  std::shared_ptr<const Model> model;
};

struct PyData {
  std::unique_ptr<Data> data;
  std::vector<ContactPoint> points;  // scratch of contacts()
};

int body_count(const Data& d) { return static_cast<int>(d.model().multibody.bodies.size()); }

// Columns [first, first + width) of every body's 13 numbers, as a (bodies, width) view that
// keeps the Data alive and writes into it.
py::array_t<double> body_columns(py::object self, int first, int width) {
  PyData& d = self.cast<PyData&>();
  const auto stride = static_cast<py::ssize_t>(sizeof(double) * kBodyStateSize);
  return py::array_t<double>({static_cast<py::ssize_t>(body_count(*d.data)), static_cast<py::ssize_t>(width)},
                             {stride, static_cast<py::ssize_t>(sizeof(double))}, d.data->state().data() + first, self);
}

void set_body_columns(PyData& d, int first, int width, const py::array_t<double, py::array::c_style | py::array::forcecast>& v) {
  const int n = body_count(*d.data);
  if (v.ndim() != 2 || v.shape(0) != n || v.shape(1) != width)
    throw std::invalid_argument("expected an array of shape (" + std::to_string(n) + ", " + std::to_string(width) + ")");
  double* y = d.data->state().data();
  for (int b = 0; b < n; ++b)
    for (int c = 0; c < width; ++c) y[b * kBodyStateSize + first + c] = v.at(b, c);
}

// The state holds w' in body axes: world axes are A w'.
py::array_t<double> angular_velocity(const PyData& d) {
  const int n = body_count(*d.data);
  py::array_t<double> w({n, 3});
  for (int b = 0; b < n; ++b) {
    const BodyStateView s = body_view(d.data->state().data(), b);
    const Eigen::Vector3d world = s.orientation().toRotationMatrix() * s.w_body();
    for (int c = 0; c < 3; ++c) w.mutable_at(b, c) = world[c];
  }
  w.attr("setflags")(py::arg("write") = false);
  return w;
}

void set_angular_velocity(PyData& d, const py::array_t<double, py::array::c_style | py::array::forcecast>& v) {
  const int n = body_count(*d.data);
  if (v.ndim() != 2 || v.shape(0) != n || v.shape(1) != 3)
    throw std::invalid_argument("expected an array of shape (" + std::to_string(n) + ", 3)");
  double* y = d.data->state().data();
  for (int b = 0; b < n; ++b) {
    const Eigen::Matrix3d A = body_view(y, b).orientation().toRotationMatrix();
    const Eigen::Vector3d body = A.transpose() * Eigen::Vector3d(v.at(b, 0), v.at(b, 1), v.at(b, 2));
    for (int c = 0; c < 3; ++c) y[b * kBodyStateSize + 10 + c] = body[c];
  }
}

py::dict contacts(PyData& d) {
  active_contact_points(d.data->simulation(), d.points);
  const auto n = static_cast<py::ssize_t>(d.points.size());
  py::array_t<int> pair(n);
  py::array_t<double> point({n, py::ssize_t{3}}), normal({n, py::ssize_t{3}}), force({n, py::ssize_t{3}}), depth(n);
  for (py::ssize_t k = 0; k < n; ++k) {
    const ContactPoint& p = d.points[static_cast<std::size_t>(k)];
    pair.mutable_at(k) = p.contact;
    depth.mutable_at(k) = p.indentation;
    for (py::ssize_t c = 0; c < 3; ++c) {
      point.mutable_at(k, c) = p.point[c];
      normal.mutable_at(k, c) = p.normal[c];
      force.mutable_at(k, c) = p.force[c];
    }
  }
  return py::dict(py::arg("pair") = pair, py::arg("point") = point, py::arg("normal") = normal,
                  py::arg("indentation") = depth, py::arg("force") = force);
}

Data& data_of(const PyModel& m, PyData& d) {
  if (d.data->shared_model() != m.model) throw std::invalid_argument("the data was made from another model");
  return *d.data;
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<PyModel>(m, "Model", "A scenario compiled once (docs/scenario.md), read-only, shared by any number of Data.")
      .def(py::init([](const std::filesystem::path& path, const std::optional<py::dict>& set,
                       const std::optional<std::string>& folder) {
             if (folder) throw std::invalid_argument("folder= is for a scenario dict: a file's paths are relative to its own folder");
             return PyModel{load_model(path, overrides(set))};
           }),
           py::arg("scenario"), py::arg("set") = py::none(), py::arg("folder") = py::none(),
           "Reads a scenario file; set={'contact.ball-cup.stiffness': 4e9} changes its values first, as\n"
           "`surfdb simulate --set` does.")
      .def(py::init([](const py::dict& scenario, const std::optional<py::dict>& set, const std::optional<std::string>& folder) {
             return PyModel{model_from_dict(scenario, folder, overrides(set))};
           }),
           py::arg("scenario"), py::arg("set") = py::none(), py::arg("folder") = py::none(),
           "Builds a model in code: the scenario's tables as a dict, as the file would hold them\n"
           "({'simulation': {...}, 'body': [{...}, ...], 'surface': [...], 'contact': [...]}; numpy\n"
           "arrays welcome); tables' and meshes' paths relative to folder (default: the current one).")
      .def_property_readonly("body_names", [](const PyModel& p) {
        std::vector<std::string> names;
        for (const RigidBody& b : p.model->multibody.bodies) names.push_back(b.name);
        return names;
      })
      .def_property_readonly("contact_names", [](const PyModel& p) {
        std::vector<std::string> names;
        for (const ContactGroupSpec& c : p.model->contacts) names.push_back(c.name);
        return names;
      })
      .def_property_readonly("end_time", [](const PyModel& p) { return p.model->run.end_time; });

  py::class_<PyData>(m, "Data", "One run of a Model: its state, contacts, statistics and integrator.")
      .def(py::init([](const PyModel& model) { return PyData{std::make_unique<Data>(model.model), {}}; }), py::arg("model"))
      .def_property_readonly("time", [](const PyData& d) { return d.data->time(); })
      .def_property("position", [](py::object self) { return body_columns(self, 0, 3); },
                    [](PyData& d, const py::array_t<double, py::array::c_style | py::array::forcecast>& v) { set_body_columns(d, 0, 3, v); },
                    "(bodies, 3) centres of mass, m, world; a view: writes go into the run")
      .def_property("orientation", [](py::object self) { return body_columns(self, 3, 4); },
                    [](PyData& d, const py::array_t<double, py::array::c_style | py::array::forcecast>& v) { set_body_columns(d, 3, 4, v); },
                    "(bodies, 4) Euler parameters e0, e1, e2, e3 (body to world); a view")
      .def_property("velocity", [](py::object self) { return body_columns(self, 7, 3); },
                    [](PyData& d, const py::array_t<double, py::array::c_style | py::array::forcecast>& v) { set_body_columns(d, 7, 3, v); },
                    "(bodies, 3) m/s, world; a view")
      .def_property("angular_velocity", &angular_velocity, &set_angular_velocity,
                    "(bodies, 3) rad/s, world axes: a read-only copy (the state holds body axes); assign a whole array to set it")
      .def_property_readonly("state", [](py::object self) {
             PyData& d = self.cast<PyData&>();
             std::vector<double>& y = d.data->state();
             return py::array_t<double>({static_cast<py::ssize_t>(y.size())}, {static_cast<py::ssize_t>(sizeof(double))}, y.data(), self);
           }, "The whole state vector (per body 13 numbers, then the contacts' dissipated energies ...); a view")
      .def("contacts", &contacts, "The contact points carrying force at the last evaluation: a dict of arrays\n"
                                  "pair (the contact's index in Model.contact_names), point, normal, indentation (m), force (N, on body i)")
      .def_property_readonly("energy", [](PyData& d) {
        return py::dict(py::arg("initial") = d.data->statistics().initial_energy,
                        py::arg("mechanical") = d.data->mechanical_energy(),
                        py::arg("dissipated") = d.data->dissipated_energy());
      }, "J: the initial and present mechanical energy, and the energy the contacts dissipated")
      .def_property_readonly("status", [](PyData& d) { return to_string(d.data->statistics().health.status()); })
      .def_property_readonly("initial_penetrations", [](const PyData& d) {
        py::list touching;
        for (const InitialPenetration& p : d.data->initial_penetrations())
          touching.append(py::dict(py::arg("contact") = p.contact, py::arg("surface_i") = p.surface_i,
                                   py::arg("surface_j") = p.surface_j, py::arg("depth") = p.depth,
                                   py::arg("tolerance") = p.tolerance));
        return touching;
      }, "Contacts touching at t = 0 within their tolerance (deeper ones refuse the Data): dicts of\n"
         "contact, surface_i, surface_j, depth (m), tolerance (m)")
      .def("summary", [](PyData& d) { return summary(*d.data); }, "What simulate() returns, for the run so far");

  m.def("step", [](const PyModel& model, PyData& d) {
        Data& data = data_of(model, d);
        py::gil_scoped_release release;
        return step(*model.model, data);
      }, py::arg("model"), py::arg("data"), "One step of the model's integrator; False when the run cannot go on (see status).");
  m.def("advance", [](const PyModel& model, PyData& d, double t) {
        Data& data = data_of(model, d);
        py::gil_scoped_release release;
        return advance(*model.model, data, t);
      }, py::arg("model"), py::arg("data"), py::arg("time"), "Steps to `time` (s); False when the run stopped before.");
  m.def("reset", [](const PyModel& model, PyData& d) {
        Data& data = data_of(model, d);
        py::gil_scoped_release release;
        reset(*model.model, data);
      }, py::arg("model"), py::arg("data"), "Back to the initial state at t = 0: the run that follows is the first one's.");
  m.def("restore", [](const PyModel& model, PyData& d, double t, const py::array_t<double, py::array::c_style | py::array::forcecast>& state) {
        Data& data = data_of(model, d);
        const std::vector<double> y(state.data(), state.data() + state.size());
        py::gil_scoped_release release;
        restore(*model.model, data, t, y);
      }, py::arg("model"), py::arg("data"), py::arg("time"), py::arg("state"),
      "Starts afresh from a saved (time, Data.state): contacts' memories and statistics too, so that\n"
      "a state restored twice runs on alike.");
  py::class_<Snapshot>(m, "Snapshot", "Where a run was, for restore(model, data, snapshot): how it got there, not a copy.")
      .def_property_readonly("time", [](const Snapshot& s) { return s.time; }, "s")
      .def_property_readonly("steps", [](const Snapshot& s) { return s.steps; }, "accepted steps from the run's start");
  m.def("save", [](const PyModel& model, PyData& d) { return save(*model.model, data_of(model, d)); },
        py::arg("model"), py::arg("data"),
        "Where the run is now, to come back to exactly with restore(model, data, snapshot); the run goes on untouched.");
  m.def("restore", [](const PyModel& model, PyData& d, const Snapshot& snapshot) {
        Data& data = data_of(model, d);
        py::gil_scoped_release release;
        restore(*model.model, data, snapshot);
      }, py::arg("model"), py::arg("data"), py::arg("snapshot"),
      "Back to a snapshot (of this model; this Data's or another's) by running its steps again from\n"
      "the run's start (t = 0 or the last restore of a time and a state): the run on from here is the\n"
      "one that went on from the save, bit for bit. Costs those steps.");
}

}  // namespace surfdb::python
