#include "surfdb/table/solid_distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "surfdb/table/face_boundary.hpp"
#include "surfdb/table/projection.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb {
namespace {

struct Nearest {
  double distance = std::numeric_limits<double>::infinity();  // unsigned
  bool outside = true;
};

// The nearest point of one edge, and whether the direction to x lies in its normal cone.
void nearest_on_edge(const SetEdge& e, const Eigen::Vector3d& x, Nearest& best) {
  for (std::size_t k = 0; k + 1 < e.points.size(); ++k) {
    const Eigen::Vector3d a = edge_vector(e.points[k]), ab = edge_vector(e.points[k + 1]) - a;
    const double l2 = ab.squaredNorm();
    const double w = l2 > 0 ? std::clamp((x - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
    const Eigen::Vector3d d = x - (a + w * ab);
    if (d.norm() >= best.distance) continue;
    bool in_cone = true;
    for (const EdgeSide& s : e.sides) in_cone &= d.dot((1 - w) * edge_vector(s.inward[k]) + w * edge_vector(s.inward[k + 1])) <= 0;
    best.distance = d.norm();
    best.outside = in_cone == (e.kind != EdgeKind::concave);
  }
}

}  // namespace

double signed_distance(const TableSet& set, const Eigen::Vector3d& x) {
  Nearest best;
  for (std::size_t k = 0; k < set.size(); ++k) {
    SurfaceBinding binding(set[k].table);
    const Projection p = project_global(binding, set[k].table->node_tree(), x);
    const bool on_face = p.point.status == QueryStatus::valid ||
                         (p.point.status == QueryStatus::invalid_cell && inside_trim(set.face_edges(k), p.point.p));
    if (!p.converged || !on_face || std::abs(p.distance) >= best.distance) continue;
    best.distance = std::abs(p.distance);
    best.outside = p.distance >= 0;
  }
  for (const SetEdge& e : set.edges())
    if (e.kind != EdgeKind::smooth) nearest_on_edge(e, x, best);
  return best.outside ? best.distance : -best.distance;
}

}  // namespace surfdb
