#include "surfdb/contact/triangle_intersection.hpp"

#include <cmath>
#include <utility>

#include <Eigen/Geometry>

namespace surfdb {
namespace {

// The two edges of triangle t that cross the plane through `origin` with normal n: their crossing
// points and edge numbers. False when all corners are on one side.
bool cross_plane(const Triangle3& t, const Eigen::Vector3d& origin, const Eigen::Vector3d& n, bool first,
                 std::array<SegmentEnd, 2>& ends) {
  std::array<double, 3> d{};
  int positive = 0;
  for (int k = 0; k < 3; ++k) {
    d[static_cast<std::size_t>(k)] = n.dot(t[static_cast<std::size_t>(k)] - origin);
    positive += d[static_cast<std::size_t>(k)] >= 0;  // zero counts as positive (the perturbation)
  }
  if (positive == 0 || positive == 3) return false;
  // The corner alone on its side, and the two edges that leave it.
  const bool lone_positive = positive == 1;
  int lone = 0;
  while ((d[static_cast<std::size_t>(lone)] >= 0) != lone_positive) ++lone;
  const int next = (lone + 1) % 3, prev = (lone + 2) % 3;
  const auto crossing = [&](int p, int q) {
    const double dp = d[static_cast<std::size_t>(p)], dq = d[static_cast<std::size_t>(q)];
    const Eigen::Vector3d &xp = t[static_cast<std::size_t>(p)], &xq = t[static_cast<std::size_t>(q)];
    return Eigen::Vector3d(xp + (xq - xp) * (dp / (dp - dq)));
  };
  ends[0] = {crossing(lone, next), first, lone};  // edge lone -> next
  ends[1] = {crossing(prev, lone), first, prev};  // edge prev -> lone
  return true;
}

}  // namespace

bool intersect_triangles(const Triangle3& a, const Eigen::Vector3d& n_a, const Triangle3& b, const Eigen::Vector3d& n_b,
                         TriangleCut& cut) {
  std::array<SegmentEnd, 2> on_a, on_b;
  if (!cross_plane(b, a[0], n_a, false, on_b) || !cross_plane(a, b[0], n_b, true, on_a)) return false;
  const Eigen::Vector3d line = n_a.cross(n_b);
  if (line.squaredNorm() == 0) return false;  // parallel planes
  const auto along = [&](const SegmentEnd& e) { return line.dot(e.point); };
  if (along(on_a[0]) > along(on_a[1])) std::swap(on_a[0], on_a[1]);
  if (along(on_b[0]) > along(on_b[1])) std::swap(on_b[0], on_b[1]);
  const bool start_on_a = along(on_a[0]) >= along(on_b[0]), end_on_a = along(on_a[1]) <= along(on_b[1]);
  SegmentEnd start = start_on_a ? on_a[0] : on_b[0], end = end_on_a ? on_a[1] : on_b[1];
  if (along(start) > along(end)) return false;
  // Ends of both triangles at one point: a crossing through an edge of each (e.g. a vertex of one
  // mesh on an edge line of the other), which either neighbour may have taken.
  const double tie = 1e-10 * line.norm() * ((a[1] - a[0]).norm() + (b[1] - b[0]).norm());
  if (std::abs(along(on_a[0]) - along(on_b[0])) <= tie) start.other_edge = (start_on_a ? on_b[0] : on_a[0]).edge;
  if (std::abs(along(on_a[1]) - along(on_b[1])) <= tie) end.other_edge = (end_on_a ? on_b[1] : on_a[1]).edge;
  cut.ends = {start, end};
  return true;
}

double segment_hits_triangle(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const Triangle3& t) {
  const Eigen::Vector3d dir = to - from, e1 = t[1] - t[0], e2 = t[2] - t[0];
  const Eigen::Vector3d p = dir.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) <= 1e-300) return -1;
  const double inv = 1.0 / det;
  const Eigen::Vector3d s = from - t[0];
  const double u = s.dot(p) * inv;
  if (u < 0 || u > 1) return -1;
  const Eigen::Vector3d q = s.cross(e1);
  const double v = dir.dot(q) * inv;
  if (v < 0 || u + v > 1) return -1;
  const double hit = e2.dot(q) * inv;
  return hit >= 0 && hit <= 1 ? hit : -1;
}

}  // namespace surfdb
