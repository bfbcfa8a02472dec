#include "surfdb/runtime/contact_pair.hpp"

#include <cmath>

namespace surfdb {

ContactResult detect(ContactPair& pair, const BodyState& i, const BodyState& j) {
  if (auto* freeform = std::get_if<FreeformContact>(&pair.detector)) return freeform->evaluate(i, j);
  const AnalyticContact& a = std::get<AnalyticContact>(pair.detector);
  switch (a.shape) {
    case AnalyticContact::Shape::plane: return contact_sphere_plane(i, a.sphere, j, a.plane);
    case AnalyticContact::Shape::sphere: return contact_sphere_sphere(i, a.sphere, j, a.other);
    case AnalyticContact::Shape::cavity: return contact_sphere_in_sphere(i, a.sphere, j, a.other);
  }
  return {};
}

ContactForces contact_forces(const ContactPair& pair, const ContactResult& contact) {
  ContactForces f;
  if (!contact.in_contact()) return f;
  NormalLaw law = pair.law;
  if (pair.curvature_stiffness) {
    const double K = hertz_stiffness_from_curvatures(contact.curvature_i, contact.curvature_j,
                                                     pair.curvature_stiffness->first, pair.curvature_stiffness->second);
    law = with_stiffness(law, K);
  }
  const double n = std::visit([](const auto& l) { return l.exponent; }, law);
  const double K = std::visit([](const auto& l) { return l.stiffness; }, law);
  f.normal = normal_force(law, contact.indentation, contact.indentation_rate, impact_velocity(pair.memory, contact));
  f.elastic = K * std::pow(contact.indentation, n);
  f.elastic_energy = K * std::pow(contact.indentation, n + 1) / (n + 1);
  f.tangential = friction_force(pair.friction, f.normal, contact.tangential_velocity);
  return f;
}

}  // namespace surfdb
