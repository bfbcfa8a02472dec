// surfdb simulate: run a scenario, write the time series, the summary and the plots.
#include <CLI/CLI.hpp>
#include <sys/resource.h>

#include <cmath>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "progress_bar.hpp"
#include "scenario/scenario.hpp"
#include "surfdb/runtime/integrator_ab4.hpp"
#include "surfdb/runtime/integrator_rk4.hpp"
#include "surfdb/runtime/simulation.hpp"

namespace surfdb::cli {
namespace {

struct SimulateArgs {
  std::string scenario, output;
  double end_time = 0, output_interval = 0;
};

// One CSV row per output instant: bodies, contacts, energies, constraint violation.
class TimeSeries {
 public:
  TimeSeries(const std::filesystem::path& file, const MultibodyModel& model, const std::vector<ContactPair>& pairs)
      : out_(file) {
    std::string header = "t";
    for (const RigidBody& b : model.bodies)
      for (const char* c : {"_x", "_y", "_z"}) header += "," + b.name + c;
    for (const ContactPair& p : pairs)
      for (const char* c : {"_touching", "_indentation", "_indentation_rate", "_normal_force", "_point_i_x", "_point_i_y",
                            "_point_i_z", "_point_j_x", "_point_j_y", "_point_j_z", "_u_i", "_v_i", "_u_j", "_v_j",
                            "_window_updates_i", "_window_updates_j"})
        header += "," + p.name + c;
    for (const Joint& j : model.joints)
      for (const char* c : {"_reaction_x", "_reaction_y", "_reaction_z"}) header += "," + j.name + c;
    header += ",energy_mechanical,energy_dissipated,constraint_violation\n";
    std::fputs(header.c_str(), out_.get());
  }

  /// Reactions come from the simulation's last evaluation, which the caller makes at (t, y).
  void row(double t, const double* y, Simulation& sim, double violation) {
    std::string line = format_number(t);
    const auto add = [&](double x) { line += "," + format_number(x); };
    for (std::size_t k = 0; k < static_cast<std::size_t>(sim.dynamics().state_size() / kBodyStateSize); ++k) {
      const auto r = body_view(y, static_cast<int>(k)).r();
      add(r.x()), add(r.y()), add(r.z());
    }
    for (const ContactPair& p : sim.pairs()) {
      const ContactResult& c = p.last;
      add(c.in_contact()), add(c.indentation), add(c.indentation_rate), add(p.last_force);
      for (const auto& v : {c.point_i, c.point_j}) add(v.x()), add(v.y()), add(v.z());
      add(c.u_i), add(c.v_i), add(c.u_j), add(c.v_j);
      const auto* f = std::get_if<FreeformContact>(&p.detector);
      add(f ? static_cast<double>(f->binding_i().window().stats().updates) : 0.0);
      add(f ? static_cast<double>(f->binding_j().window().stats().updates) : 0.0);
    }
    for (std::size_t k = 0; k < sim.dynamics().joint_count(); ++k) {
      const Eigen::Vector3d f = sim.dynamics().joint_reaction(static_cast<int>(k)).force;
      add(f.x()), add(f.y()), add(f.z());
    }
    add(sim.mechanical_energy(y)), add(sim.dissipated_energy(y)), add(violation);
    line += "\n";
    std::fputs(line.c_str(), out_.get());
  }

  void commit() { out_.commit(); }

 private:
  AtomicFile out_;
};

std::filesystem::path plot_script() {
  if (const char* env = std::getenv("SURFDB_PLOT_SCRIPT")) return env;
  std::error_code ec;  // installed beside the command: PREFIX/bin/surfdb, PREFIX/share/surfdb/
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path installed = exe.parent_path().parent_path() / "share/surfdb/plot_simulation.py";
  if (!ec && std::filesystem::exists(installed, ec)) return installed;
  return SURFDB_SOURCE_PLOT_SCRIPT;
}

void plot(const std::filesystem::path& dir) {
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string command = python + " '" + plot_script().string() + "' '" + dir.string() + "'";
  if (std::system(command.c_str()) != 0)
    spdlog::warn("plots not written: '{}' failed (needs python3-matplotlib)", command);
}

void run(const SimulateArgs& a) {
  Scenario s = load_scenario(a.scenario);
  if (a.end_time > 0) s.end_time = a.end_time;
  if (a.output_interval > 0) s.output_interval = a.output_interval;
  const std::filesystem::path dir = a.output;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) throw std::runtime_error("cannot create output directory " + dir.string());

  std::vector<std::string> surface_names_i, surface_names_j;
  for (const ScenarioContact& c : s.contact_surfaces) surface_names_i.push_back(c.surface_i), surface_names_j.push_back(c.surface_j);
  Simulation sim(s.model, std::move(s.pairs));
  std::vector<double> y = s.initial_state;
  y.resize(sim.size(), 0.0);
  TimeSeries series(dir / "time_series.csv", s.model, sim.pairs());
  ProgressBar bar("simulating");

  const std::clock_t cpu0 = std::clock();
  sim.accept(0, y.data());
  const double energy0 = sim.mechanical_energy(y.data());
  std::vector<double> first(sim.size());
  sim.derivative(0, y.data(), first.data());
  double constraint_drift = sim.dynamics().position_violation(0, y.data());
  series.row(0, y.data(), sim, constraint_drift);
  double next_output = s.output_interval, t = 0;
  std::vector<int> episode(sim.pairs().size(), 0);
  std::vector<double> scratch(sim.size());
  std::vector<long> episode_rows(sim.pairs().size(), 0);
  long steps = 0, evaluations = 0;
  const auto after_step = [&](double time, const double* state) {
    ++steps;
    sim.accept(time, state);
    // Every step during the first 2000 steps of each impact (impacts last tens of microseconds:
    // the force-indentation loops need them), else at the output interval.
    bool dense = false;
    for (std::size_t k = 0; k < sim.pairs().size(); ++k) {
      const ContactPair& p = sim.pairs()[k];
      if (p.memory.impacts != episode[k]) episode[k] = p.memory.impacts, episode_rows[k] = 0;
      if (p.last.in_contact() && episode_rows[k] < 2000) dense = true, ++episode_rows[k];
    }
    if (dense || time + 1e-12 >= next_output || time >= s.end_time) {
      sim.derivative(time, state, scratch.data());  // reactions at this very state
      const double violation = sim.dynamics().position_violation(time, state);
      constraint_drift = std::max(constraint_drift, violation);
      series.row(time, state, sim, violation);
      while (next_output <= time + 1e-12) next_output += s.output_interval;
      bar.update(static_cast<std::uint64_t>(1000 * time / s.end_time), 1000);
    }
  };
  const auto fixed_steps = [&](auto& integrator) {
    const long count = std::lround(s.end_time / s.step);
    for (long k = 1; k <= count; ++k) {
      integrator.step(sim, t, s.step, y.data());
      t = k * s.step;
      after_step(t, y.data());
    }
    return count;
  };
  if (s.integrator == IntegratorKind::ab4) {
    AdamsBashforth4 ab4(sim.size());
    const long count = fixed_steps(ab4);
    evaluations = count + 3 * std::min(count, 3L);  // one per step; RK4's three more in the first three
  } else if (s.integrator == IntegratorKind::rk4) {
    Rk4 rk4(sim.size());
    evaluations = 4 * fixed_steps(rk4);
  } else {
    CvodeIntegrator cvode(sim, s.cvode);
    cvode.reset(0, y.data());
    while (t < s.end_time) {
      t = cvode.step(s.end_time);
      after_step(t, cvode.state());
    }
    std::copy(cvode.state(), cvode.state() + sim.size(), y.begin());
    evaluations = cvode.rhs_evaluations();
  }
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  series.commit();

  nlohmann::ordered_json j;
  j["end_time"] = t;
  j["steps"] = steps;
  j["rhs_evaluations"] = evaluations;
  j["cpu_seconds"] = cpu;
  j["contacts"] = nlohmann::json::array();
  for (std::size_t k = 0; k < sim.pairs().size(); ++k) {
    const ContactPair& p = sim.pairs()[k];
    nlohmann::ordered_json c;
    c["name"] = p.name;
    c["first_contact_time"] = std::isnan(p.statistics.first_contact_time) ? nlohmann::json(nullptr) : nlohmann::json(p.statistics.first_contact_time);
    c["impacts"] = p.memory.impacts;
    c["max_indentation"] = p.statistics.max_indentation;
    nlohmann::ordered_json updates = nlohmann::ordered_json::object(), records = updates, outside = updates;
    if (const auto* f = std::get_if<FreeformContact>(&p.detector)) {
      for (const auto& [name, binding] : {std::pair{surface_names_i[k], &f->binding_i()},
                                          std::pair{surface_names_j[k], &f->binding_j()}}) {
        updates[name] = binding->window().stats().updates;
        records[name] = binding->window().stats().records_read;
        outside[name] = binding->window().stats().outside_reads;
      }
    }
    c["window_updates"] = updates;
    c["records_read"] = records;
    c["outside_reads"] = outside;
    c["solver_failures"] = p.statistics.solver_failures;
    j["contacts"].push_back(c);
  }
  const double final_energy = sim.mechanical_energy(y.data()), dissipated = sim.dissipated_energy(y.data());
  j["energy"] = {{"initial", energy0}, {"final", final_energy}, {"dissipated", dissipated},
                 {"drift_relative", std::abs(final_energy + dissipated - energy0) / std::abs(energy0)}};
  j["constraint_drift"] = constraint_drift;
  std::uint64_t window_bytes = 0;
  for (const ContactPair& p : sim.pairs())
    if (const auto* f = std::get_if<FreeformContact>(&p.detector))
      window_bytes += f->binding_i().window().stats().bytes_resident + f->binding_j().window().stats().bytes_resident;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  j["memory"] = {{"peak_resident_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024},
                 {"window_bytes", window_bytes}};
  AtomicFile summary(dir / "summary.json");
  std::fputs((j.dump(2) + "\n").c_str(), summary.get());
  summary.commit();
  spdlog::info("simulated {} s in {} steps, {:.2f} s CPU; wrote {}", t, steps, cpu, dir.string());
  plot(dir);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run a scenario: time series, summary.json and plots in OUTDIR");
  cmd->add_option("SCENARIO", args->scenario, "Scenario file (.toml)")->required();
  cmd->add_option("-o,--output", args->output, "Output directory")->required();
  cmd->add_option("--end-time", args->end_time, "Override the scenario's end time, s")->check(CLI::PositiveNumber);
  cmd->add_option("--output-interval", args->output_interval, "Override the scenario's output interval, s")
      ->check(CLI::PositiveNumber);
  cmd->callback([args] { run(*args); });
}

}  // namespace surfdb::cli
