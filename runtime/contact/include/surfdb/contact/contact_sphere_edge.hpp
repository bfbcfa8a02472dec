// An analytic sphere on body i against one edge of a table set on body j (set_edges.hpp): the
// edge as a line of tabulated points, loaded along the length the sphere overlaps. A sphere
// leaving a face over a convex edge pivots on it; a ball on a hole's rim rests on the whole rim.
//
// The edge carries a load per length p(s) = k' delta(s)^(n - 1/2) at each of its points s that
// the sphere overlaps by delta(s) = R - |c - x(s)|, acting along (c - x(s)) / |c - x(s)|, where the
// direction to the centre c lies in the edge's normal cone: between the two faces' outward
// normals (d . w1 <= 0 and d . w2 <= 0 for the directions w into each face). Elsewhere one of the
// faces' own contacts holds the sphere, so the edge and a face never both carry it, and at the
// cone's boundary the two give the same point, depth and normal. The resultant is returned as
// one contact point: along the resultant's direction, with the indentation delta_eq for which
// the pair's law n gives the resultant, K delta_eq^n = |integral of p(s) ds|. k' is chosen so that
// on a straight edge delta_eq is the sphere's overlap of the edge line: the integral of
// (delta0 - s^2 / 2R)^(n - 1/2) over the overlapped chord is sqrt(2R) B(1/2, n + 1/2) delta0^n.
// Over a hole's rim the resultant is the sum around the ring: the ball centred on the hole rests
// on the ring's vertical resultant.
#pragma once

#include <cstdint>
#include <vector>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/contact/contact_result.hpp"
#include "surfdb/contact/shape_operator.hpp"
#include "surfdb/formats/set_edges.hpp"

namespace surfdb {

class SphereEdgeContact {
 public:
  /// The edge in its set's axes and unit (meters_per_unit), the set placed in body j by mount_j;
  /// `exponent` is the pair's normal law exponent n.
  SphereEdgeContact(Sphere sphere, const SetEdge& edge, double meters_per_unit, SurfaceMount mount_j, double exponent);

  /// Detection for the given body states: touching with the resultant's point, normal and
  /// indentation, or separated with the gap to the nearest point of the edge's line (the
  /// sphere's distance beyond its radius; the normal cone not applied).
  ContactResult evaluate(const BodyState& body_i, const BodyState& body_j);

  /// The sphere's shape operator at the last point; the edge's is zero (a sharp edge).
  ContactShapes shapes() const;
  // The detector interface of the other kinds: nothing to warm-start, no solve to skip.
  void request_global_search() {}
  void set_guess(double, double) {}
  std::uint64_t skipped_solves() const { return 0; }

 private:
  struct Point {
    Eigen::Vector3d x;         // set axes, m
    Eigen::Vector3d into[2];   // unit directions into each side's face, perpendicular to the edge
  };
  Sphere sphere_;
  SurfaceMount mount_;
  std::vector<Point> points_;
  std::size_t sides_;
  Eigen::Vector3d low_, high_;  // the points' box, set axes, m
  double exponent_;             // n - 1/2, of the load per length
  double scale_;                // sqrt(2R) B(1/2, n + 1/2): the straight edge's integral over delta0^n
  Eigen::Vector3d last_normal_ = Eigen::Vector3d::UnitZ();
};

}  // namespace surfdb
