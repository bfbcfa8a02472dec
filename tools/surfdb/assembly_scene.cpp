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
  std::string text = "[";
  for (int r = 0; r < 3; ++r) text.append(r ? ", " : "").append(vector_text(m.row(r)));
  return text.append("]");
}

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

struct ContactLaw {
  double stiffness = 0, damping = 0, depth = 0;  // N/m^3, N s/m^3, m
};

// The foundation's stiffness (given, or from the heaviest loose body's sink), the damping that
// makes the lightest loose body resting on a patch of its own size `damping_ratio` times critical,
// and the depth its weight sinks (below which the damping fades in).
ContactLaw contact_law(const AssemblyPlan& plan, const SceneSettings& s, double gravity) {
  const MassProperties *light = nullptr, *heavy = nullptr;
  for (const BodyPlan& b : plan.bodies) {
    if (b.ground) continue;
    const MassProperties& m = plan.parts[b.part].mass;
    if (!light || m.mass < light->mass) light = &m;
    if (!heavy || m.mass > heavy->mass) heavy = &m;
  }
  if (!light) light = heavy = &plan.parts.front().mass;  // nothing moves: any part will do
  const double g = std::max(gravity, 1e-3);
  const auto area = [](const MassProperties& m) { return std::pow(m.volume, 2.0 / 3.0); };
  ContactLaw law;
  law.stiffness = s.foundation_stiffness > 0
                      ? s.foundation_stiffness
                      : heavy->mass * g / (area(*heavy) * kSinkPerSize * std::cbrt(heavy->volume));
  law.damping = 2 * s.damping_ratio * std::sqrt(law.stiffness * light->mass / area(*light));
  law.depth = light->mass * g / (law.stiffness * area(*light));
  return law;
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

// The loose bodies first, then the surfaces fixed to the ground: in a contact of patterns the
// earlier surface is the master (surface_i) whose triangles are the elements.
void write_bodies(std::ostringstream& out, const CadAssembly& a, const AssemblyPlan& plan) {
  std::vector<BodyPlan> ordered;
  for (const bool ground : {false, true})
    for (const BodyPlan& b : plan.bodies)
      if (b.ground == ground) ordered.push_back(b);
  for (const BodyPlan& b : ordered) {
    const AssemblyInstance& i = a.instances()[b.instance];
    const AssemblyPart& part = a.parts()[i.part];
    const PartPlan& p = plan.parts[i.part];
    const Eigen::Quaterniond& q = b.orientation;
    if (!b.ground) {
      out << "[[body]]   # part '" << part.name << "' (product " << quoted(part.product_name) << "), "
          << (p.density > 0 ? format_number(p.density) + " kg/m^3" : std::string("a shell of its faces")) << "\n"
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
    out << "\n";
  }
}

// A fixed joint per weld, at the loose body's centre of mass; a grounded instance is the ground.
void write_welds(std::ostringstream& out, const CadAssembly& a, const AssemblyPlan& plan) {
  for (const auto& [i, j] : plan.welds) {
    const BodyPlan &bi = plan.bodies[i], &bj = plan.bodies[j];
    const std::string& ni = a.instances()[i].name;
    const std::string& nj = a.instances()[j].name;
    out << "[[joint]]   # they touch where the assembly places them: fastened\n"
        << "name = " << quoted("fasten-" + ni + "-" + nj) << "\n"
        << "type = \"fixed\"\n"
        << "body_i = " << quoted(bi.ground ? "ground" : ni) << "\n"
        << "body_j = " << quoted(bj.ground ? "ground" : nj) << "\n"
        << "point = " << vector_text(bj.ground ? bi.position : bj.position) << "   # m\n\n";
  }
}

void write_contact(std::ostringstream& out, const std::string& name, const std::string& i, const std::string& j,
                   const ContactLaw& law, const SceneSettings& s) {
  out << "[[contact]]\n"
      << "name = " << quoted(name) << "\n"
      << "surface_i = " << quoted(i) << "\n"
      << "surface_j = " << quoted(j) << "\n"
      << "law = \"elastic_foundation\"\n"
      << "foundation_stiffness = " << format_number(law.stiffness) << "   # N/m^3\n"
      << "damping = " << format_number(law.damping) << "   # N s/m^3\n"
      << "damping_depth = " << format_number(law.depth) << "   # m\n";
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
  write_bodies(out, a, plan);
  write_welds(out, a, plan);
  const ContactLaw law = contact_law(plan, s, o.gravity.norm());
  if (plan.every_pair) {
    write_contact(out, "parts", "*", "*", law, s);
  } else {
    for (const auto& [i, j] : plan.contact_pairs)
      write_contact(out, a.instances()[i].name + "-" + a.instances()[j].name, a.instances()[i].name, a.instances()[j].name,
                    law, s);
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
  j["fastened"] = nlohmann::ordered_json::array();
  for (const auto& [i, k] : plan.welds) j["fastened"].push_back({a.instances()[i].name, a.instances()[k].name});
  return j.dump(2) + "\n";
}

}  // namespace surfdb::cli
