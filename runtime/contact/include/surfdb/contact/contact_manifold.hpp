// Contact between two surfaces of one or more faces each (table_set.hpp): one common-normal
// detector (contact_newton.hpp) per pair of faces, each with its own storage windows and warm
// start, and, where a set tabulates its edges, one edge-on-face detector (contact_edge_face.hpp)
// per convex or free edge of either surface and face of the other (or, for an analytic sphere
// against a table set, one projection detector per face, contact_sphere_table.hpp, and one per
// convex or free edge of the set, contact_sphere_edge.hpp),
// so a ball in a V-groove holds two points at once, a point that walks off a face across an edge
// the part's faces share is picked up by the neighbour face's detector, and a ball that rolls
// over a convex edge pivots on the edge's detector between the faces'. The faces' bounding
// spheres reject distant face pairs before any solve.
//
// Where both surfaces are sets with edges, a flat face against a flat or cylindrical one
// (face_survey.hpp) has no face-pair detector: their common normals form a line or a plane (a
// rod lying on a plate, a box standing on it) or do not exist, and the contact is held along the
// edges that bound it.
//
// A face's common-normal solution is also found where the other surface lies behind the face but
// nowhere near it: a ball in a V-block "touches" the block's outer side faces, centimetres deep.
// Real contact points begin shallow, so a slot that was not active at the last accepted step
// becomes active only with an indentation up to max_entry_depth, or when a neighbour slot was
// active then and its point is now within max_entry_depth of this one's (a point walking over
// from a neighbour face arrives as deep as it was there).
//
// A physical point can be found twice: at an edge two faces share, both detectors converge to it.
// A touching slot whose point lies within merge_distance of an earlier active slot's, the two
// slots' faces being the same or neighbours on each side, is marked merged: it carries no force.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include <variant>

#include "surfdb/contact/contact_edge_face.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_sphere_edge.hpp"
#include "surfdb/contact/contact_sphere_table.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

class FreeformManifold {
 public:
  /// Every face of surface i against every face of surface j ("slots", face_i-major; the pairs
  /// left to the edges skipped), then every convex or free edge of surface i against every face of
  /// surface j, then every such edge of surface j against every face of surface i. Builds the
  /// tables' node trees when they have none yet.
  FreeformManifold(std::shared_ptr<const TableSet> surface_i, SurfaceMount mount_i,
                   std::shared_ptr<const TableSet> surface_j, SurfaceMount mount_j, ContactOptions options = {});
  /// An analytic sphere on body i against every face of surface j (a slot each, in order), then
  /// every convex or free edge of surface j (a slot each, in the set's order).
  FreeformManifold(Sphere sphere_i, std::shared_ptr<const TableSet> surface_j, SurfaceMount mount_j,
                   ContactOptions options = {});

  /// Detection for every slot at the given body states; never throws for numerical trouble.
  /// At exactly the states of the last evaluate(), bit for bit, it keeps that evaluate()'s
  /// results, unless a slot failed to solve, and decides the active slots anew: an integrator
  /// asks for the state of the step just accepted, where every detector, warm-started at its
  /// answer, would stop at once on the same answer.
  void evaluate(const BodyState& body_i, const BodyState& body_j);
  /// After an accepted step whose state the last evaluate() was at: its active slots are the ones
  /// that may go on at any depth.
  void latch() { accepted_ = active_; }
  /// The surfaces are apart (the broad phase passed them by): no slot may go on.
  void release() { std::fill(accepted_.begin(), accepted_.end(), std::uint8_t{0}); }

  std::size_t size() const { return detectors_.size(); }
  /// Every slot's result from the last evaluate().
  std::span<const ContactResult> results() const { return results_; }
  /// Touching, begun shallow, and not merged into another slot: a contact point that carries force.
  bool active(std::size_t k) const { return active_[k] != 0; }
  /// Whether a contact point can pass between slots a and b: on each side the same face or two
  /// faces sharing an edge, an edge's slot counting as its faces (false for a == b).
  bool neighbours(std::size_t a, std::size_t b) const;

  /// Slot k's shape operators at its points of the last evaluate() (shape_operator.hpp).
  ContactShapes shapes(std::size_t k);
  /// Every slot's next evaluate() starts from its global search, not its last answer.
  void request_global_search();
  /// Slot k's next evaluate() starts from the parameters of `r`, one of its earlier results.
  void set_guess(std::size_t k, const ContactResult& r);

  /// Surface i's (or j's) storage windows summed over the slots: each slot binds its faces anew
  /// (none on an analytic sphere).
  WindowStats window_stats_i() const;
  WindowStats window_stats_j() const;
  /// Slot evaluations answered without a solve, the surfaces still apart (ContactOptions::skip_while_apart).
  std::uint64_t skipped_solves() const;

 private:
  void merge();
  bool walked_over(std::size_t k) const;
  bool at_last_states(const BodyState& body_i, const BodyState& body_j) const;
  bool boxes_apart(std::size_t k, const BodyState& body_i, const BodyState& body_j) const;

  std::shared_ptr<const TableSet> surface_i_, surface_j_;  // surface_i_ null for a sphere
  SurfaceMount mount_i_, mount_j_;                         // table sets only
  // Where both sets have edges, a face pair (the first slots, one flag each here) whose trimmed
  // faces' boxes (TableSet::survey) lie farther apart than max_entry_depth is not solved:
  // separated, its solve started afresh from the global search once they come near.
  std::vector<std::uint8_t> unsolved_;
  double merge_distance_;
  std::vector<std::variant<FreeformContact, SphereTableContact, SphereEdgeContact, EdgeFaceContact>> detectors_;
  // Each slot's faces on each side: the positions in the surface of a face, or of an edge's two
  // faces (-1: none; a sphere has none).
  struct SlotFaces {
    std::array<int, 2> i{-1, -1}, j{-1, -1};
  };
  std::vector<SlotFaces> slot_faces_;
  std::vector<ContactResult> results_;
  double max_entry_depth_;
  std::vector<std::uint8_t> active_;    // at the last evaluate()
  std::vector<std::uint8_t> accepted_;  // at the last accepted step (latch())
  BodyState evaluated_i_, evaluated_j_;  // the states of the last evaluate(), while evaluated_
  bool evaluated_ = false;
};

}  // namespace surfdb
