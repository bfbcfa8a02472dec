// One contact of the multibody loop, as model and data: its read-only specification (which bodies
// and surfaces, how it is detected, which force laws act) and its mutable per-run state (the
// free-form detectors' storage windows and warm starts, impact memory per contact point,
// statistics, last results). A pair of surfaces may touch at several points at once (a ball in a
// V-groove); each point is a slot of the pair, with its own impact memory.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <span>
#include <vector>

#include "surfdb/contact/contact_manifold.hpp"
#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/contact/force_laws.hpp"
#include "surfdb/contact/polygonal_contact.hpp"
#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb {

/// A sphere on body i against a shape on body j, detected in closed form. A closed cylindrical
/// cavity is three contact slots (wall, bottom, top); every other shape one.
struct AnalyticContact {
  enum class Shape { plane, sphere, cavity, box, cylinder, cylinder_cavity } shape = Shape::cavity;
  Sphere sphere;  // on body i
  // On body j, the one `shape` names:
  Sphere other;   // a convex sphere or a spherical cavity
  CavityCap cap;  // a spherical cavity's rim
  Plane plane;
  Box box;
  Cylinder cylinder;
  CylinderCavity cylinder_cavity;

  std::size_t slots() const { return shape == Shape::cylinder_cavity ? 3 : 1; }
};

/// Two table surfaces (a table or faces of a surface set each), each placed in its body, detected
/// by the common-normal Newton solve per pair of faces.
struct FreeformSurfaces {
  std::shared_ptr<const TableSet> surface_i, surface_j;
  SurfaceMount mount_i{}, mount_j{};
  ContactOptions options{};
};

/// A sphere on body i against a table surface on body j, detected by projecting its centre.
struct SphereOnTables {
  Sphere sphere;  // on body i
  std::shared_ptr<const TableSet> surface_j;
  SurfaceMount mount_j{};
  ContactOptions options{};
};

/// Two triangle meshes (or tables' grids), each placed in its body, in areal contact by the
/// polygonal model with an elastic foundation; the mesh on body i is the master (its triangles
/// are the contact elements).
struct ArealMeshes {
  std::shared_ptr<const TriangleMesh> mesh_i, mesh_j;
  SurfaceMount mount_i{}, mount_j{};
  ElasticFoundation law{};
};

/// What a contact is; read-only once the pair exists.
struct ContactSpec {
  std::string name;
  std::string surface_i, surface_j;  // the surfaces' names, for outputs
  int body_i = kGround, body_j = kGround;
  std::variant<FreeformSurfaces, AnalyticContact, SphereOnTables, ArealMeshes> geometry = AnalyticContact{};
  NormalLaw law = Hertz{};           // point contacts (an areal pair's law is in its geometry)
  FrictionLaw friction = NoFriction{};
  /// When set, Hertz stiffness from the local mean curvatures at each evaluation (free-form).
  std::optional<std::pair<Material, Material>> curvature_stiffness{};
  /// How deep the surfaces may start inside each other, m; unset: initial_penetration.hpp's default.
  std::optional<double> initial_penetration_tolerance{};
  /// The dissipative laws' damping stays within this multiple of critical for effective_mass, kg
  /// (force_laws.hpp, critical_impact_velocity; no bound for an infinite mass). Unset, a
  /// Simulation sets m_i m_j / (m_i + m_j) from its model's bodies (the ground's infinite).
  double max_damping_ratio = 1;
  std::optional<double> effective_mass{};
  /// N: a point that begins an impact deeper than both the law carrying this weight and the
  /// indentation its approach velocity could reach (all its kinetic energy, of effective_mass,
  /// stored elastically) is counted as a deep appearance (ContactStatistics). Unset, a Simulation
  /// sets ten times the heavier body's weight (standard gravity when the scene has none).
  std::optional<double> entry_weight{};
};

struct ContactStatistics {
  double first_contact_time = NAN;    // s, NaN before any contact
  double max_indentation = 0;         // m, over the whole run, of any point
  std::uint64_t solver_failures = 0;  // accepted steps where some slot's detection did not solve
  int impacts = 0;                    // contact episodes begun (a point crossing an edge continues one)
  std::size_t max_points = 0;         // the most contact points held at once
  long deep_appearances = 0;          // impacts begun deeper than their entry (ContactSpec::entry_weight)
  double deepest_appearance = 0;      // m, the deepest of those
};

/// One impact: a contact point's episode from the first accepted step in contact to the first
/// accepted step apart (a point walking onto a neighbour face continues it).
struct ImpactRecord {
  double start = NAN;              // s
  double end = NAN;                // s; NaN while it goes on
  double approach_velocity = 0;    // m/s, the indentation rate latched at its start
  double max_indentation = 0;      // m
  double max_force = 0;            // N, normal
};

/// What a contact remembers during a run.
struct ContactState {
  std::optional<FreeformManifold> freeform;  // free-form pairs: windows and warm starts per face pair
  std::optional<PolygonalContact> areal;     // areal pairs: the evaluator and its buffers
  std::vector<ImpactMemory> memory;          // per slot (an areal pair has one: the whole contact)
  std::vector<ImpactRecord> episodes;        // per slot: its impact under way (start NaN when none)
  ContactStatistics statistics{};
  ContactResult last{};            // at the last accepted step: the deepest point, else the nearest
                                   // (areal: the deepest penetration, at the force's centre)
  std::size_t points = 0;          // contact points (areal: elements) at the last accepted step
  double last_force = 0;           // N, at the last accepted step: the sum over the points
  double last_elastic_energy = 0;  // J, at the last accepted step: the sum over the points
};

struct ContactForces {
  double normal = 0;                                     // N
  double elastic = 0;                                    // N, the conservative part K delta^n
  Eigen::Vector3d tangential = Eigen::Vector3d::Zero();  // N, on body i
  double elastic_energy = 0;                             // J, K delta^(n+1) / (n+1)
};

/// Ten times the weight of the heavier of bodies i and j (N; standard gravity when the model has
/// none): the default ContactSpec::entry_weight.
double default_entry_weight(const MultibodyModel& model, int body_i, int body_j);

class ContactPair {
 public:
  /// A free-form specification gets its detector here (bindings with their windows; the
  /// databases' node trees built if they have none yet).
  explicit ContactPair(ContactSpec spec);

  const ContactSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  const ContactState& state() const { return state_; }
  /// The free-form detectors, or null for an analytic pair.
  const FreeformManifold* freeform() const { return state_.freeform ? &*state_.freeform : nullptr; }
  /// The polygonal model's last evaluation, or null for a point-contact pair.
  const PolygonalContactResult* areal() const { return state_.areal ? &state_.areal->result() : nullptr; }
  const PolygonalContact* areal_contact() const { return state_.areal ? &*state_.areal : nullptr; }

  /// Contact detection at the given body states (moves the free-form storage windows): a result
  /// per slot (one for an analytic pair, one per pair of faces for tables; none for an areal
  /// pair, whose forces and torques areal() gives whole).
  std::span<const ContactResult> detect(const BodyState& i, const BodyState& j);
  /// The results of the last detect(), a result per slot.
  std::span<const ContactResult> results() const;
  /// Whether slot k of the last detect() is a contact point that carries force.
  bool active(std::size_t k) const;
  /// Forces at slot k of the last detect(), with the pair's laws and the point's impact memory.
  ContactForces forces(std::size_t k) const;
  /// Sets the specification's effective mass where it is unset (the Simulation does, from its bodies).
  void default_effective_mass(double kg) {
    if (!spec_.effective_mass) spec_.effective_mass = kg;
  }
  /// Sets the specification's entry weight where it is unset.
  void default_entry_weight(double newtons) {
    if (!spec_.entry_weight) spec_.entry_weight = newtons;
  }
  /// The depth beyond which an impact beginning at contact c with approach velocity v (m/s) counts
  /// as a deep appearance, m (ContactSpec::entry_weight).
  double entry_depth(const ContactResult& c, double v) const;
  /// The normal law at a contact: the pair's, with the stiffness from the curvatures there when
  /// the specification asks for it.
  NormalLaw law_at(const ContactResult& contact) const;
  /// After an accepted step at time t, detect() having been called at its state: impact latching,
  /// outputs, statistics; the impacts that ended at this step are appended to `ended`.
  void accept(double t, std::vector<ImpactRecord>& ended);
  /// After an accepted step at time t at which the broad phase found the surfaces apart (not
  /// detected): every point's contact episode has ended (appended to `ended`).
  void release(double t, std::vector<ImpactRecord>& ended);

 private:
  const ImpactMemory& memory_of(std::size_t k) const;
  void inherit(std::size_t k, const std::span<const ContactResult> results);
  void end_episode(std::size_t k, double t, std::vector<ImpactRecord>& ended);
  void accept_areal(double t, std::vector<ImpactRecord>& ended);

  ContactSpec spec_;
  ContactState state_;
  std::array<ContactResult, 3> analytic_;  // an analytic pair's results from the last detect(), per slot
};

}  // namespace surfdb
