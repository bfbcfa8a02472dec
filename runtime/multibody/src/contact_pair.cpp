#include "surfdb/multibody/contact_pair.hpp"

#include <algorithm>
#include <cmath>

namespace surfdb {

double default_entry_weight(const MultibodyModel& model, int body_i, int body_j) {
  constexpr double kWeightFactor = 10, kStandardGravity = 9.80665;
  double mass = 0;  // the heavier body's: a light body may carry a heavy one's load
  for (int body : {body_i, body_j})
    if (body != kGround) mass = std::max(mass, model.bodies[static_cast<std::size_t>(body)].mass);
  const double g = model.gravity.norm();
  return kWeightFactor * mass * (g > 0 ? g : kStandardGravity);
}

ContactPair::ContactPair(ContactSpec spec) : spec_(std::move(spec)) {
  const double exponent = std::visit([](const auto& law) { return law.exponent; }, spec_.law);
  if (const auto* f = std::get_if<FreeformSurfaces>(&spec_.geometry)) {
    ContactOptions options = f->options;  // the edges' loads follow the pair's law
    options.edge_exponent = exponent;
    state_.freeform.emplace(f->surface_i, f->mount_i, f->surface_j, f->mount_j, options);
  }
  if (const auto* s = std::get_if<SphereOnTables>(&spec_.geometry)) {
    ContactOptions options = s->options;
    options.edge_exponent = exponent;
    state_.freeform.emplace(s->sphere, s->surface_j, s->mount_j, options);
  }
  if (const auto* a = std::get_if<ArealMeshes>(&spec_.geometry))
    state_.areal.emplace(a->mesh_i, a->mount_i, a->mesh_j, a->mount_j, a->law);
  state_.memory.resize(state_.freeform ? state_.freeform->size()
                       : state_.areal  ? 1
                                       : std::get<AnalyticContact>(spec_.geometry).slots());
  state_.episodes.resize(state_.memory.size());
}

std::span<const ContactResult> ContactPair::detect(const BodyState& i, const BodyState& j) {
  if (state_.areal) {
    state_.areal->evaluate(i, j);
    return {};
  }
  if (state_.freeform) {
    state_.freeform->evaluate(i, j);
    return state_.freeform->results();
  }
  const AnalyticContact& a = std::get<AnalyticContact>(spec_.geometry);
  using Shape = AnalyticContact::Shape;
  switch (a.shape) {
    case Shape::plane: analytic_[0] = contact_sphere_plane(i, a.sphere, j, a.plane); break;
    case Shape::sphere: analytic_[0] = contact_sphere_sphere(i, a.sphere, j, a.other); break;
    case Shape::cavity: analytic_[0] = contact_sphere_in_sphere(i, a.sphere, j, a.other, a.cap); break;
    case Shape::box: analytic_[0] = contact_sphere_box(i, a.sphere, j, a.box); break;
    case Shape::cylinder: analytic_[0] = contact_sphere_cylinder(i, a.sphere, j, a.cylinder); break;
    case Shape::cylinder_cavity: analytic_ = contact_sphere_in_cylinder(i, a.sphere, j, a.cylinder_cavity); break;
  }
  return results();
}

std::span<const ContactResult> ContactPair::results() const {
  if (state_.areal) return {};
  if (state_.freeform) return state_.freeform->results();
  return {analytic_.data(), state_.memory.size()};
}

bool ContactPair::active(std::size_t k) const {
  return state_.freeform ? state_.freeform->active(k) : analytic_[k].in_contact();
}

// A point that has just walked onto slot k from a neighbour slot (across an edge the faces share)
// continues the neighbour's impact: the dissipative laws divide by the impact velocity, and the
// approach rate of a sliding point is about zero. A neighbour still active now holds another
// point (a ball in a V-groove touching its second wall): that one is a new impact.
const ImpactMemory& ContactPair::memory_of(std::size_t k) const {
  const ImpactMemory& own = state_.memory[k];
  if (own.in_contact || !state_.freeform) return own;
  for (std::size_t e = 0; e < state_.memory.size(); ++e)
    if (state_.memory[e].in_contact && !active(e) && state_.freeform->neighbours(k, e)) return state_.memory[e];
  return own;
}

NormalLaw ContactPair::law_at(const ContactResult& contact) const {
  if (!spec_.curvature_stiffness) return spec_.law;
  const auto& [material_i, material_j] = *spec_.curvature_stiffness;
  return with_stiffness(spec_.law, hertz_stiffness_from_curvatures(contact.curvature_i, contact.curvature_j, material_i,
                                                                   material_j));
}

ContactForces ContactPair::forces(std::size_t k) const {
  ContactForces f;
  if (!active(k)) return f;
  const ContactResult& contact = results()[k];
  const NormalLaw law = law_at(contact);
  const double n = std::visit([](const auto& l) { return l.exponent; }, law);
  const double K = std::visit([](const auto& l) { return l.stiffness; }, law);
  const double v_impact =
      std::max(impact_velocity(memory_of(k), contact),
               critical_impact_velocity(law, contact.indentation, spec_.effective_mass.value_or(INFINITY),
                                        spec_.max_damping_ratio));
  f.normal = normal_force(law, contact.indentation, contact.indentation_rate, v_impact);
  f.elastic = K * std::pow(contact.indentation, n);
  const double energy_depth = std::isnan(contact.energy_indentation) ? contact.indentation : contact.energy_indentation;
  f.elastic_energy = K * std::pow(energy_depth, n + 1) / (n + 1);
  f.tangential = friction_force(spec_.friction, f.normal, contact.tangential_velocity);
  return f;
}

double ContactPair::entry_depth(const ContactResult& contact, double v) const {
  const NormalLaw law = law_at(contact);
  const double n = std::visit([](const auto& l) { return l.exponent; }, law);
  const double K = std::visit([](const auto& l) { return l.stiffness; }, law);
  const double by_weight = std::pow(spec_.entry_weight.value_or(0) / K, 1 / n);
  const double m = spec_.effective_mass.value_or(INFINITY);
  const double by_approach = std::pow((n + 1) * m * v * v / (2 * K), 1 / (n + 1));  // K d^(n+1) / (n+1) = m v^2 / 2
  return std::max(by_weight, by_approach);
}

void ContactPair::end_episode(std::size_t k, double t, std::vector<ImpactRecord>& ended) {
  ImpactRecord& e = state_.episodes[k];
  if (!std::isnan(e.start)) {  // else handed over to a neighbour slot
    e.end = t;
    ended.push_back(e);
  }
  e.start = NAN;
}

void ContactPair::release(double t, std::vector<ImpactRecord>& ended) {
  for (std::size_t k = 0; k < state_.memory.size(); ++k)
    if (state_.memory[k].in_contact) end_episode(k, t, ended);
  for (ImpactMemory& m : state_.memory) m.in_contact = false;
  state_.points = 0;
  if (state_.freeform) state_.freeform->release();
}

// Slot k, newly active, continues a neighbour's impact: the memory and the episode go on with it.
void ContactPair::inherit(std::size_t k, const std::span<const ContactResult> results) {
  const ImpactMemory& from = memory_of(k);
  if (&from == &state_.memory[k]) return;
  const std::size_t e = static_cast<std::size_t>(&from - state_.memory.data());
  state_.memory[k].impact_velocity = from.impact_velocity;  // the episode goes on: no impact counted
  state_.memory[k].in_contact = true;
  ImpactRecord& episode = state_.episodes[k];
  episode = state_.episodes[e];
  state_.episodes[e].start = NAN;
  episode.max_indentation = std::max(episode.max_indentation, results[k].indentation);
  episode.max_force = std::max(episode.max_force, forces(k).normal);
}

// An areal pair is one contact episode from the first step with elements to the first without;
// its "indentation" is the deepest element's penetration.
void ContactPair::accept_areal(double t, std::vector<ImpactRecord>& ended) {
  const PolygonalContactResult& r = state_.areal->result();
  ContactState& s = state_;
  s.points = r.elements;
  s.last_force = r.normal_force;
  s.last_elastic_energy = r.elastic_energy;
  s.last = ContactResult{};
  ImpactMemory& m = s.memory[0];
  if (!r.in_contact()) {
    if (m.in_contact) end_episode(0, t, ended);
    m.in_contact = false;
    return;
  }
  double rate = 0;  // the elements' mean approach rate, weighted by area
  for (const ContactElement& e : state_.areal->elements()) rate += e.area * e.penetration_rate;
  rate /= r.area;
  s.last.status = ContactStatus::touching;
  s.last.indentation = r.max_penetration;
  s.last.indentation_rate = rate;
  s.last.point_i = s.last.point_j = r.centre;
  if (!m.in_contact) {
    m.in_contact = true;
    m.impact_velocity = rate;
    ++m.impacts;
    s.episodes[0] = {t, NAN, rate, r.max_penetration, r.normal_force};
  }
  ImpactRecord& episode = s.episodes[0];
  episode.max_indentation = std::max(episode.max_indentation, r.max_penetration);
  episode.max_force = std::max(episode.max_force, r.normal_force);
  ContactStatistics& stats = s.statistics;
  stats.impacts = m.impacts;
  stats.max_points = std::max(stats.max_points, s.points);
  if (std::isnan(stats.first_contact_time)) stats.first_contact_time = t;
  stats.max_indentation = std::max(stats.max_indentation, r.max_penetration);
}

void ContactPair::accept(double t, std::vector<ImpactRecord>& ended) {
  if (state_.areal) return accept_areal(t, ended);
  const std::span<const ContactResult> results = this->results();
  ContactState& s = state_;
  ContactStatistics& stats = s.statistics;
  s.points = 0;
  s.last_force = 0;
  s.last_elastic_energy = 0;
  const std::size_t none = results.size();
  std::size_t deepest = none, nearest = none;
  bool failed = false;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const ContactResult& c = results[k];
    failed |= c.status == ContactStatus::no_convergence || c.status == ContactStatus::singular;
    if (c.status == ContactStatus::separated && (nearest == none || c.gap < results[nearest].gap)) nearest = k;
    if (!active(k)) continue;
    const ContactForces f = forces(k);
    if (s.memory[k].in_contact) {
      ImpactRecord& episode = s.episodes[k];
      episode.max_indentation = std::max(episode.max_indentation, c.indentation);
      episode.max_force = std::max(episode.max_force, f.normal);
    }
    ++s.points;
    s.last_force += f.normal;
    s.last_elastic_energy += f.elastic_energy;
    if (deepest == none || c.indentation > results[deepest].indentation) deepest = k;
  }
  // Latch after every slot's forces used the memories as they were during the step.
  for (std::size_t k = 0; k < results.size(); ++k)
    if (active(k) && !s.memory[k].in_contact) inherit(k, results);
  stats.impacts = 0;
  for (std::size_t k = 0; k < results.size(); ++k) {
    static const ContactResult kApart{};
    ImpactMemory& m = s.memory[k];
    const bool was_in_contact = m.in_contact;
    const int impacts = m.impacts;
    update_impact(m, active(k) ? results[k] : kApart);
    stats.impacts += m.impacts;
    if (m.impacts != impacts) {
      s.episodes[k] = {t, NAN, m.impact_velocity, results[k].indentation, forces(k).normal};
      // Twice the entry depth: the first step in contact may overshoot a little.
      if (results[k].indentation > 2 * entry_depth(results[k], m.impact_velocity)) {
        ++stats.deep_appearances;
        stats.deepest_appearance = std::max(stats.deepest_appearance, results[k].indentation);
      }
    }
    else if (was_in_contact && !m.in_contact)
      end_episode(k, t, ended);
  }
  s.last = results[deepest != none ? deepest : nearest != none ? nearest : 0];
  if (s.freeform) s.freeform->latch();
  stats.max_points = std::max(stats.max_points, s.points);
  if (s.points > 0) {
    if (std::isnan(stats.first_contact_time)) stats.first_contact_time = t;
    stats.max_indentation = std::max(stats.max_indentation, s.last.indentation);
  }
  if (failed) ++stats.solver_failures;
}

}  // namespace surfdb
