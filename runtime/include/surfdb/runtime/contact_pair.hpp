// One contact of the multibody loop: which bodies, how it is detected (free-form lookup tables or
// an analytic primitive), which force laws act, and its per-simulation memory and statistics.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "surfdb/runtime/contact_newton.hpp"
#include "surfdb/runtime/contact_primitives.hpp"
#include "surfdb/runtime/force_laws.hpp"
#include "surfdb/runtime/multibody_model.hpp"

namespace surfdb {

/// A sphere on body i against a shape on body j, detected in closed form.
struct AnalyticContact {
  enum class Shape { plane, sphere, cavity } shape = Shape::cavity;
  Sphere sphere;  // on body i
  Sphere other;   // on body j: a convex sphere or a spherical cavity
  Plane plane;    // on body j
};

struct ContactStatistics {
  double first_contact_time = NAN;  // s, NaN before any contact
  double max_indentation = 0;       // m
  std::uint64_t solver_failures = 0;  // accepted steps whose detection did not solve
};

struct ContactPair {
  std::string name;
  int body_i = kGround, body_j = kGround;
  std::variant<FreeformContact, AnalyticContact> detector;
  NormalLaw law = Hertz{};
  FrictionLaw friction = NoFriction{};
  /// When set, Hertz stiffness from the local mean curvatures at each evaluation (free-form).
  std::optional<std::pair<Material, Material>> curvature_stiffness{};

  ImpactMemory memory{};
  ContactStatistics statistics{};
  ContactResult last{};    // at the last accepted step
  double last_force = 0;   // N, at the last accepted step
  double last_elastic_energy = 0;  // J
};

/// Contact detection for the pair at the given body states.
ContactResult detect(ContactPair& pair, const BodyState& i, const BodyState& j);

struct ContactForces {
  double normal = 0;              // N
  double elastic = 0;             // N, the conservative part K delta^n
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // N, on body i
  double elastic_energy = 0;      // J, K delta^(n+1) / (n+1)
};

/// Forces for a detection result, with the pair's laws and impact memory.
ContactForces contact_forces(const ContactPair& pair, const ContactResult& contact);

}  // namespace surfdb
