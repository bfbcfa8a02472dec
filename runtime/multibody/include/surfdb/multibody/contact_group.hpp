// One [[contact]] entry of a scene as model and data: the candidate pairs of surfaces it names
// (one fixed pair, or every pair of two groups of surfaces on distinct bodies, e.g. all balls
// with each other and with a bowl), the laws they share, and per run the pairs the broad phase
// has brought into play, made when first needed and dropped when their surfaces part, with the
// group's statistics and outputs summed over its pairs.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "surfdb/multibody/contact_pair.hpp"
#include "surfdb/multibody/contact_surface.hpp"

namespace surfdb {

/// A [[contact]] entry: pairs every surface of surfaces_i with every surface of surfaces_j on
/// another body (each unordered pair once, the lower surface index as i when both lists hold
/// both surfaces).
struct ContactGroupSpec {
  std::string name;
  std::vector<int> surfaces_i, surfaces_j;  // indices into the scene's surfaces
  NormalLaw law = Hertz{};
  FrictionLaw friction = NoFriction{};
  bool stiffness_from_curvature = false;  // Hertz K from the tables' curvatures and materials
  std::optional<double> initial_penetration_tolerance{};  // m; unset: initial_penetration.hpp's default
  double max_damping_ratio = 1;  // of the dissipative laws' damping to critical (ContactSpec)
  /// Set: the polygonal model between meshes (or tables' grids) with this law, instead of point
  /// contact; a stiffness of 0 is taken from the surfaces' foundation layers.
  std::optional<ElasticFoundation> foundation{};
};

/// The pair specification of surfaces a (as i) and b (as j) under a group's laws, the effective
/// mass m_i m_j / (m_i + m_j) from the model's bodies (the ground's infinite). The one place where
/// two surface kinds choose their detector (ContactSpec::geometry, run by ContactPair::detect):
///
///   surface i  \  surface j   table / set          sphere, cavity, plane,   mesh
///                                                  box, cylinder, cyl. cavity
///   table / set              FreeformSurfaces       -                        -
///                            (contact_manifold: face pairs, edges on faces)
///   sphere                   SphereOnTables         AnalyticContact          -
///                            (contact_manifold: the  (contact_primitives:
///                            centre on faces, edges) ContactPair::detect)
///   any other                -                      -                        -
///   with the elastic foundation: table / set and mesh with each other, ArealMeshes
///   (polygonal_contact, a table's grid as a mesh).
///
/// Throws std::invalid_argument when the two cannot make a pair (same body, or "-" above).
ContactSpec pair_spec(const ContactGroupSpec& group, const std::vector<ContactSurface>& surfaces,
                      const MultibodyModel& model, int a, int b);

struct GroupStatistics {
  double first_contact_time = NAN;    // s
  double max_indentation = 0;         // m, of any point of any pair
  std::uint64_t solver_failures = 0;  // summed over pairs
  long impacts = 0;                   // contact episodes begun, summed over pairs
  std::size_t max_points = 0;         // the most contact points one pair held at once
  std::size_t pairs_touched = 0;      // distinct pairs that have touched
  double max_area = 0;                // m^2, the largest contact area at an accepted step (areal pairs)
  long deep_appearances = 0;          // summed over pairs (ContactStatistics)
  double deepest_appearance = 0;      // m
};

/// The group at the last accepted step, summed over its pairs.
struct GroupOutput {
  std::size_t points = 0;                            // contact points
  std::size_t pairs = 0;                             // pairs evaluated
  double normal_force = 0;                           // N, summed over the points
  double max_indentation = 0;                        // m, the deepest point
  double elastic_energy = 0;                         // J
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   // N, world: on the bodies i
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();  // N m, world: on the bodies i about their centres
  // Areal (polygonal) pairs:
  double area = 0;                                   // m^2, of the contact elements
  double volume = 0;                                 // m^3, penetration volume
  std::size_t patches = 0;                           // separate contact patches
};

class ContactGroup {
 public:
  /// One fixed pair, always evaluated (the embedding API's and a [[contact]] naming two surfaces).
  explicit ContactGroup(ContactPair pair);
  /// Candidate pairs of a scene's surfaces on the model's bodies (both kept by reference: the
  /// scene outlives the group).
  ContactGroup(ContactGroupSpec spec, const std::vector<ContactSurface>& surfaces, const MultibodyModel& model);

  const std::string& name() const { return name_; }
  /// Whether the group's pairs are areal (the polygonal model).
  bool areal() const { return spec_.foundation.has_value() || (fixed_ && fixed_->areal()); }
  /// The fixed pair, or null for a group whose pairs come from the broad phase.
  const ContactPair* single() const { return fixed_ ? &*fixed_ : nullptr; }
  ContactPair* single() { return fixed_ ? &*fixed_ : nullptr; }

  /// Whether surfaces a and b are a candidate pair: +1 with a as i, -1 with b as i, 0 not (never
  /// two surfaces of one body, or of bodies that fixed joints weld together: they cannot move
  /// against each other, and bolted parts touch or overlap where the assembly put them).
  int orientation(int a, int b) const;
  /// Surfaces of the group without bounds (planes, cavities), each with the side it is on.
  const std::vector<std::pair<int, bool>>& unbounded() const { return unbounded_; }  // (surface, is side i)
  const std::vector<int>& side(bool i) const { return i ? spec_.surfaces_i : spec_.surfaces_j; }

  /// The pair of surfaces i and j, made on first use (allocates then, and only then).
  ContactPair& pair(int i, int j);
  /// After an accepted step: begin_accept(), then accept() for every pair in play (surfaces i and
  /// j, ignored for a fixed pair) after detecting it at the step's state with pair(i, j), which
  /// latches it and sums it into the statistics and outputs, then end_accept(), which drops the
  /// pairs that pair() did not return since begin_accept().
  void begin_accept(double t);
  void accept(double t, int i, int j, const BodyState& body_i, const BodyState& body_j);
  void end_accept();

  /// Visits every pair in play: the fixed pair, or the pairs made and not yet dropped.
  template <class Visit>
  void for_each_pair(Visit&& visit) const {
    if (fixed_) return visit(*fixed_);
    for (const Entry& e : entries_)
      if (e.pair) visit(*e.pair);
  }

  const GroupStatistics& statistics() const { return statistics_; }
  /// Every impact of the group's pairs so far, in order of their start (then end): the ended ones
  /// and those under way (end NaN). Allocates: for reports, not for the step loop.
  std::vector<ImpactRecord> impacts_detail() const;
  const GroupOutput& output() const { return output_; }

 private:
  // The pairs in play live in a pool (slots reused), found by key in an open-addressing table
  // (linear probing, at most half full) rebuilt whenever end_accept() drops pairs: a lookup is a
  // hash and a probe or two in one array, not a walk through a node-based map's buckets.
  struct Entry {
    std::optional<ContactPair> pair;
    std::uint64_t key = 0;
    std::uint64_t round = 0;  // the accept round in which pair() last returned it
  };
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static std::uint64_t key(int i, int j) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) | static_cast<std::uint32_t>(j);
  }
  std::size_t home(std::uint64_t k) const { return (k * 0x9E3779B97F4A7C15ull) >> shift_; }
  void insert(std::uint64_t k, std::uint32_t entry);
  void rebuild(std::size_t capacity);

  std::string name_;
  ContactGroupSpec spec_;
  const std::vector<ContactSurface>* surfaces_ = nullptr;
  const MultibodyModel* model_ = nullptr;
  std::optional<ContactPair> fixed_;
  std::vector<std::uint8_t> in_i_, in_j_;  // per scene surface
  std::vector<int> weld_;                  // per body, the ground first: its weld cluster (weld_clusters)
  std::vector<std::pair<int, bool>> unbounded_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_;      // entries without a pair
  std::vector<std::uint64_t> keys_;      // the table: a key per slot, kEmpty where none
  std::vector<std::uint32_t> slots_;     // the entry of each slot's key
  int shift_ = 64;                        // 64 - log2(table size)
  std::size_t live_ = 0;
  std::unordered_set<std::uint64_t> touched_;
  std::uint64_t round_ = 0;
  double time_ = 0;                      // s, of the accept round
  std::vector<ImpactRecord> ended_;      // the impacts ended so far, in the order they ended
  GroupStatistics statistics_;
  GroupOutput output_;
};

}  // namespace surfdb
