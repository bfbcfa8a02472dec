// surfdb.simulate: a scenario file run to its end by the library's run (data.hpp), the same
// steps and numbers as `surfdb simulate`, with an optional Python callback at each output instant.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>

#include "bindings.hpp"
#include "py_run.hpp"
#include "surfdb/multibody/initial_penetration.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace py = pybind11;

namespace surfdb::python {
namespace {

using Output = std::function<void(double, py::array_t<double>)>;

// Hands each output instant to Python as (t, bodies), bodies a (count, 13) array (a copy).
class PythonObserver : public RunObserver {
 public:
  explicit PythonObserver(Output output) : output_(std::move(output)) {}
  void output(const Simulation& sim, double t, const double* y, double) override {
    if (!output_) return;
    const auto bodies = static_cast<py::ssize_t>(sim.model().bodies.size());
    py::array_t<double> state({bodies, static_cast<py::ssize_t>(kBodyStateSize)});
    std::copy(y, y + bodies * kBodyStateSize, state.mutable_data());
    output_(t, state);
  }

 private:
  Output output_;
};

py::dict simulate(const std::string& path, std::optional<double> end_time, const Output& output,
                  const std::optional<py::dict>& set) {
  std::shared_ptr<Model> model = load_model(path, overrides(set));
  if (end_time) {
    if (!(*end_time > 0) || !std::isfinite(*end_time)) throw std::invalid_argument("end_time must be positive");
    model->run.end_time = *end_time;
  }
  Data data(model);
  PythonObserver observer(output);
  run(*model, data, observer);
  return summary(data);
}

py::object time_or_none(double t) { return std::isnan(t) ? py::object(py::none()) : py::float_(t); }

}  // namespace

std::vector<std::string> overrides(const std::optional<py::dict>& set) {
  std::vector<std::string> out;
  if (set)
    for (const auto& [key, value] : *set) {
      // A vector's numbers as floats, as the file's (an int where a float stood changes its kind).
      const bool vector = !py::isinstance<py::str>(value) && py::hasattr(value, "__iter__");
      py::list numbers;
      if (vector)
        for (const py::handle& e : value) numbers.append(py::float_(py::reinterpret_borrow<py::object>(e)));
      out.push_back(key.cast<std::string>() + "=" + toml_value(vector ? numbers : value));
    }
  return out;
}

py::dict summary(Data& data) {
  const RunStatistics& run = data.statistics();
  py::list contacts;
  for (const ContactGroup& g : data.simulation().contacts()) {
    const GroupStatistics& c = g.statistics();
    contacts.append(py::dict(py::arg("name") = g.name(), py::arg("first_contact_time") = time_or_none(c.first_contact_time),
                             py::arg("impacts") = c.impacts, py::arg("max_indentation") = c.max_indentation,
                             py::arg("solver_failures") = c.solver_failures, py::arg("pairs_touched") = c.pairs_touched,
                             py::arg("max_points") = c.max_points, py::arg("deep_appearances") = c.deep_appearances));
  }
  py::list warnings;
  for (const RunWarning& w : run.health.warnings())
    warnings.append(py::dict(py::arg("kind") = to_string(w.kind), py::arg("subject") = w.subject,
                             py::arg("count") = w.count, py::arg("first_time") = w.first_time,
                             py::arg("worst") = w.worst, py::arg("message") = run.health.describe(w)));
  py::dict s;
  s["status"] = to_string(run.health.status());
  s["warnings"] = warnings;
  s["end_time"] = run.end_time;
  s["steps"] = run.steps;
  s["rhs_evaluations"] = run.rhs_evaluations;
  s["integrator_failures"] = run.failures;
  s["energy"] = py::dict(py::arg("initial") = run.initial_energy, py::arg("final") = data.mechanical_energy(),
                         py::arg("dissipated") = data.dissipated_energy());
  s["constraint_drift"] = run.constraint_drift;
  s["contacts"] = contacts;
  return s;
}

void bind_simulation(py::module_& m) {
  py::register_exception<ScenarioError>(m, "ScenarioError", m.attr("Error").ptr());
  // Bodies placed with surfaces inside each other: a scenario error too.
  py::register_exception<InitialPenetrationError>(m, "InitialPenetrationError", m.attr("ScenarioError").ptr());
  m.def("simulate", &simulate, py::arg("scenario"), py::arg("end_time") = py::none(),
        py::arg("output") = Output{}, py::arg("set") = py::none(),
        "Runs a scenario file (docs/scenario.md) with surfdb's multibody loop: Model, Data and run to\n"
        "the end time. set={'contact.ball-cup.stiffness': 4e9} changes the file's values first, as\n"
        "`surfdb simulate --set` does. output(t, bodies) is called at t = 0 and each output instant,\n"
        "bodies a (body count, 13) array: position (m), Euler parameters, velocity (m/s), angular\n"
        "velocity (body axes, rad/s). Returns the summary: status ('ok', 'warnings' or 'failed'),\n"
        "warnings (each a dict: kind, subject, count, first_time, worst, message), end_time, steps,\n"
        "rhs_evaluations, integrator_failures, energy, constraint_drift, contacts.");
}

}  // namespace surfdb::python
