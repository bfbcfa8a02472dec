#include "surfdb/multibody/contact_pair.hpp"

#include <cmath>

namespace surfdb {

ContactPair::ContactPair(ContactSpec spec) : spec_(std::move(spec)) {
  if (const auto* f = std::get_if<FreeformSurfaces>(&spec_.geometry))
    state_.freeform.emplace(f->surface_i, f->mount_i, f->surface_j, f->mount_j, f->options);
}

ContactResult ContactPair::detect(const BodyState& i, const BodyState& j) {
  if (state_.freeform) return state_.freeform->evaluate(i, j);
  const AnalyticContact& a = std::get<AnalyticContact>(spec_.geometry);
  switch (a.shape) {
    case AnalyticContact::Shape::plane: return contact_sphere_plane(i, a.sphere, j, a.plane);
    case AnalyticContact::Shape::sphere: return contact_sphere_sphere(i, a.sphere, j, a.other);
    case AnalyticContact::Shape::cavity: return contact_sphere_in_sphere(i, a.sphere, j, a.other);
  }
  return {};
}

ContactForces ContactPair::forces(const ContactResult& contact) const {
  ContactForces f;
  if (!contact.in_contact()) return f;
  NormalLaw law = spec_.law;
  if (spec_.curvature_stiffness) {
    const auto& [material_i, material_j] = *spec_.curvature_stiffness;
    law = with_stiffness(law, hertz_stiffness_from_curvatures(contact.curvature_i, contact.curvature_j, material_i,
                                                              material_j));
  }
  const double n = std::visit([](const auto& l) { return l.exponent; }, law);
  const double K = std::visit([](const auto& l) { return l.stiffness; }, law);
  f.normal = normal_force(law, contact.indentation, contact.indentation_rate, impact_velocity(state_.memory, contact));
  f.elastic = K * std::pow(contact.indentation, n);
  f.elastic_energy = K * std::pow(contact.indentation, n + 1) / (n + 1);
  f.tangential = friction_force(spec_.friction, f.normal, contact.tangential_velocity);
  return f;
}

void ContactPair::accept(double t, const ContactResult& c) {
  const ContactForces f = forces(c);
  state_.last = c;
  state_.last_force = f.normal;
  state_.last_elastic_energy = f.elastic_energy;
  update_impact(state_.memory, c);
  ContactStatistics& s = state_.statistics;
  if (c.in_contact()) {
    if (std::isnan(s.first_contact_time)) s.first_contact_time = t;
    s.max_indentation = std::max(s.max_indentation, c.indentation);
  }
  if (c.status == ContactStatus::no_convergence || c.status == ContactStatus::singular) ++s.solver_failures;
}

}  // namespace surfdb
