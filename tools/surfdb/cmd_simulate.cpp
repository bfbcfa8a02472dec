// surfdb simulate: run a scenario, write the time series, the summary, the plots and, on request,
// the animation.
#include <CLI/CLI.hpp>
#include <sys/resource.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "animation_writer.hpp"
#include "atomic_file.hpp"
#include "commands.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "output_checks.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "surfdb/multibody/initial_penetration.hpp"
#include "surfdb/multibody/simulation.hpp"

namespace surfdb::cli {
namespace {

struct SimulateArgs {
  std::string scenario, output;
  double end_time = 0, output_interval = 0;
  std::vector<std::string> overrides;  // --set PATH=VALUE, in order
  double animation_interval = 0;  // s, 0: every output instant
  bool no_plots = false, quiet = false, animation = false;
};

// Passes every call on to each of several observers, in the order they were added.
class Observers : public RunObserver {
 public:
  void add(RunObserver& observer) { list_.push_back(&observer); }
  void output(const Simulation& sim, double t, const double* y, double violation) override {
    for (RunObserver* o : list_) o->output(sim, t, y, violation);
  }
  void accepted(const Simulation& sim, double t, const double* y) override {
    for (RunObserver* o : list_) o->accepted(sim, t, y);
  }

 private:
  std::vector<RunObserver*> list_;
};

// One CSV row per output instant: bodies (position, velocity, acceleration), contacts, energies,
// constraint violation.
class TimeSeries : public RunObserver {
 public:
  TimeSeries(const std::filesystem::path& file, const Simulation& sim, double end_time, bool progress)
      : out_(file), bar_("simulating", progress), end_time_(end_time) {
    std::string header = "t";
    for (const RigidBody& b : sim.model().bodies)
      for (const char* c : {"_x", "_y", "_z", "_vx", "_vy", "_vz", "_ax", "_ay", "_az"}) header += "," + b.name + c;
    for (const ContactGroup& g : sim.contacts()) {
      if (g.single())
        for (const char* c : {"_touching", "_indentation", "_indentation_rate", "_normal_force", "_point_i_x", "_point_i_y",
                              "_point_i_z", "_point_j_x", "_point_j_y", "_point_j_z", "_u_i", "_v_i", "_u_j", "_v_j",
                              "_window_updates_i", "_window_updates_j"})
          header.append(",").append(g.name()).append(c);
      else
        for (const char* c : {"_pairs", "_normal_force"}) header.append(",").append(g.name()).append(c);
      for (const char* c : {"_points", "_force_x", "_force_y", "_force_z", "_torque_x", "_torque_y", "_torque_z"})
        header.append(",").append(g.name()).append(c);
      if (g.areal())
        for (const char* c : {"_area", "_volume", "_patches"}) header.append(",").append(g.name()).append(c);
    }
    for (const Joint& j : sim.model().joints)
      for (const char* c : {"_reaction_x", "_reaction_y", "_reaction_z"}) header += "," + j.name + c;
    for (const SurfaceJoint& j : sim.surface_joints())
      for (const char* c : {"_force", "_gap", "_point_x", "_point_y", "_point_z", "_u_i", "_v_i", "_u_j", "_v_j",
                            "_sliding_speed"})
        header += "," + j.name() + c;
    header += ",energy_mechanical,energy_dissipated,constraint_violation\n";
    std::fputs(header.c_str(), out_.get());
  }

  void output(const Simulation& sim, double t, const double* y, double violation) override {
    std::string line = format_number(t);
    const auto add = [&](double x) { line.append(",").append(format_number(x)); };
    for (std::size_t k = 0; k < sim.model().bodies.size(); ++k) {
      // Position and velocity from the state; the acceleration from the run's evaluation at (t, y).
      const BodyStateView b = body_view(y, static_cast<int>(k));
      const Eigen::Vector3d a = sim.dynamics().linear_acceleration(static_cast<int>(k));
      for (const Eigen::Vector3d& v : {Eigen::Vector3d(b.r()), Eigen::Vector3d(b.v()), a}) add(v.x()), add(v.y()), add(v.z());
    }
    for (const ContactGroup& g : sim.contacts()) {
      if (const ContactPair* p = g.single()) {
        const ContactResult& c = p->state().last;
        add(p->state().points > 0), add(c.indentation), add(c.indentation_rate), add(p->state().last_force);
        for (const auto& v : {c.point_i, c.point_j}) add(v.x()), add(v.y()), add(v.z());
        add(c.u_i), add(c.v_i), add(c.u_j), add(c.v_j);
        const FreeformManifold* f = p->freeform();
        add(f ? static_cast<double>(f->window_stats_i().updates) : 0.0);
        add(f ? static_cast<double>(f->window_stats_j().updates) : 0.0);
      } else {
        add(static_cast<double>(g.output().pairs)), add(g.output().normal_force);
      }
      const GroupOutput& o = g.output();
      add(static_cast<double>(o.points));
      for (const auto& v : {o.force, o.torque}) add(v.x()), add(v.y()), add(v.z());
      if (g.areal()) add(o.area), add(o.volume), add(static_cast<double>(o.patches));
    }
    for (std::size_t k = 0; k < sim.dynamics().joint_count(); ++k) {
      const Eigen::Vector3d f = sim.dynamics().joint_reaction(static_cast<int>(k)).force;
      add(f.x()), add(f.y()), add(f.z());
    }
    for (std::size_t k = 0; k < sim.surface_joints().size(); ++k) {
      const SurfaceJoint& j = sim.surface_joints()[k];
      const ContactResult& c = j.contact();
      add(sim.surface_joint_force(k));
      // Released, the joint no longer detects: its geometry columns are empty (nan).
      const bool held = !j.released();
      const auto geometry = [&](double x) { add(held ? x : NAN); };
      geometry(j.plane().phi);
      geometry(c.point_j.x()), geometry(c.point_j.y()), geometry(c.point_j.z());
      geometry(c.u_i), geometry(c.v_i), geometry(c.u_j), geometry(c.v_j), geometry(j.output().sliding_speed);
    }
    add(sim.mechanical_energy(y)), add(sim.dissipated_energy(y)), add(violation);
    line += "\n";
    std::fputs(line.c_str(), out_.get());
  }

  void accepted(const Simulation&, double t, const double*) override {
    bar_.update(static_cast<std::uint64_t>(1000 * t / end_time_), 1000);
  }

  void commit() { out_.commit(); }
  void finish_progress() { bar_.finish(); }

 private:
  AtomicFile out_;
  ProgressBar bar_;
  double end_time_;  // s
};

nlohmann::ordered_json contact_summary(const ContactGroup& g) {
  const GroupStatistics& s = g.statistics();
  nlohmann::ordered_json c;
  c["name"] = g.name();
  c["first_contact_time"] = std::isnan(s.first_contact_time) ? nlohmann::json(nullptr) : nlohmann::json(s.first_contact_time);
  c["impacts"] = s.impacts;
  c["impacts_detail"] = nlohmann::ordered_json::array();
  for (const ImpactRecord& r : g.impacts_detail())
    c["impacts_detail"].push_back(nlohmann::ordered_json{
        {"start", r.start}, {"end", std::isnan(r.end) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.end)},
        {"approach_velocity", r.approach_velocity}, {"max_indentation", r.max_indentation}, {"max_force", r.max_force}});
  c["max_indentation"] = s.max_indentation;
  c["pairs_touched"] = s.pairs_touched;
  c["max_points"] = s.max_points;
  if (g.areal()) c["max_area"] = s.max_area;
  nlohmann::ordered_json updates = nlohmann::ordered_json::object(), records = updates, outside = updates;
  if (const FreeformManifold* f = g.single() ? g.single()->freeform() : nullptr) {
    const ContactSpec& spec = g.single()->spec();
    for (const auto& [name, stats] : {std::pair{spec.surface_i, f->window_stats_i()},
                                      std::pair{spec.surface_j, f->window_stats_j()}}) {
      updates[name] = stats.updates;
      records[name] = stats.records_read;
      outside[name] = stats.outside_reads;
    }
  }
  c["window_updates"] = updates;
  c["records_read"] = records;
  c["outside_reads"] = outside;
  c["solver_failures"] = s.solver_failures;
  return c;
}

nlohmann::ordered_json surface_joint_summary(const Simulation& sim, const SurfaceJoint& s) {
  const SurfaceJointStatistics& st = s.statistics();
  const auto time_or_null = [](double t) { return std::isnan(t) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t); };
  const auto finite_or_null = [](double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json j;
  j["name"] = s.name();
  j["surface_i"] = sim.surfaces()[static_cast<std::size_t>(s.spec().surface_i)].name;
  j["surface_j"] = sim.surfaces()[static_cast<std::size_t>(s.spec().surface_j)].name;
  j["lift_off_time"] = time_or_null(st.lift_off_time);
  j["release_time"] = time_or_null(st.release_time);
  j["min_force"] = finite_or_null(st.min_force);
  j["max_force"] = finite_or_null(st.max_force);
  j["max_gap"] = st.max_gap;
  j["global_searches"] = st.global_searches;
  j["jumps"] = st.jumps;
  j["face_changes"] = st.face_changes;
  j["solver_failures"] = st.solver_failures;
  j["singular_steps"] = st.singular_steps;
  if (s.spec().formulation == SurfaceJointFormulation::five_equations) {
    j["formulation"] = "five_equations";
    j["max_tangential_offset"] = st.max_tangential_offset;
    j["max_normal_error"] = st.max_normal_error;
  }
  return j;
}

void write_summary(const std::filesystem::path& file, const Simulation& sim, const RunStatistics& run,
                   const std::vector<double>& y) {
  nlohmann::ordered_json j;
  j["end_time"] = run.end_time;
  j["steps"] = run.steps;
  j["rhs_evaluations"] = run.rhs_evaluations;
  j["integrator_failures"] = run.failures;
  j["cpu_seconds"] = run.cpu_seconds;
  j["contacts"] = nlohmann::json::array();
  for (const ContactGroup& g : sim.contacts()) j["contacts"].push_back(contact_summary(g));
  const double energy0 = run.initial_energy;
  const double final_energy = sim.mechanical_energy(y.data()), dissipated = sim.dissipated_energy(y.data());
  j["energy"] = {{"initial", energy0}, {"final", final_energy}, {"dissipated", dissipated},
                 {"drift_relative", std::abs(final_energy + dissipated - energy0) / std::abs(energy0)}};
  j["surface_joints"] = nlohmann::json::array();
  for (const SurfaceJoint& s : sim.surface_joints()) j["surface_joints"].push_back(surface_joint_summary(sim, s));
  j["constraint_drift"] = run.constraint_drift;
  std::uint64_t window_bytes = 0;
  for (const ContactGroup& g : sim.contacts())
    if (const FreeformManifold* f = g.single() ? g.single()->freeform() : nullptr)
      window_bytes += f->window_stats_i().bytes_resident + f->window_stats_j().bytes_resident;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  j["memory"] = {{"peak_resident_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024},
                 {"window_bytes", window_bytes}};
  AtomicFile summary(file);
  std::fputs((j.dump(2) + "\n").c_str(), summary.get());
  summary.commit();
}

// The plotting script `name`: the environment variable `env` when set, else the one installed
// beside the command (PREFIX/bin/surfdb, PREFIX/share/surfdb/), else the source tree's.
std::filesystem::path plot_script(const char* env, const char* name) {
  if (const char* path = std::getenv(env)) return path;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path installed = exe.parent_path().parent_path() / "share/surfdb" / name;
  if (!ec && std::filesystem::exists(installed, ec)) return installed;
  return std::filesystem::path(SURFDB_SOURCE_PLOTS) / name;
}

// Runs a plotting script on OUTDIR; a warning, not an error, when it fails.
void plot(const std::filesystem::path& script, const std::filesystem::path& dir) {
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string command = python + " '" + script.string() + "' '" + dir.string() + "'";
  if (std::system(command.c_str()) != 0)
    spdlog::warn("plots not written: '{}' failed (needs python3-matplotlib)", command);
}

void run(const SimulateArgs& a, const CLI::App& cmd) {
  if (std::error_code ec; std::filesystem::is_directory(a.scenario, ec))
    throw std::runtime_error(a.scenario + ": is a directory, not a scenario file");
  if (a.quiet) spdlog::set_level(spdlog::level::warn);
  Scenario s = load_scenario(a.scenario, a.overrides);
  if (cmd.count("--end-time")) s.run.end_time = a.end_time;
  if (cmd.count("--output-interval")) s.run.output.interval = a.output_interval;
  std::vector<std::filesystem::path> inputs{a.scenario};
  for (const ContactSurface& surface : s.surfaces)
    if (surface.tables)
      for (const TableFace& face : surface.tables->faces()) inputs.push_back(face.table->path());
  const std::unique_ptr<Simulation> simulation = make_simulation(s);
  Simulation& sim = *simulation;
  std::vector<double> y = s.initial_state;
  std::vector<InitialPenetration> touching;
  try {
    touching = check_initial_penetration(sim, y.data());
  } catch (const InitialPenetrationError& e) {
    throw std::runtime_error(a.scenario + ": " + e.what());  // the file whose bodies are misplaced
  }
  for (const InitialPenetration& p : touching)
    spdlog::warn("contact '{}': surfaces '{}' and '{}' start {:.4g} m inside each other at t = 0 (within the tolerance {:.4g} m)",
                 p.contact, p.surface_i, p.surface_j, p.depth, p.tolerance);

  const std::filesystem::path dir = a.output;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create output directory " + dir.string() + ": " +
                             (ec ? ec.message() : "a file of that name exists"));

  // No output may be the scenario or one of its tables.
  for (const char* name : {"time_series.csv", "summary.json", "final_frame.png"})
    refuse_input_as_output(dir / name, inputs);

  TimeSeries series(dir / "time_series.csv", sim, s.run.end_time, !a.quiet);
  Observers observers;
  observers.add(series);
  std::optional<AnimationWriter> animation;
  if (a.animation)
    observers.add(animation.emplace(dir, sim, y.data(), inputs, a.animation_interval, s.run.end_time));
  const RunStatistics stats = sim.run(y, s.run, observers);
  series.commit();
  if (animation) animation->commit();
  write_summary(dir / "summary.json", sim, stats, y);
  series.finish_progress();
  // The end time as given, not as the steps summed it (0.1, not 0.09999999999999999).
  const bool reached = std::abs(stats.end_time - s.run.end_time) <= 1e-9 * s.run.end_time;
  spdlog::info("simulated {} s in {}, {:.2f} s CPU; wrote {}", format_number(reached ? s.run.end_time : stats.end_time),
               count_of(static_cast<std::uint64_t>(stats.steps), "step"), stats.cpu_seconds, dir.string());
  if (animation)
    spdlog::info("animation: {} in {} (ParaView: File > Open)", count_of(animation->frames(), "frame"),
                 animation->collection().string());
  if (a.no_plots) return;
  plot(plot_script("SURFDB_PLOT_SCRIPT", "plot_simulation.py"), dir);
  if (animation) plot(plot_script("SURFDB_FRAME_PLOT_SCRIPT", "plot_frame.py"), dir);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run a scenario: time series, summary.json and plots in OUTDIR");
  cmd->add_option("SCENARIO", args->scenario, "Scenario file (.toml)")->required();
  cmd->add_option("-o,--output", args->output, "Output directory")->required();
  cmd->add_option("--end-time", args->end_time, "Override the scenario's end time, s")->check(positive_number());
  cmd->add_option("--output-interval", args->output_interval, "Override the scenario's output interval, s")
      ->check(positive_number());
  cmd->add_option("--set", args->overrides,
                  "Override a scenario value, PATH=VALUE (simulation.step=5e-7, contact.NAME.stiffness=4e9); repeatable, "
                  "applied in order")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_flag("--animation", args->animation,
                "Also write OUTDIR/animation.pvd and OUTDIR/animation/: the surfaces and contact forces at every output "
                "instant, for ParaView");
  cmd->add_option("--animation-interval", args->animation_interval,
                  "With --animation: a frame at the output instants no closer than this, s (and the last); default every one")
      ->check(positive_number())
      ->needs("--animation");
  cmd->add_flag("--no-plots", args->no_plots, "Write no PNG plots");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress bar and no informational messages (warnings and errors still)");
  cmd->callback([args, cmd] { run(*args, *cmd); });
}

}  // namespace surfdb::cli
