#include "surfdb/multibody/initial_penetration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sphere_in_solid.hpp"

namespace surfdb {
namespace {

// The weight the default tolerance is measured against: ten times the lighter body's.
constexpr double kWeightFactor = 10;
// Gravity for the default when the scene has none, m/s^2.
constexpr double kStandardGravity = 9.80665;

std::string metres(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g m", x);
  return text;
}

double tolerance_of(const Simulation& sim, const ContactPair& pair) {
  const ContactSpec& spec = pair.spec();
  if (spec.initial_penetration_tolerance) return *spec.initial_penetration_tolerance;
  double mass = std::numeric_limits<double>::infinity();
  for (int body : {spec.body_i, spec.body_j})
    if (body != kGround) mass = std::min(mass, sim.model().bodies[static_cast<std::size_t>(body)].mass);
  const double g = sim.model().gravity.norm();
  if (const PolygonalContactResult* a = pair.areal()) {
    // The foundation over the contact's present area carrying ten times the weight.
    const double c = std::get<ArealMeshes>(spec.geometry).law.stiffness;
    return kWeightFactor * mass * (g > 0 ? g : kStandardGravity) / (c * a->area);
  }
  const NormalLaw law = pair.law_at(pair.state().last);
  return default_penetration_tolerance(std::visit([](const auto& l) { return l.stiffness; }, law),
                                       std::visit([](const auto& l) { return l.exponent; }, law), mass,
                                       g > 0 ? g : kStandardGravity);
}

}  // namespace

double default_penetration_tolerance(double stiffness, double exponent, double mass, double gravity) {
  return std::pow(kWeightFactor * mass * gravity / stiffness, 1 / exponent);
}

std::vector<InitialPenetration> check_initial_penetration(Simulation& sim, const double* y) {
  sim.accept(0, y);
  std::vector<InitialPenetration> found;
  const InitialPenetration* worst = nullptr;
  for (const ContactGroup& group : sim.contacts())
    group.for_each_pair([&](const ContactPair& pair) {
      const ContactSpec& spec = pair.spec();
      // A start deeper than the entry depth has no contact point: the solid's distance says it.
      const SphereInSolid solid = sphere_in_solid(pair, y);
      const double depth = std::max(pair.state().points > 0 ? pair.state().last.indentation : 0.0,
                                    solid.applies ? solid.radius - solid.centre : 0.0);
      if (depth > 0) found.push_back({spec.name, spec.surface_i, spec.surface_j, depth, tolerance_of(sim, pair)});
    });
  for (const InitialPenetration& p : found)
    if (p.depth > p.tolerance && (!worst || p.depth * worst->tolerance > worst->depth * p.tolerance)) worst = &p;
  if (worst)
    throw InitialPenetrationError(
        "contact '" + worst->contact + "': surfaces '" + worst->surface_i + "' and '" + worst->surface_j + "' start " +
        metres(worst->depth) + " inside each other at t = 0, more than the tolerance " + metres(worst->tolerance) +
        " (move the bodies apart, or set the contact's initial_penetration_tolerance)");
  return found;
}

}  // namespace surfdb
