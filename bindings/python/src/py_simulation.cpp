// surfdb.simulate: a scenario file run by the library's own loop (Simulation::run), the same steps
// and numbers as `surfdb simulate`, with an optional Python callback at each output instant.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>

#include "bindings.hpp"
#include "surfdb/multibody/simulation.hpp"
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

py::dict simulate(const std::string& path, std::optional<double> end_time, const Output& output) {
  Scenario s = load_scenario(path);
  if (end_time) {
    if (!(*end_time > 0) || !std::isfinite(*end_time)) throw std::invalid_argument("end_time must be positive");
    s.run.end_time = *end_time;
  }
  const std::unique_ptr<Simulation> simulation = make_simulation(s);
  Simulation& sim = *simulation;
  std::vector<double> y = std::move(s.initial_state);
  PythonObserver observer(output);
  const RunStatistics run = sim.run(y, s.run, observer);
  py::list contacts;
  for (const ContactGroup& g : sim.contacts()) {
    const GroupStatistics& c = g.statistics();
    py::dict d;
    d["name"] = g.name();
    d["first_contact_time"] = std::isnan(c.first_contact_time) ? py::object(py::none()) : py::float_(c.first_contact_time);
    d["impacts"] = c.impacts;
    d["max_indentation"] = c.max_indentation;
    d["solver_failures"] = c.solver_failures;
    d["pairs_touched"] = c.pairs_touched;
    d["max_points"] = c.max_points;
    d["deep_appearances"] = c.deep_appearances;
    contacts.append(d);
  }
  py::list warnings;
  for (const RunWarning& w : run.health.warnings()) {
    py::dict d;
    d["kind"] = to_string(w.kind);
    d["subject"] = w.subject;
    d["count"] = w.count;
    d["first_time"] = w.first_time;
    d["worst"] = w.worst;
    d["message"] = run.health.describe(w);
    warnings.append(d);
  }
  py::dict summary;
  summary["status"] = to_string(run.health.status());
  summary["warnings"] = warnings;
  summary["end_time"] = run.end_time;
  summary["steps"] = run.steps;
  summary["rhs_evaluations"] = run.rhs_evaluations;
  summary["integrator_failures"] = run.failures;
  summary["energy"] = py::dict(py::arg("initial") = run.initial_energy,
                               py::arg("final") = sim.mechanical_energy(y.data()),
                               py::arg("dissipated") = sim.dissipated_energy(y.data()));
  summary["constraint_drift"] = run.constraint_drift;
  summary["contacts"] = contacts;
  return summary;
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::register_exception<ScenarioError>(m, "ScenarioError", m.attr("Error").ptr());
  m.def("simulate", &simulate, py::arg("scenario"), py::arg("end_time") = py::none(),
        py::arg("output") = Output{},
        "Runs a scenario file (docs/scenario.md) with surfdb's multibody loop. output(t, bodies) is\n"
        "called at t = 0 and each output instant, bodies a (body count, 13) array: position (m),\n"
        "Euler parameters, velocity (m/s), angular velocity (body axes, rad/s). Returns the\n"
        "summary: status ('ok', 'warnings' or 'failed'), warnings (each a dict: kind, subject, count,\n"
        "first_time, worst, message), end_time, steps, rhs_evaluations, integrator_failures, energy,\n"
        "constraint_drift, contacts.");
}

}  // namespace surfdb::python
