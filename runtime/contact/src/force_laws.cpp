#include "surfdb/contact/force_laws.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace surfdb {
namespace {

double compliance(Material m) { return (1 - m.poisson_ratio * m.poisson_ratio) / m.youngs_modulus; }

double stiffness_for(double effective_radius, Material i, Material j) {
  return 4.0 / 3.0 / (compliance(i) + compliance(j)) * std::sqrt(effective_radius);
}

// The damping factor d = chi v_impact / K of each law (0 for Hertz).
struct DampingFactor {
  double operator()(const Hertz&) const { return 0; }
  double operator()(const HuntCrossley& l) const { return 1.5 * (1 - l.restitution); }
  double operator()(const LankaraniNikravesh& l) const { return 0.75 * (1 - l.restitution * l.restitution); }
  double operator()(const FloresEtAl& l) const { return 1.6 * (1 - l.restitution) / l.restitution; }
  double operator()(const Gonthier& l) const { return (1 - l.restitution * l.restitution) / l.restitution; }
};

// K delta^n (1 + damping * rate), with damping = chi / K for the dissipative laws.
double dissipative(double K, double n, double delta, double rate, double damping) {
  return std::max(0.0, K * std::pow(delta, n) * (1 + damping * rate));
}

constexpr double kMinImpactVelocity = 1e-9;

}  // namespace

double hertz_stiffness(double radius_i, double radius_j, Material i, Material j) {
  // 1/R* = 1/R_i + 1/R_j, with an infinite radius (flat) adding nothing.
  const double curvature = 1 / radius_i + 1 / radius_j;
  if (!(curvature > 0)) throw std::invalid_argument("the radii do not make a convex contact (1/R_i + 1/R_j <= 0)");
  return stiffness_for(1 / curvature, i, j);
}

double hertz_stiffness_from_curvatures(double curvature_i, double curvature_j, Material i, Material j) {
  const double curvature = curvature_i + curvature_j;
  return curvature > 0 ? stiffness_for(1 / curvature, i, j) : 0.0;
}

double normal_force(const NormalLaw& law, double delta, double rate, double impact_velocity) {
  if (!(delta > 0)) return 0;
  const double v = std::max(impact_velocity, kMinImpactVelocity);
  return std::visit(
      [&](const auto& l) { return dissipative(l.stiffness, l.exponent, delta, rate, DampingFactor{}(l) / v); }, law);
}

double critical_impact_velocity(const NormalLaw& law, double delta, double effective_mass, double damping_ratio) {
  if (!(delta > 0) || !std::isfinite(effective_mass)) return 0;
  return std::visit(
      [&](const auto& l) {
        const double d = DampingFactor{}(l);
        return d * std::sqrt(l.stiffness * std::pow(delta, l.exponent + 1) / (l.exponent * effective_mass)) /
               (2 * damping_ratio);
      },
      law);
}

NormalLaw with_stiffness(NormalLaw law, double stiffness) {
  std::visit([stiffness](auto& l) { l.stiffness = stiffness; }, law);
  return law;
}

Eigen::Vector3d friction_force(const FrictionLaw& law, double normal_force, const Eigen::Vector3d& tangential_velocity) {
  const double speed = tangential_velocity.norm();
  if (!(speed > 0) || !(normal_force > 0)) return Eigen::Vector3d::Zero();
  struct Factor {  // mu times the law's factor of its full Coulomb force at this speed
    double speed;
    double operator()(const NoFriction&) const { return 0; }
    double operator()(const CoulombRegularised& l) const {
      const double ratio = speed / l.velocity_threshold;
      return l.friction_coefficient * (ratio >= 1 ? 1.0 : ratio * (2 - ratio));
    }
    double operator()(const CoulombAmbrosio& l) const {
      const double ramp = (speed - l.velocity_0) / (l.velocity_1 - l.velocity_0);
      return l.friction_coefficient * std::clamp(ramp, 0.0, 1.0);
    }
  };
  return -(std::visit(Factor{speed}, law) * normal_force / speed) * tangential_velocity;
}

void update_impact(ImpactMemory& memory, const ContactResult& contact) {
  const bool now = contact.in_contact();
  if (now && !memory.in_contact) {
    memory.impact_velocity = std::max(contact.indentation_rate, kMinImpactVelocity);
    ++memory.impacts;
  }
  memory.in_contact = now;
}

double impact_velocity(const ImpactMemory& memory, const ContactResult& contact) {
  return std::max(memory.in_contact ? memory.impact_velocity : contact.indentation_rate, kMinImpactVelocity);
}

}  // namespace surfdb
