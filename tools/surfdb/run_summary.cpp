#include "run_summary.hpp"

#include <sys/resource.h>

#include <cmath>

#include "atomic_file.hpp"

namespace surfdb::cli {
namespace {

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
    c["solves_skipped"] = f->skipped_solves();
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
  c["deep_appearances"] = s.deep_appearances;
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

}  // namespace

nlohmann::ordered_json health_summary(const RunHealth& health) {
  nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
  for (const RunWarning& w : health.warnings())
    warnings.push_back({{"kind", to_string(w.kind)},
                        {"subject", w.subject},
                        {"count", w.count},
                        {"first_time", w.first_time},
                        {"worst", w.worst},
                        {"message", health.describe(w)}});
  return warnings;
}

void write_summary(const std::filesystem::path& file, const Simulation& sim, const RunStatistics& run,
                   const std::vector<double>& y, const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json j;
  j["status"] = to_string(run.health.status());
  j["warnings"] = health_summary(run.health);
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
  for (const auto& [key, value] : extra.items()) j[key] = value;
  AtomicFile summary(file);
  std::fputs((j.dump(2) + "\n").c_str(), summary.get());
  summary.commit();
}

}  // namespace surfdb::cli
