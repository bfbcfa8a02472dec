// Compliant contact force laws: small value types with their parameters, and pure functions
// F(delta, delta_rate, impact_velocity). SI units throughout: delta in m, rates in m/s, forces in N,
// stiffness K in N/m^n. The normal force is never negative (no adhesion).
#pragma once

#include <Eigen/Core>
#include <variant>

#include "surfdb/contact/contact_result.hpp"

namespace surfdb {

struct Material {
  double youngs_modulus = 0;  // E, Pa
  double poisson_ratio = 0;   // nu
};

/// Hertz stiffness of two bodies with radii R_i, R_j at the contact (m; concave negative; infinite
/// for a flat face): K = (4/3) / (s_i + s_j) * sqrt(R_i R_j / (R_i + R_j)), s = (1 - nu^2) / E.
/// Throws std::invalid_argument when the radii do not make a convex contact (R* <= 0).
double hertz_stiffness(double radius_i, double radius_j, Material i, Material j);

/// The same from the mean curvatures at the contact points (1/m, convex positive), as the
/// lookup tables store them: 1/R* = H_i + H_j (exact for spheres, an equivalent sphere otherwise).
/// Returns 0 where the curvatures do not make a convex contact.
double hertz_stiffness_from_curvatures(double curvature_i, double curvature_j, Material i, Material j);

/// F = K delta^n (Hertz 1881): elastic, no dissipation.
struct Hertz {
  double stiffness = 0;
  double exponent = 1.5;
};

/// F = K delta^n (1 + 3 (1 - c_r) / 2 * rate / v_impact) (Hunt and Crossley 1975).
struct HuntCrossley {
  double stiffness = 0;
  double exponent = 1.5;
  double restitution = 1;  // c_r in (0, 1]
};

/// F = K delta^n + chi delta^n rate, chi = 3 (1 - c_r^2) K / (4 v_impact) (Lankarani and Nikravesh 1990).
struct LankaraniNikravesh {
  double stiffness = 0;
  double exponent = 1.5;
  double restitution = 1;
};

/// chi = 8 (1 - c_r) K / (5 c_r v_impact) (Flores, Machado, Silva and Martins 2011).
struct FloresEtAl {
  double stiffness = 0;
  double exponent = 1.5;
  double restitution = 1;
};

/// chi = (1 - c_r^2) K / (c_r v_impact) (Gonthier, McPhee, Lange and Piedboeuf 2004).
struct Gonthier {
  double stiffness = 0;
  double exponent = 1.5;
  double restitution = 1;
};

using NormalLaw = std::variant<Hertz, HuntCrossley, LankaraniNikravesh, FloresEtAl, Gonthier>;

/// Normal force, N. `impact_velocity` is the approach rate latched at the start of the impact
/// (> 0); `rate` the current indentation rate (> 0 approaching).
double normal_force(const NormalLaw& law, double delta, double rate, double impact_velocity);

/// The law with its stiffness replaced (for stiffness recomputed from local curvatures).
NormalLaw with_stiffness(NormalLaw law, double stiffness);

struct NoFriction {};

/// Coulomb friction regularised below v_eps (Hippmann 2003): |F_t| = mu F_n for |v_t| >= v_eps,
/// mu F_n (v/v_eps)(2 - v/v_eps) below; opposite to the sliding velocity.
struct CoulombRegularised {
  double friction_coefficient = 0;  // mu
  double velocity_threshold = 1e-4;  // v_eps, m/s
};

/// Coulomb friction with Ambrosio's dynamic correction (Ambrosio 2003), as the billiard of Corral
/// et al. uses it: |F_t| = c_d mu F_n with c_d = 0 below v0, (v - v0) / (v1 - v0) between, 1 above;
/// opposite to the sliding velocity. Below v0 no friction acts: a ball rolls on with a slip <= v0.
struct CoulombAmbrosio {
  double friction_coefficient = 0;  // mu
  double velocity_0 = 1e-4;          // v0, m/s, >= 0
  double velocity_1 = 1e-3;          // v1, m/s, > v0
};

using FrictionLaw = std::variant<NoFriction, CoulombRegularised, CoulombAmbrosio>;

/// Friction force on body i, N, for the tangential velocity of i relative to j.
Eigen::Vector3d friction_force(const FrictionLaw& law, double normal_force,
                               const Eigen::Vector3d& tangential_velocity);

/// The dissipative laws divide by the impact velocity: a contact that begins at rest (a ball placed
/// on a table, a preloaded bearing ball, a settling pile, a wall reached by sliding) would get
/// unbounded damping and a stiff system. This is the least impact velocity at which the law's
/// damping chi delta^n at indentation delta stays within `damping_ratio` times the critical
/// damping 2 sqrt(k m) of the contact linearised there (k = n K delta^(n-1), m the pair's
/// effective mass, kg): v = d sqrt(K delta^(n+1) / (n m)) / (2 damping_ratio), with d = chi v / K
/// the law's factor (Hunt-Crossley 1.5 (1 - c_r), Lankarani-Nikravesh 0.75 (1 - c_r^2), Flores
/// 1.6 (1 - c_r) / c_r, Gonthier (1 - c_r^2) / c_r). An impact at speed v_0 reaches it only near
/// its deepest point and only where d > 2.2 damping_ratio (at ratio 1: Flores below c_r 0.42,
/// Gonthier below 0.39); 0 for the Hertz law, at no indentation, or for an infinite mass.
double critical_impact_velocity(const NormalLaw& law, double delta, double effective_mass, double damping_ratio);

/// Per-pair memory of the current impact ("data"): the approach rate at its start.
struct ImpactMemory {
  bool in_contact = false;
  double impact_velocity = 0;  // m/s
  int impacts = 0;             // contact episodes begun
};

/// Latches the impact velocity when a contact episode begins and counts episodes. Call once per
/// accepted step, not per trial evaluation.
void update_impact(ImpactMemory& memory, const ContactResult& contact);

/// The impact velocity to use now: the latched one inside an episode, else the current rate
/// (a trial evaluation at the very start of an impact), never below 1e-9 m/s.
double impact_velocity(const ImpactMemory& memory, const ContactResult& contact);

}  // namespace surfdb
