#include "surfdb/multibody/contact_group.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "surfdb/contact/contact_wrench.hpp"
#include "surfdb/multibody/welded_bodies.hpp"

namespace surfdb {
namespace {
// Accepted steps a pair of a group stays made while the broad phase finds its surfaces apart.
constexpr std::uint64_t kIdleRounds = 100;

// Sphere i against the primitive j, both in their bodies' axes.
AnalyticContact analytic_contact(const ContactSurface& i, const ContactSurface& j) {
  using Kind = ContactSurface::Kind;
  using Shape = AnalyticContact::Shape;
  const Eigen::Vector3d& centre = j.mount.offset;
  const Eigen::Vector3d axis = j.mount.rotation.col(2);
  AnalyticContact a;
  a.sphere = {i.mount.offset, i.radius};
  switch (j.kind) {
    case Kind::plane:
      a.shape = Shape::plane;
      a.plane = {centre, j.mount.rotation * j.normal};
      break;
    case Kind::sphere:
    case Kind::cavity:
      a.shape = j.kind == Kind::sphere ? Shape::sphere : Shape::cavity;
      a.other = {centre, j.radius};
      a.cap = {axis, j.cap_height};
      break;
    case Kind::box:
      a.shape = Shape::box;
      a.box = {centre, j.mount.rotation, j.half_extents};
      break;
    case Kind::cylinder:
      a.shape = Shape::cylinder;
      a.cylinder = {centre, axis, j.radius, j.length};
      break;
    case Kind::cylinder_cavity:
      a.shape = Shape::cylinder_cavity;
      a.cylinder_cavity = {centre - 0.5 * j.length * axis, axis, j.radius, j.length};
      break;
    case Kind::table:
    case Kind::mesh: throw std::logic_error("analytic_contact: a table or a mesh is not a primitive");
  }
  return a;
}

}  // namespace

ContactSpec pair_spec(const ContactGroupSpec& group, const std::vector<ContactSurface>& surfaces,
                      const MultibodyModel& model, int a, int b) {
  using Kind = ContactSurface::Kind;
  const ContactSurface& si = surfaces[static_cast<std::size_t>(a)];
  const ContactSurface& sj = surfaces[static_cast<std::size_t>(b)];
  if (si.body == sj.body)
    throw std::invalid_argument("surfaces '" + si.name + "' and '" + sj.name + "' are on the same body");
  ContactSpec c{.name = group.name, .surface_i = si.name, .surface_j = sj.name, .body_i = si.body, .body_j = sj.body};
  c.law = group.law;
  c.initial_penetration_tolerance = group.initial_penetration_tolerance;
  c.max_damping_ratio = group.max_damping_ratio;
  c.effective_mass = effective_mass(model, si.body, sj.body);
  c.entry_weight = default_entry_weight(model, si.body, sj.body);
  c.friction = group.friction;
  if (group.stiffness_from_curvature) {
    if (!si.material || !sj.material)
      throw std::invalid_argument("stiffness_from_curvature needs youngs_modulus and poisson_ratio on '" + si.name +
                                  "' and '" + sj.name + "'");
    c.curvature_stiffness = std::pair{*si.material, *sj.material};
  }
  if (group.foundation) {
    for (const ContactSurface* s : {&si, &sj})
      if (!s->mesh)
        throw std::invalid_argument("'" + s->name + "' is not a mesh or a table: the elastic foundation (polygonal " +
                                    "model) needs a mesh or a table on both sides");
    ArealMeshes m{si.mesh, sj.mesh, si.mount, sj.mount, *group.foundation};
    if (m.law.stiffness == 0) {
      if (!si.foundation_layer || !sj.foundation_layer)
        throw std::invalid_argument("the elastic foundation between '" + si.name + "' and '" + sj.name +
                                    "' needs foundation_stiffness, or foundation_modulus and layer_thickness on both");
      const ElasticFoundation layers = ElasticFoundation::from_layers(
          si.foundation_layer->first, si.foundation_layer->second, sj.foundation_layer->first, sj.foundation_layer->second);
      m.law.stiffness = layers.stiffness;
      m.law.master_share = layers.master_share;
    } else if (si.foundation_layer && sj.foundation_layer) {  // c given; the layers still share u
      m.law.master_share = ElasticFoundation::from_layers(si.foundation_layer->first, si.foundation_layer->second,
                                                          sj.foundation_layer->first, sj.foundation_layer->second)
                               .master_share;
    }
    c.geometry = m;
    return c;
  }
  if (si.kind == Kind::mesh || sj.kind == Kind::mesh)
    throw std::invalid_argument("'" + si.name + "' with '" + sj.name + "': a mesh takes part in the polygonal model " +
                                "only (law = \"elastic_foundation\")");
  if (si.kind == Kind::table && sj.kind == Kind::table) {
    FreeformSurfaces f{si.tables, sj.tables, si.mount, sj.mount, {}};
    f.options.skip_while_apart = true;  // a contact's forces, zero while apart, need no answer then
    f.options.window_i = si.window;
    f.options.window_j = sj.window;
    f.options.residency_i = si.residency;
    f.options.residency_j = sj.residency;
    c.geometry = f;
    return c;
  }
  if (!can_pair(si.kind, sj.kind))
    throw std::invalid_argument("'" + si.name + "' with '" + sj.name +
                                "': a table pairs with a table, a sphere (surface_i) with any surface");
  if (sj.kind == Kind::table) {
    SphereOnTables s{{si.mount.offset, si.radius}, sj.tables, sj.mount, {}};
    s.options.skip_while_apart = true;
    s.options.window_j = sj.window;
    s.options.residency_j = sj.residency;
    c.geometry = s;
    return c;
  }
  c.geometry = analytic_contact(si, sj);
  return c;
}

ContactGroup::ContactGroup(ContactPair pair) : name_(pair.name()), fixed_(std::move(pair)) {}

ContactGroup::ContactGroup(ContactGroupSpec spec, const std::vector<ContactSurface>& surfaces, const MultibodyModel& model)
    : name_(spec.name), spec_(std::move(spec)), surfaces_(&surfaces), model_(&model), in_i_(surfaces.size()),
      in_j_(surfaces.size()), weld_(weld_clusters(model)) {
  for (int s : spec_.surfaces_i) in_i_[static_cast<std::size_t>(s)] = 1;
  for (int s : spec_.surfaces_j) in_j_[static_cast<std::size_t>(s)] = 1;
  for (std::size_t s = 0; s < surfaces.size(); ++s)
    if ((in_i_[s] || in_j_[s]) && !surfaces[s].bounded()) unbounded_.emplace_back(static_cast<int>(s), in_i_[s] != 0);
  // A group of exactly one candidate pair is that pair, fixed: always evaluated, like a pair
  // given directly, so its outputs (the gap, the windows) run on while the surfaces are apart.
  if (spec_.surfaces_i.size() == 1 && spec_.surfaces_j.size() == 1 && spec_.surfaces_i[0] != spec_.surfaces_j[0])
    fixed_.emplace(pair_spec(spec_, surfaces, model, spec_.surfaces_i[0], spec_.surfaces_j[0]));
}

int ContactGroup::orientation(int a, int b) const {
  const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  const ContactSurface& sa = (*surfaces_)[ua];
  const ContactSurface& sb = (*surfaces_)[ub];
  if (weld_[static_cast<std::size_t>(sa.body + 1)] == weld_[static_cast<std::size_t>(sb.body + 1)]) return 0;
  const bool ab = in_i_[ua] && in_j_[ub], ba = in_i_[ub] && in_j_[ua];
  if (ab && ba) return a < b ? 1 : -1;  // both orders match: once, the lower index as i
  return ab ? 1 : ba ? -1 : 0;
}

ContactPair& ContactGroup::pair(int i, int j) {
  if (fixed_) return *fixed_;
  const std::uint64_t k = key(i, j);
  if (!keys_.empty())
    for (std::size_t s = home(k);; s = (s + 1) & (keys_.size() - 1)) {
      if (keys_[s] == kEmpty) break;
      if (keys_[s] == k) {
        Entry& e = entries_[slots_[s]];
        e.round = round_;
        return *e.pair;
      }
    }
  std::uint32_t e;
  if (free_.empty()) {
    e = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
  } else {
    e = free_.back();
    free_.pop_back();
  }
  entries_[e].pair.emplace(pair_spec(spec_, *surfaces_, *model_, i, j));
  entries_[e].key = k;
  entries_[e].round = round_;
  ++live_;
  if (2 * live_ > keys_.size()) rebuild(std::max<std::size_t>(64, 4 * live_));
  else insert(k, e);
  return *entries_[e].pair;
}

void ContactGroup::insert(std::uint64_t k, std::uint32_t entry) {
  std::size_t s = home(k);
  while (keys_[s] != kEmpty) s = (s + 1) & (keys_.size() - 1);
  keys_[s] = k;
  slots_[s] = entry;
}

void ContactGroup::rebuild(std::size_t capacity) {
  std::size_t size = 1;
  int bits = 0;
  while (size < capacity) size <<= 1, ++bits;
  keys_.assign(size, kEmpty);
  slots_.assign(size, 0);
  shift_ = 64 - bits;
  for (std::size_t e = 0; e < entries_.size(); ++e)
    if (entries_[e].pair) insert(entries_[e].key, static_cast<std::uint32_t>(e));
}

void ContactGroup::begin_accept(double t) {
  ++round_;
  time_ = t;
  output_ = GroupOutput{};
}

void ContactGroup::accept(double t, int surface_i, int surface_j, const BodyState& i, const BodyState& j) {
  ContactPair& pair = this->pair(surface_i, surface_j);
  const ContactStatistics before = pair.state().statistics;
  pair.accept(t, ended_);
  const ContactState& s = pair.state();
  const ContactStatistics& after = s.statistics;
  statistics_.impacts += after.impacts - before.impacts;
  statistics_.solver_failures += after.solver_failures - before.solver_failures;
  statistics_.deep_appearances += after.deep_appearances - before.deep_appearances;
  statistics_.deepest_appearance = std::max(statistics_.deepest_appearance, after.deepest_appearance);
  statistics_.max_points = std::max(statistics_.max_points, after.max_points);
  statistics_.max_indentation = std::max(statistics_.max_indentation, after.max_indentation);
  if (!std::isnan(after.first_contact_time) &&
      (std::isnan(statistics_.first_contact_time) || after.first_contact_time < statistics_.first_contact_time))
    statistics_.first_contact_time = after.first_contact_time;
  ++output_.pairs;
  output_.points += s.points;
  output_.normal_force += s.last_force;
  output_.elastic_energy += s.last_elastic_energy;
  if (s.points == 0) return;
  if (const PolygonalContactResult* a = pair.areal()) {
    output_.area += a->area;
    output_.volume += a->volume;
    output_.patches += a->patches;
    output_.force += a->force_i;
    output_.torque += a->torque_i;
  }
  output_.max_indentation = std::max(output_.max_indentation, s.last.indentation);
  if (fixed_) statistics_.pairs_touched = 1;
  else if (touched_.insert(key(surface_i, surface_j)).second) ++statistics_.pairs_touched;
  const std::span<const ContactResult> results = pair.results();
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (!pair.active(k)) continue;
    const ContactForces f = pair.forces(k);
    const ContactWrench w = contact_wrench(results[k], f.normal, f.tangential, i.pose, j.pose);
    output_.force += w.force_i;
    output_.torque += w.torque_i;
  }
}

void ContactGroup::end_accept() {
  statistics_.max_area = std::max(statistics_.max_area, output_.area);
  bool dropped = false;
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    if (!entries_[e].pair || entries_[e].round == round_) continue;
    // Apart at this step: its episodes end. Kept a while (bodies in a pile come and go: remaking
    // a pair costs allocations and, for tables, a global search), then dropped.
    entries_[e].pair->release(time_, ended_);
    if (entries_[e].round + kIdleRounds > round_) continue;
    entries_[e].pair.reset();
    free_.push_back(static_cast<std::uint32_t>(e));
    --live_;
    dropped = true;
  }
  if (dropped) rebuild(keys_.size());
}

std::vector<ImpactRecord> ContactGroup::impacts_detail() const {
  std::vector<ImpactRecord> all = ended_;
  for_each_pair([&](const ContactPair& pair) {
    for (const ImpactRecord& e : pair.state().episodes)
      if (!std::isnan(e.start)) all.push_back(e);
  });
  // Under way (NaN) after any end at the same start.
  const auto end = [](const ImpactRecord& r) { return std::isnan(r.end) ? INFINITY : r.end; };
  std::stable_sort(all.begin(), all.end(), [&](const ImpactRecord& a, const ImpactRecord& b) {
    return a.start != b.start ? a.start < b.start : end(a) < end(b);
  });
  return all;
}

}  // namespace surfdb
