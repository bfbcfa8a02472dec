// [[contact]] entries: which surfaces pair (names or glob patterns), the normal law, friction and
// the checks a pair needs at t = 0.
#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <map>

#include "scenario_keys.hpp"
#include "scenario_reader.hpp"

namespace surfdb {
namespace {

NormalLaw law_from(const Reader& r, const toml::table& t, const std::string& where, double stiffness) {
  const std::string name = r.text(t, "law", where, std::string("hertz"));
  constexpr const char* kLaws[] = {"hertz", "hunt_crossley", "lankarani_nikravesh", "flores", "gonthier"};
  if (std::find(std::begin(kLaws), std::end(kLaws), name) == std::end(kLaws))
    r.fail(*t.get("law"), where + ".law",
           "unknown law '" + name + "' (hertz, hunt_crossley, lankarani_nikravesh, flores, gonthier, elastic_foundation)");
  const double n = r.positive(t, "exponent", where, 1.5);
  if (name == "hertz") return Hertz{stiffness, n};
  const double cr = r.number(t, "restitution", where);
  if (!(cr > 0 && cr <= 1)) r.fail(*t.get("restitution"), where + ".restitution", "must be in (0, 1]");
  if (name == "hunt_crossley") return HuntCrossley{stiffness, n, cr};
  if (name == "lankarani_nikravesh") return LankaraniNikravesh{stiffness, n, cr};
  if (name == "flores") return FloresEtAl{stiffness, n, cr};
  return Gonthier{stiffness, n, cr};
}

void check_kinds(const ContactSurface& i, const ContactSurface& j, bool areal) {
  using Kind = ContactSurface::Kind;
  if (areal) {
    for (const ContactSurface* s : {&i, &j})
      if (s->kind != Kind::mesh && s->kind != Kind::table)
        throw std::invalid_argument("pairs '" + i.name + "' with '" + j.name + "': law = \"elastic_foundation\" takes " +
                                    "meshes and tables ('" + s->name + "' is a primitive)");
    return;
  }
  if (!can_pair(i.kind, j.kind))
    throw std::invalid_argument("pairs '" + i.name + "' with '" + j.name +
                                "': a table pairs with a table, a sphere (surface_i) with any surface but a mesh; "
                                "meshes pair under law = \"elastic_foundation\"");
}

// Keys of the point-contact laws, refused with the elastic foundation, and the other way round.
constexpr std::array<const char*, 7> kPointLawKeys{"stiffness", "stiffness_from_curvature", "exponent", "restitution",
                                                   "max_damping_ratio", "friction_model", "friction_velocities"};
constexpr std::array<const char*, 3> kFoundationKeys{"foundation_stiffness", "damping", "damping_depth"};

}  // namespace

void ScenarioReader::read_contact(const toml::table& t) {
  const std::string name = r_.text(t, "name", "contact");
  const std::string where = "contact '" + name + "'";
  r_.only(t, scenario_keys::kContact, where);
  ContactGroupSpec c{.name = name, .surfaces_i = matching(t, "surface_i", where), .surfaces_j = matching(t, "surface_j", where)};
  if (t.get("initial_penetration_tolerance")) {
    c.initial_penetration_tolerance = r_.number(t, "initial_penetration_tolerance", where);
    if (*c.initial_penetration_tolerance < 0)
      r_.fail(*t.get("initial_penetration_tolerance"), where + ".initial_penetration_tolerance", "must not be negative");
  }
  if (t.get("law") && t.get("law")->value_or(std::string()) == "elastic_foundation") {
    c.foundation = read_foundation(t, where, c);
    check_pairs(t, where, c);
    for (const auto* side : {&c.surfaces_i, &c.surfaces_j})
      for (int k : *side) {
        try {
          mesh_table_grid(k);
        } catch (const std::exception& e) {
          r_.fail(t, where, "surface '" + s_.surfaces[static_cast<std::size_t>(k)].name + "': " + e.what());
        }
      }
    s_.contacts.push_back(std::move(c));
    return;
  }
  for (const char* key : kFoundationKeys)
    if (t.get(key)) r_.fail(*t.get(key), where + "." + key, "belongs to law = \"elastic_foundation\"");
  check_pairs(t, where, c);
  c.stiffness_from_curvature = t.get("stiffness_from_curvature") && t.get("stiffness_from_curvature")->value_or(false);
  double stiffness = 0;
  if (c.stiffness_from_curvature) {
    for (const auto* side : {&c.surfaces_i, &c.surfaces_j})
      for (int k : *side)
        if (!s_.surfaces[static_cast<std::size_t>(k)].material)
          r_.fail(t, where, "stiffness_from_curvature needs youngs_modulus and poisson_ratio on both surfaces ('" +
                                s_.surfaces[static_cast<std::size_t>(k)].name + "' has none)");
  } else {
    stiffness = r_.positive(t, "stiffness", where);
  }
  c.law = law_from(r_, t, where, stiffness);
  c.max_damping_ratio = r_.positive(t, "max_damping_ratio", where, ContactGroupSpec{}.max_damping_ratio);
  c.friction = read_friction(t, where);
  check_cavities(t, where, c);
  s_.contacts.push_back(std::move(c));
}

// friction (mu) with its model: "coulomb" regularised below friction_velocity, or "ambrosio" with
// friction_velocities = [v0, v1]; a model's parameters without friction, or another model's, are
// errors.
FrictionLaw ScenarioReader::read_friction(const toml::table& t, const std::string& where) const {
  const std::string model = r_.text(t, "friction_model", where, std::string("coulomb"));
  if (model != "coulomb" && model != "ambrosio")
    r_.fail(*t.get("friction_model"), where + ".friction_model", "unknown friction model '" + model + "' (coulomb, ambrosio)");
  const auto refuse = [&](const char* key, const std::string& why) {
    if (t.get(key)) r_.fail(*t.get(key), where + "." + key, why);
  };
  if (!t.get("friction")) {
    for (const char* key : {"friction_model", "friction_velocity", "friction_velocities"}) refuse(key, "needs friction (mu)");
    return NoFriction{};
  }
  const double mu = r_.number(t, "friction", where);
  if (mu < 0) r_.fail(*t.get("friction"), where + ".friction", "must not be negative");
  if (model == "coulomb") {
    refuse("friction_velocities", "belongs to friction_model = \"ambrosio\"");
    return CoulombRegularised{mu, r_.positive(t, "friction_velocity", where, CoulombRegularised{}.velocity_threshold)};
  }
  refuse("friction_velocity", "belongs to friction_model = \"coulomb\" (ambrosio takes friction_velocities = [v0, v1])");
  const CoulombAmbrosio defaults;
  const auto v = t.get("friction_velocities") ? r_.numbers(t, "friction_velocities", where, 2)
                                              : std::vector<double>{defaults.velocity_0, defaults.velocity_1};
  if (!(v[0] >= 0 && v[1] > v[0]))
    r_.fail(*t.get("friction_velocities"), where + ".friction_velocities", "must be [v0, v1] with 0 <= v0 < v1, m/s");
  return CoulombAmbrosio{mu, v[0], v[1]};
}

// The polygonal model's law: the foundation's stiffness given, or from both sides' layers; areal
// damping with its depth; regularised Coulomb friction.
ElasticFoundation ScenarioReader::read_foundation(const toml::table& t, const std::string& where,
                                                  const ContactGroupSpec& c) const {
  for (const char* key : kPointLawKeys)
    if (t.get(key)) r_.fail(*t.get(key), where + "." + key, "does not apply to law = \"elastic_foundation\"");
  ElasticFoundation law;
  if (t.get("foundation_stiffness")) {
    law.stiffness = r_.positive(t, "foundation_stiffness", where);
  } else {
    for (const auto* side : {&c.surfaces_i, &c.surfaces_j})
      for (int k : *side)
        if (!s_.surfaces[static_cast<std::size_t>(k)].foundation_layer)
          r_.fail(t, where, "the elastic foundation needs foundation_stiffness (N/m^3), or foundation_modulus and "
                            "layer_thickness on both surfaces ('" + s_.surfaces[static_cast<std::size_t>(k)].name +
                            "' has none)");
  }
  law.damping = r_.number(t, "damping", where, 0.0);
  law.damping_depth = r_.number(t, "damping_depth", where, 0.0);
  for (const char* key : {"damping", "damping_depth"})
    if (t.get(key) && r_.number(t, key, where) < 0) r_.fail(*t.get(key), where + "." + key, "must not be negative");
  if (t.get("friction")) {
    law.friction = r_.number(t, "friction", where);
    if (law.friction < 0) r_.fail(*t.get("friction"), where + ".friction", "must not be negative");
    law.friction_velocity = r_.positive(t, "friction_velocity", where, law.friction_velocity);
  } else if (t.get("friction_velocity")) {
    r_.fail(*t.get("friction_velocity"), where + ".friction_velocity", "needs friction (mu)");
  }
  return law;
}

// A ball inside a cavity at t = 0 must fit in it: a cavity no larger than the ball (a radius, or a
// cylinder's length, too small) holds no ball, whatever the law.
void ScenarioReader::check_cavities(const toml::table& t, const std::string& where, const ContactGroupSpec& c) const {
  using Kind = ContactSurface::Kind;
  for (int a : c.surfaces_i)
    for (int b : c.surfaces_j) {
      const ContactSurface &ball = s_.surfaces[static_cast<std::size_t>(a)], &cavity = s_.surfaces[static_cast<std::size_t>(b)];
      if (ball.kind != Kind::sphere || (cavity.kind != Kind::cavity && cavity.kind != Kind::cylinder_cavity)) continue;
      const Pose pb = pose_of(ball.body), pc = pose_of(cavity.body);
      const Vector3d centre = pb.r + pb.A * ball.mount.offset;
      const Vector3d rel = (pc.A * cavity.mount.rotation).transpose() * (centre - pc.r - pc.A * cavity.mount.offset);
      const bool cylinder = cavity.kind == Kind::cylinder_cavity;
      const bool inside = cylinder ? rel.head<2>().norm() < cavity.radius && std::abs(rel.z()) < 0.5 * cavity.length
                                   : rel.norm() < cavity.radius;
      const bool fits = cavity.radius > ball.radius && (!cylinder || cavity.length > 2 * ball.radius);
      if (inside && !fits)
        r_.fail(t, where, "the ball '" + ball.name + "' starts inside '" + cavity.name +
                              "', which is too small to hold it (a radius, or a cylinder's length, not larger than the ball's)");
    }
}

// The surfaces a contact's surface_i or surface_j names: one name, or a glob pattern (fnmatch:
// *, ?, [...]) matching several, in the order the file gives them.
std::vector<int> ScenarioReader::matching(const toml::table& t, const char* key, const std::string& where) const {
  const std::string pattern = r_.text(t, key, where);
  std::vector<int> found;
  for (std::size_t k = 0; k < s_.surfaces.size(); ++k)
    if (fnmatch(pattern.c_str(), s_.surfaces[k].name.c_str(), 0) == 0) found.push_back(static_cast<int>(k));
  if (found.empty())
    r_.fail(*t.get(key), where + "." + key,
            pattern.find_first_of("*?[") == std::string::npos ? "no surface named '" + pattern + "'"
                                                               : "the pattern '" + pattern + "' matches no surface");
  return found;
}

// Every candidate pair must be one a detector takes, in the orientation the group will give it;
// a contact naming two surfaces must name surfaces of two bodies.
void ScenarioReader::check_pairs(const toml::table& t, const std::string& where, const ContactGroupSpec& c) const {
  const auto& all = s_.surfaces;
  if (c.surfaces_i.size() == 1 && c.surfaces_j.size() == 1 &&
      all[static_cast<std::size_t>(c.surfaces_i[0])].body == all[static_cast<std::size_t>(c.surfaces_j[0])].body)
    r_.fail(t, where, "both surfaces are on the same body");
  // One surface per kind and side is enough: validity depends on the kinds alone. A pair both of
  // whose surfaces are on both sides may come in either order (the lower index is i).
  std::map<ContactSurface::Kind, int> kinds_i, kinds_j;
  for (int k : c.surfaces_i) kinds_i.emplace(all[static_cast<std::size_t>(k)].kind, k);
  for (int k : c.surfaces_j) kinds_j.emplace(all[static_cast<std::size_t>(k)].kind, k);
  const auto in = [](const std::vector<int>& side, int k) { return std::find(side.begin(), side.end(), k) != side.end(); };
  try {
    for (const auto& [kind_i, a] : kinds_i)
      for (const auto& [kind_j, b] : kinds_j) {
        check_kinds(all[static_cast<std::size_t>(a)], all[static_cast<std::size_t>(b)], c.foundation.has_value());
        if (in(c.surfaces_j, a) && in(c.surfaces_i, b))
          check_kinds(all[static_cast<std::size_t>(b)], all[static_cast<std::size_t>(a)], c.foundation.has_value());
      }
  } catch (const std::invalid_argument& e) {
    r_.fail(t, where, e.what());
  }
}

}  // namespace surfdb
