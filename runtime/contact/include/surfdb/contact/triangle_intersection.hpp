// The basic operations of the polygonal contact model: the segment along which two triangles
// cross (Möller 1997: each triangle's crossing with the other's plane, intersected along the
// planes' common line), and where a segment meets a triangle (Möller and Trumbore 1997).
#pragma once

#include <array>

#include <Eigen/Core>

namespace surfdb {

using Triangle3 = std::array<Eigen::Vector3d, 3>;

/// An end of an intersection segment: the point where edge `edge` (from corner k to k + 1) of the
/// first or the second triangle crosses the other triangle.
struct SegmentEnd {
  Eigen::Vector3d point;
  bool on_first = true;
  int edge = 0;
  /// Where an edge of the other triangle crosses at the same point (to round-off), that edge;
  /// else -1. The neighbouring segment may have taken that edge as its end.
  int other_edge = -1;
};

/// The two ends of an intersection segment, ordered along n_a x n_b.
struct TriangleCut {
  std::array<SegmentEnd, 2> ends;
};

/// Whether triangles a and b (with their unit normals) cross, and where: the segment shared by
/// both. A corner exactly on the other's plane counts as lying on the side its normal points to
/// (a symbolic perturbation, so that every crossing has two ends on edges); coplanar triangles do
/// not cross.
bool intersect_triangles(const Triangle3& a, const Eigen::Vector3d& n_a, const Triangle3& b, const Eigen::Vector3d& n_b,
                         TriangleCut& cut);

/// Where the segment from + s (to - from), s in [0, 1], meets triangle t, as s; a negative value
/// when it does not (or runs in the triangle's plane).
double segment_hits_triangle(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const Triangle3& t);

}  // namespace surfdb
