// One contact of the multibody loop, as model and data: its read-only specification (which bodies
// and surfaces, how it is detected, which force laws act) and its mutable per-run state (the
// free-form detector's storage windows and warm start, impact memory, statistics, last result).
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/contact/force_laws.hpp"
#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb {

/// A sphere on body i against a shape on body j, detected in closed form.
struct AnalyticContact {
  enum class Shape { plane, sphere, cavity } shape = Shape::cavity;
  Sphere sphere;  // on body i
  Sphere other;   // on body j: a convex sphere or a spherical cavity
  Plane plane;    // on body j
};

/// Two lookup tables, each placed in its body, detected by the common-normal Newton solve.
struct FreeformSurfaces {
  std::shared_ptr<const Database> surface_i, surface_j;
  SurfaceMount mount_i{}, mount_j{};
  ContactOptions options{};
};

/// What a contact is; read-only once the pair exists.
struct ContactSpec {
  std::string name;
  std::string surface_i, surface_j;  // the surfaces' names, for outputs
  int body_i = kGround, body_j = kGround;
  std::variant<FreeformSurfaces, AnalyticContact> geometry = AnalyticContact{};
  NormalLaw law = Hertz{};
  FrictionLaw friction = NoFriction{};
  /// When set, Hertz stiffness from the local mean curvatures at each evaluation (free-form).
  std::optional<std::pair<Material, Material>> curvature_stiffness{};
};

struct ContactStatistics {
  double first_contact_time = NAN;    // s, NaN before any contact
  double max_indentation = 0;         // m, over the whole run
  std::uint64_t solver_failures = 0;  // accepted steps whose detection did not solve
};

/// What a contact remembers during a run.
struct ContactState {
  std::optional<FreeformContact> freeform;  // free-form pairs: windows and warm start
  ImpactMemory memory{};
  ContactStatistics statistics{};
  ContactResult last{};            // at the last accepted step
  double last_force = 0;           // N, at the last accepted step
  double last_elastic_energy = 0;  // J, at the last accepted step
};

struct ContactForces {
  double normal = 0;                                     // N
  double elastic = 0;                                    // N, the conservative part K delta^n
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // N, on body i
  double elastic_energy = 0;                             // J, K delta^(n+1) / (n+1)
};

class ContactPair {
 public:
  /// A free-form specification gets its detector here (bindings with their windows; the
  /// databases' node trees built if they have none yet).
  explicit ContactPair(ContactSpec spec);

  const ContactSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  const ContactState& state() const { return state_; }
  /// The free-form detector, or null for an analytic pair.
  const FreeformContact* freeform() const { return state_.freeform ? &*state_.freeform : nullptr; }

  /// Contact detection at the given body states (moves the free-form storage windows).
  ContactResult detect(const BodyState& i, const BodyState& j);
  /// Forces for a detection result, with the pair's laws and impact memory.
  ContactForces forces(const ContactResult& contact) const;
  /// After an accepted step at time t with detection result c: impact latching, outputs, statistics.
  void accept(double t, const ContactResult& c);

 private:
  ContactSpec spec_;
  ContactState state_;
};

}  // namespace surfdb
