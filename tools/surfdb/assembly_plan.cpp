#include "assembly_plan.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "commands.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"

namespace surfdb::cli {
namespace {

bool matches(const std::string& pattern, const std::string& name) { return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0; }

std::string part_names(const CadAssembly& a) {
  std::string names;
  for (const AssemblyPart& p : a.parts()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

double density_value(const std::string& text, const std::string& option) {
  const auto x = option_number(text);
  if (!x || !std::isfinite(*x) || *x <= 0)
    throw std::runtime_error("--density '" + option + "': the density must be a positive, finite number of kg/m^3, not '" +
                             text + "'");
  return *x;
}

// Each part's density: --material's, then the file's material, then --density RHO, then each
// --density GLOB=RHO that matches it (the last one wins). A glob that matches no part is refused.
std::vector<std::optional<double>> part_densities(const CadAssembly& a, const AssembleOptions& o) {
  std::vector<std::optional<double>> density(a.parts().size());
  for (std::size_t p = 0; p < a.parts().size(); ++p) {
    if (o.material) density[p] = o.material->density;
    if (a.parts()[p].file_density > 0) density[p] = a.parts()[p].file_density;
  }
  for (const std::string& option : o.densities) {
    const std::size_t equals = option.find('=');
    if (equals == std::string::npos) {
      const double rho = density_value(option, option);
      for (auto& d : density) d = rho;
      continue;
    }
    const std::string glob = option.substr(0, equals);
    const double rho = density_value(option.substr(equals + 1), option);
    bool any = false;
    for (std::size_t p = 0; p < a.parts().size(); ++p)
      if (matches(glob, a.parts()[p].name)) density[p] = rho, any = true;
    if (!any) throw std::runtime_error("--density '" + option + "': no part matches '" + glob + "' (the parts are " + part_names(a) + ")");
  }
  return density;
}

// Components below 1e-12 (the rounding of the file's placements) are zero, so that a quarter turn
// reads as one.
// Each part's mass from the --mass GLOB=KG that match it (the last one wins), if any.
std::vector<std::optional<double>> part_masses(const CadAssembly& a, const AssembleOptions& o) {
  std::vector<std::optional<double>> mass(a.parts().size());
  for (const std::string& option : o.masses) {
    const std::size_t equals = option.find('=');
    if (equals == std::string::npos) throw UsageError("--mass '" + option + "': give NAME=KG (a part name or glob)");
    const std::string glob = option.substr(0, equals), text = option.substr(equals + 1);
    const auto kg = option_number(text);
    if (!kg || !std::isfinite(*kg) || *kg <= 0)
      throw std::runtime_error("--mass '" + option + "': the mass must be a positive, finite number of kg, not '" + text + "'");
    bool any = false;
    for (std::size_t p = 0; p < a.parts().size(); ++p)
      if (matches(glob, a.parts()[p].name)) mass[p] = *kg, any = true;
    if (!any) throw std::runtime_error("--mass '" + option + "': no part matches '" + glob + "' (the parts are " + part_names(a) + ")");
  }
  return mass;
}

Eigen::Quaterniond unit_orientation(const Eigen::Matrix3d& rotation) {
  Eigen::Quaterniond q(rotation);
  for (int k = 0; k < 4; ++k)
    if (std::abs(q.coeffs()[k]) < 1e-12) q.coeffs()[k] = 0;
  q.normalize();
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  return q;
}

std::vector<bool> grounded(const CadAssembly& a, const AssembleOptions& o) {
  std::vector<bool> ground(a.instances().size(), false);
  for (const std::string& glob : o.ground) {
    bool any = false;
    for (std::size_t k = 0; k < a.instances().size(); ++k) {
      const AssemblyInstance& i = a.instances()[k];
      if (matches(glob, i.name) || matches(glob, a.parts()[i.part].name)) ground[k] = true, any = true;
    }
    if (!any)
      throw std::runtime_error("--ground '" + glob + "': no part or instance matches it (the parts are " + part_names(a) + ")");
  }
  return ground;
}

// "GLOB:GLOB" -> the pairs of instances of two different bodies whose parts match either way round.
void add_contact_pairs(const CadAssembly& a, const std::string& option, AssemblyPlan& plan) {
  const std::size_t colon = option.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == option.size())
    throw UsageError("--contacts '" + option + "': give two part-name patterns as A:B, e.g. \"bolt*:plate\"");
  const std::string first = option.substr(0, colon), second = option.substr(colon + 1);
  for (const std::string& glob : {first, second}) {
    bool any = false;
    for (const AssemblyPart& p : a.parts()) any = any || matches(glob, p.name);
    if (!any) throw std::runtime_error("--contacts '" + option + "': no part matches '" + glob + "' (the parts are " + part_names(a) + ")");
  }
  const auto part_of = [&](std::size_t k) { return a.parts()[a.instances()[k].part].name; };
  for (std::uint32_t i = 0; i < a.instances().size(); ++i)
    for (std::uint32_t j = i + 1; j < a.instances().size(); ++j) {
      const bool ij = matches(first, part_of(i)) && matches(second, part_of(j));
      const bool ji = matches(first, part_of(j)) && matches(second, part_of(i));
      const bool both_ground = plan.bodies[i].ground && plan.bodies[j].ground;
      const std::pair<std::uint32_t, std::uint32_t> pair{i, j};
      if ((ij || ji) && !both_ground && std::find(plan.contact_pairs.begin(), plan.contact_pairs.end(), pair) == plan.contact_pairs.end())
        plan.contact_pairs.push_back(pair);
    }
}

// The instances' weld clusters (the ground's: index n) joined along the touching pairs; the pairs
// that join two clusters are the welds.
class WeldForest {
 public:
  explicit WeldForest(const std::vector<BodyPlan>& bodies) : root_(bodies.size() + 1) {
    const std::size_t ground = bodies.size();
    for (std::size_t k = 0; k <= ground; ++k) root_[k] = k < ground && bodies[k].ground ? ground : k;
  }
  std::size_t find(std::size_t k) const {
    while (root_[k] != k) k = root_[k];
    return k;
  }
  bool join(std::size_t i, std::size_t j) {
    std::size_t a = find(i), b = find(j);
    if (a == b) return false;
    if (b == root_.size() - 1) std::swap(a, b);  // the ground stays a root
    root_[b] = a;
    return true;
  }

 private:
  std::vector<std::size_t> root_;
};

void fasten_touching(const CadAssembly& a, const AssembleOptions& o, AssemblyPlan& plan) {
  if (o.fasten_gap < 0) return;
  WeldForest forest(plan.bodies);
  for (const auto& [i, j] : a.touching_instances(o.fasten_gap))
    if (forest.join(i, j)) plan.welds.emplace_back(i, j);
  std::erase_if(plan.contact_pairs, [&](const auto& p) { return forest.find(p.first) == forest.find(p.second); });
}

}  // namespace

Material material_named(const std::string& name) {
  static const Material kMaterials[] = {
      {"steel", 7850}, {"aluminium", 2700}, {"brass", 8500}, {"titanium", 4430}, {"abs", 1040}};
  std::string names;
  for (const Material& m : kMaterials) {
    if (m.name == name) return m;
    names += (names.empty() ? "" : ", ") + m.name;
  }
  throw UsageError("--material '" + name + "': unknown material (" + names + "; or give --density RHO)");
}

AssemblyPlan plan_assembly(const CadAssembly& a, const AssembleOptions& o) {
  const std::vector<std::optional<double>> density = part_densities(a, o), mass = part_masses(a, o);
  AssemblyPlan plan;
  const double metres = meters_per(a.unit());
  for (std::uint32_t p = 0; p < a.parts().size(); ++p) {
    if (!density[p] && !mass[p])
      throw std::runtime_error("part '" + a.parts()[p].name + "' has no density: give --material, --density RHO or --density '" +
                               a.parts()[p].name + "=RHO' (kg/m^3), or --mass '" + a.parts()[p].name + "=KG'");
    PartPlan part{p, 0, mass[p] ? a.mass_properties_for_mass(p, *mass[p]) : a.mass_properties(p, *density[p]), {}};
    part.density = !mass[p] ? *density[p] : a.parts()[p].solids > 0 ? part.mass.mass / part.mass.volume : 0;
    part.body_frame = Placement{part.mass.principal_axes, part.mass.centre / metres};
    plan.parts.push_back(part);
  }
  const std::vector<bool> ground = grounded(a, o);
  for (std::uint32_t k = 0; k < a.instances().size(); ++k) {
    const AssemblyInstance& i = a.instances()[k];
    const Placement body = plan.parts[i.part].body_frame.then(i.placement);  // body axes to world
    plan.bodies.push_back({k, i.part, body.translation * metres, unit_orientation(body.rotation), ground[k]});
  }
  plan.every_pair = o.contacts.empty();
  for (const std::string& option : o.contacts) add_contact_pairs(a, option, plan);
  fasten_touching(a, o, plan);
  if (!plan.every_pair && plan.contact_pairs.empty())
    throw std::runtime_error("--contacts: the patterns pair no two instances of different bodies that are not fastened");
  return plan;
}

}  // namespace surfdb::cli
