// Surfaces that start inside each other: at t = 0 a contact deeper than its tolerance is an input
// error (a ball placed inside a wall would be shot out of it, or rattle through hundreds of
// "impacts"), a shallower one a warning. The default tolerance is the indentation at which the
// force law carries ten times the weight of the pair's lighter body, (10 m g / K)^(1/n) (standard
// gravity when the scene has none); for the polygonal model, the penetration at which the
// foundation over the contact's area at t = 0 carries that weight, 10 m g / (c A). A contact's
// initial_penetration_tolerance replaces either. A sphere against a surface set that closes into
// a solid is measured by its centre's signed distance to the solid (solid_distance.hpp), so a
// ball placed deep inside a plate, which no contact point would begin at, is refused at any
// depth. (Meshes wholly inside each other do not cross and go unseen by the polygonal model.)
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "surfdb/multibody/simulation.hpp"

namespace surfdb {

struct InitialPenetration {
  std::string contact, surface_i, surface_j;  // names
  double depth = 0;                            // m, the pair's deepest point
  double tolerance = 0;                        // m
};

class InitialPenetrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The default tolerance for a law of stiffness K (N/m^n) and exponent n carrying a body of mass m
/// (kg) under gravity g (m/s^2): (10 m g / K)^(1/n).
double default_penetration_tolerance(double stiffness, double exponent, double mass, double gravity);

/// Detects every contact at the bodies' state y at t = 0 (an accept(0, y), which run() repeats
/// harmlessly) and returns the pairs that touch, each within its tolerance. Throws
/// InitialPenetrationError naming the contact, its surfaces, the depth and the tolerance of the
/// pair deepest beyond its tolerance (relative to it), if any.
std::vector<InitialPenetration> check_initial_penetration(Simulation& sim, const double* y);

}  // namespace surfdb
