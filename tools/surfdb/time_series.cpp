#include "time_series.hpp"

#include <algorithm>
#include <cmath>

#include "number_format.hpp"

namespace surfdb::cli {

std::string TimeSeries::header(const Simulation& sim) {
  std::string header = "t";
  for (const RigidBody& b : sim.model().bodies)
    for (const char* c : {"_x", "_y", "_z", "_vx", "_vy", "_vz", "_ax", "_ay", "_az", "_e0", "_e1", "_e2", "_e3", "_wx", "_wy", "_wz"})
      header += "," + b.name + c;
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
  return header;
}

std::uint64_t TimeSeries::estimated_bytes(const Simulation& sim, double end_time, double interval) {
  const std::string head = header(sim);
  const double columns = static_cast<double>(std::count(head.begin(), head.end(), ',') + 1);
  const double bytes = static_cast<double>(head.size()) + (end_time / interval + 2) * columns * kBytesPerValue;
  return bytes < 1.8e19 ? static_cast<std::uint64_t>(bytes) : UINT64_MAX;
}

TimeSeries::TimeSeries(const std::filesystem::path& file, const Simulation& sim, double end_time, bool progress)
    : out_(file), bar_("simulating", progress), end_time_(end_time) {
  std::fputs(header(sim).c_str(), out_.get());
}

void TimeSeries::output(const Simulation& sim, double t, const double* y, double violation) {
  std::string line = format_number(t);
  const auto add = [&](double x) { line.append(",").append(format_number(x)); };
  for (std::size_t k = 0; k < sim.model().bodies.size(); ++k) {
    // Position and velocity from the state; the acceleration from the run's evaluation at (t, y).
    const BodyStateView b = body_view(y, static_cast<int>(k));
    const Eigen::Vector3d a = sim.dynamics().linear_acceleration(static_cast<int>(k));
    for (const Eigen::Vector3d& v : {Eigen::Vector3d(b.r()), Eigen::Vector3d(b.v()), a}) add(v.x()), add(v.y()), add(v.z());
    // Orientation (Euler parameters, body to world) and angular velocity (world axes).
    const Eigen::Quaterniond q = b.orientation();
    const Eigen::Vector3d w = q.toRotationMatrix() * b.w_body();
    add(q.w()), add(q.x()), add(q.y()), add(q.z()), add(w.x()), add(w.y()), add(w.z());
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

}  // namespace surfdb::cli
