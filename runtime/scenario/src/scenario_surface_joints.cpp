// [[joint]] entries of type surface_contact: a sliding contact between two [[surface]] entries
// held as a constraint (surfdb/multibody/surface_joint.hpp). Read after the surfaces and the
// contacts, which they name.
#include <string_view>

#include "scenario_keys.hpp"
#include "scenario_reader.hpp"

namespace surfdb {
namespace {

// Keys of the lower pairs, which a surface joint does not take: its bodies are its surfaces'.
constexpr std::string_view kLowerPairKeys[]{"body_i", "body_j", "point", "axis", "reference", "reference_j"};

bool surface_joint_takes(ContactSurface::Kind i, ContactSurface::Kind j) {
  using Kind = ContactSurface::Kind;
  if (i == Kind::table && j == Kind::table) return true;
  return i == Kind::sphere && (j == Kind::table || j == Kind::sphere || j == Kind::cavity || j == Kind::plane);
}

}  // namespace

// sliding_plane (default) or five_equations, the latter between two tables only: its states are
// the tables' surface parameters.
SurfaceJointFormulation ScenarioReader::formulation(const toml::table& j, const std::string& where,
                                                    const ContactSurface& si, const ContactSurface& sj) const {
  const std::string name = r_.text(j, "formulation", where, std::string("sliding_plane"));
  if (name == "sliding_plane") return SurfaceJointFormulation::sliding_plane;
  if (name != "five_equations")
    r_.fail(*j.get("formulation"), where + ".formulation", "unknown formulation '" + name + "' (sliding_plane, five_equations)");
  using Kind = ContactSurface::Kind;
  if (si.kind != Kind::table || sj.kind != Kind::table)
    r_.fail(*j.get("formulation"), where + ".formulation",
            "five_equations makes the surface parameters of two tables (or surface sets) states, and '" +
                (si.kind != Kind::table ? si.name : sj.name) +
                "' is not a table: use formulation = \"sliding_plane\" (the default) for an analytic surface");
  return SurfaceJointFormulation::five_equations;
}

int ScenarioReader::surface_named(const toml::table& t, const char* key, const std::string& where) const {
  const std::string name = r_.text(t, key, where);
  const auto it = surfaces_.find(name);
  if (it == surfaces_.end()) r_.fail(*t.get(key), where + "." + key, "no surface named '" + name + "'");
  return it->second;
}

void ScenarioReader::read_surface_joint(const toml::table& j) {
  const std::string name = r_.text(j, "name", "joint");
  const std::string where = "joint '" + name + "'";
  for (std::string_view key : kLowerPairKeys)
    if (const toml::node* n = j.get(key))
      r_.fail(*n, where + "." + std::string(key), "a surface_contact joint takes no " + std::string(key) +
                                                      ": it joins the bodies of its surfaces where they touch");
  for (const SurfaceJointSpec& other : s_.model.surface_joints)
    if (other.name == name) r_.fail(j, where, "the name is used twice (its time-series columns would be too)");
  SurfaceJointSpec spec;
  spec.name = name;
  spec.surface_i = surface_named(j, "surface_i", where);
  spec.surface_j = surface_named(j, "surface_j", where);
  // A sphere is always surface i to the detectors: given as j, the two swap (the force is the same).
  using Kind = ContactSurface::Kind;
  const auto kind = [&](int s) { return s_.surfaces[static_cast<std::size_t>(s)].kind; };
  if (kind(spec.surface_j) == Kind::sphere && kind(spec.surface_i) != Kind::sphere) std::swap(spec.surface_i, spec.surface_j);
  const ContactSurface &si = s_.surfaces[static_cast<std::size_t>(spec.surface_i)],
                       &sj = s_.surfaces[static_cast<std::size_t>(spec.surface_j)];
  if (si.body == sj.body) r_.fail(j, where, "both surfaces are on the same body");
  if (!surface_joint_takes(si.kind, sj.kind))
    r_.fail(j, where, "joins '" + si.name + "' and '" + sj.name + "': a surface_contact joint takes two tables (or " +
                          "surface sets), or a sphere and a table, sphere, cavity or plane (a mesh, a box or a cylinder " +
                          "has no smooth tangent plane everywhere)");
  spec.body_i = si.body;
  spec.body_j = sj.body;
  spec.formulation = formulation(j, where, si, sj);
  if (spec.formulation == SurfaceJointFormulation::five_equations && j.get("search_interval"))
    r_.fail(*j.get("search_interval"), where + ".search_interval",
            "the five-equation formulation holds one pair of faces and searches only at t = 0");
  spec.search_interval = r_.positive(j, "search_interval", where, SurfaceJointSpec{}.search_interval);
  spec.initial_gap_tolerance = r_.positive(j, "initial_gap_tolerance", where, SurfaceJointSpec{}.initial_gap_tolerance);
  if (j.get("release_to")) {
    const std::string contact = r_.text(j, "release_to", where);
    for (std::size_t c = 0; c < s_.contacts.size(); ++c)
      if (s_.contacts[c].name == contact) spec.release_to = static_cast<int>(c);
    if (spec.release_to < 0) r_.fail(*j.get("release_to"), where + ".release_to", "no contact named '" + contact + "'");
    const ContactGroupSpec& c = s_.contacts[static_cast<std::size_t>(spec.release_to)];
    const auto names = [&](int a, int b) {
      return c.surfaces_i.size() == 1 && c.surfaces_j.size() == 1 &&
             ((c.surfaces_i[0] == a && c.surfaces_j[0] == b) || (c.surfaces_i[0] == b && c.surfaces_j[0] == a));
    };
    if (!names(spec.surface_i, spec.surface_j))
      r_.fail(*j.get("release_to"), where + ".release_to",
              "contact '" + contact + "' must join exactly the joint's surfaces '" + si.name + "' and '" + sj.name + "'");
    if (c.foundation)
      r_.fail(*j.get("release_to"), where + ".release_to",
              "contact '" + contact + "' is areal (elastic_foundation): a joint hands over to a point contact");
    for (const SurfaceJointSpec& other : s_.model.surface_joints)
      if (other.release_to == spec.release_to)
        r_.fail(*j.get("release_to"), where + ".release_to", "contact '" + contact + "' already replaces joint '" + other.name + "'");
  }
  s_.model.surface_joints.push_back(spec);
}

}  // namespace surfdb
