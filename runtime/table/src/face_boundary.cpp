#include "surfdb/table/face_boundary.hpp"

#include <algorithm>
#include <limits>

namespace surfdb {
bool inside_trim(std::span<const FaceEdge> boundary, const Eigen::Vector3d& x) {
  double best = std::numeric_limits<double>::infinity();
  double side = -1;
  for (const FaceEdge& fe : boundary) {
    const SetEdge& e = *fe.edge;
    const EdgeSide& s = e.sides[fe.side];
    if ((x - x.cwiseMax(fe.low).cwiseMin(fe.high)).squaredNorm() >= best) continue;  // none nearer on this edge
    for (std::size_t k = 0; k + 1 < e.points.size(); ++k) {
      const Eigen::Vector3d a = edge_vector(e.points[k]), ab = edge_vector(e.points[k + 1]) - a;
      const double l2 = ab.squaredNorm();
      const double w = l2 > 0 ? std::clamp((x - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
      const Eigen::Vector3d nearest = a + w * ab;
      const double d2 = (x - nearest).squaredNorm();
      if (d2 >= best) continue;
      best = d2;
      side = (x - nearest).dot((1 - w) * edge_vector(s.inward[k]) + w * edge_vector(s.inward[k + 1]));
    }
  }
  return side >= 0;
}

bool near_boundary(std::span<const FaceEdge> boundary, const Eigen::Vector3d& x, double distance) {
  const double d2 = distance * distance;
  for (const FaceEdge& fe : boundary) {
    if ((x - x.cwiseMax(fe.low).cwiseMin(fe.high)).squaredNorm() >= d2) continue;  // the whole edge is farther
    const SetEdge& e = *fe.edge;
    for (std::size_t k = 0; k + 1 < e.points.size(); ++k) {
      const Eigen::Vector3d a = edge_vector(e.points[k]), ab = edge_vector(e.points[k + 1]) - a;
      const double l2 = ab.squaredNorm();
      const double w = l2 > 0 ? std::clamp((x - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
      if ((x - a - w * ab).squaredNorm() < d2) return true;
    }
  }
  return false;
}

}  // namespace surfdb
