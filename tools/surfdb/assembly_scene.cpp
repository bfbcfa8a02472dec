#include "assembly_scene.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "number_format.hpp"

namespace surfdb::cli {
namespace {

std::string list(std::initializer_list<double> values) {
  std::string text = "[";
  for (const double v : values) text += (text.size() > 1 ? ", " : "") + format_number(v == 0 ? 0.0 : v);
  return text + "]";
}

std::string vector_text(const Eigen::Vector3d& v) { return list({v[0], v[1], v[2]}); }

std::string rows_text(const Eigen::Matrix3d& m) {
  return "[" + vector_text(m.row(0)) + ", " + vector_text(m.row(1)) + ", " + vector_text(m.row(2)) + "]";
}

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

// The lightest body that moves, resting on a patch of its own size: the damping that makes it
// `ratio` times critical there, and the depth its weight sinks into the foundation.
std::pair<double, double> damping_and_depth(const AssemblyPlan& plan, const SceneSettings& s, double gravity) {
  const double c = s.foundation_modulus / (2 * s.layer_thickness);  // two layers in series
  double mass = 0, area = 1;
  const auto consider = [&](const MassProperties& m) {
    if (mass == 0 || m.mass < mass) mass = m.mass, area = std::pow(m.volume, 2.0 / 3.0);
  };
  for (const BodyPlan& b : plan.bodies)
    if (!b.ground) consider(plan.parts[b.part].mass);
  if (mass == 0)
    for (const PartPlan& p : plan.parts) consider(p.mass);
  const double damping = 2 * s.damping_ratio * std::sqrt(c * mass / area);
  const double depth = mass * std::max(gravity, 1e-3) / (c * area);
  return {damping, depth};
}

void write_simulation(std::ostringstream& out, const AssembleOptions& o, const SceneSettings& s) {
  out << "[simulation]\n"
      << "end_time = " << format_number(s.end_time) << "\n"
      << "integrator = \"bdf\"            # parts resting on each other with friction: stiff\n"
      << "relative_tolerance = 1e-5\n"
      << "absolute_tolerance = 1e-7       # m, m/s, rad/s\n"
      << "max_step = 1e-3                 # s\n"
      << "output_interval = 1e-3          # s\n"
      << "gravity = " << vector_text(o.gravity) << "   # m/s^2\n\n";
}

void write_bodies(std::ostringstream& out, const CadAssembly& a, const AssemblyPlan& plan, const SceneSettings& s) {
  for (const BodyPlan& b : plan.bodies) {
    const AssemblyInstance& i = a.instances()[b.instance];
    const AssemblyPart& part = a.parts()[i.part];
    const PartPlan& p = plan.parts[i.part];
    const Eigen::Quaterniond& q = b.orientation;
    if (!b.ground) {
      out << "[[body]]   # part '" << part.name << "' (product " << quoted(part.product_name) << "), "
          << format_number(p.density) << " kg/m^3\n"
          << "name = " << quoted(i.name) << "\n"
          << "mass = " << format_number(p.mass.mass) << "   # kg\n"
          << "inertia = " << vector_text(p.mass.principal_moments) << "   # kg m^2, principal moments: body axes\n"
          << "position = " << vector_text(b.position) << "   # m, the centre of mass\n"
          << "orientation = " << list({q.w(), q.x(), q.y(), q.z()}) << "   # body axes to world\n\n";
    }
    out << "[[surface]]\n"
        << "name = " << quoted(i.name) << "\n"
        << "body = " << quoted(b.ground ? "ground" : i.name) << "\n"
        << "mesh = " << quoted(part_mesh_path(part)) << "   # the part in its body frame; its tables: "
        << part_set_path(part) << "\n";
    if (b.ground)
      out << "origin = " << vector_text(b.position) << "   # m: fixed where the assembly places it\n"
          << "rotation = " << rows_text(q.toRotationMatrix()) << "\n";
    out << "foundation_modulus = " << format_number(s.foundation_modulus) << "   # Pa\n"
        << "layer_thickness = " << format_number(s.layer_thickness) << "   # m\n\n";
  }
}

void write_contact(std::ostringstream& out, const std::string& name, const std::string& i, const std::string& j,
                   const std::pair<double, double>& damping, const SceneSettings& s) {
  out << "[[contact]]\n"
      << "name = " << quoted(name) << "\n"
      << "surface_i = " << quoted(i) << "\n"
      << "surface_j = " << quoted(j) << "\n"
      << "law = \"elastic_foundation\"\n"
      << "damping = " << format_number(damping.first) << "   # N s/m^3\n"
      << "damping_depth = " << format_number(damping.second) << "   # m\n";
  if (s.friction > 0) out << "friction = " << format_number(s.friction) << "\nfriction_velocity = 1e-3   # m/s\n";
  out << "\n";
}

}  // namespace

std::string part_set_path(const AssemblyPart& part) { return "parts/" + part.name + ".sdbs"; }
std::string part_mesh_path(const AssemblyPart& part) { return "parts/" + part.name + ".mesh"; }

std::string scene_toml(const CadAssembly& a, const AssemblyPlan& plan, const AssembleOptions& o, const SceneSettings& s) {
  std::ostringstream out;
  out << "# " << a.file_name() << " as bodies, written by: " << s.command << "\n"
      << "# SI units. Each body's frame is its part's: origin at the centre of mass, axes the principal\n"
      << "# axes of inertia; its meshes and tables (parts/) are in that frame, in millimetres.\n"
      << "# docs/assembly.md says how to edit it: joints between parts, materials, contacts.\n\n";
  write_simulation(out, o, s);
  write_bodies(out, a, plan, s);
  const auto damping = damping_and_depth(plan, s, o.gravity.norm());
  if (plan.every_pair) {
    write_contact(out, "parts", "*", "*", damping, s);
  } else {
    for (const auto& [i, j] : plan.contact_pairs)
      write_contact(out, a.instances()[i].name + "-" + a.instances()[j].name, a.instances()[i].name, a.instances()[j].name,
                    damping, s);
  }
  std::string text = out.str();
  text.pop_back();  // one newline at the end
  return text;
}

std::string assembly_json(const CadAssembly& a, const AssemblyPlan& plan) {
  nlohmann::ordered_json j;
  j["length_unit"] = "m";
  j["parts"] = nlohmann::ordered_json::array();
  for (const PartPlan& p : plan.parts) {
    const Eigen::Matrix3d inertia = p.mass.principal_moments.asDiagonal();
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (int r = 0; r < 3; ++r) rows.push_back({inertia(r, 0), inertia(r, 1), inertia(r, 2)});
    const AssemblyPart& part = a.parts()[p.part];
    j["parts"].push_back({{"name", part.name},
                          {"mass", p.mass.mass},
                          {"volume", p.mass.volume},
                          {"inertia", rows},
                          {"set", part_set_path(part)},
                          {"mesh", part_mesh_path(part)}});
  }
  j["instances"] = nlohmann::ordered_json::array();
  for (const BodyPlan& b : plan.bodies) {
    const AssemblyInstance& i = a.instances()[b.instance];
    const Eigen::Quaterniond& q = b.orientation;
    j["instances"].push_back({{"name", i.name},
                              {"part", a.parts()[i.part].name},
                              {"position", {b.position[0], b.position[1], b.position[2]}},
                              {"orientation", {q.w(), q.x(), q.y(), q.z()}},
                              {"ground", b.ground}});
  }
  return j.dump(2) + "\n";
}

}  // namespace surfdb::cli
