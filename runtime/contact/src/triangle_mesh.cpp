#include "surfdb/contact/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include <Eigen/Geometry>

namespace surfdb {

TriangleMesh::TriangleMesh(std::vector<Eigen::Vector3d> vertices,
                           std::span<const std::array<std::uint32_t, 3>> triangles)
    : vertices_(std::move(vertices)) {
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;
  for (std::size_t v = 0; v < vertices_.size(); ++v) {
    if (!vertices_[v].allFinite())
      throw std::invalid_argument("mesh vertex " + std::to_string(v) + " has a coordinate that is not a finite number");
    lo = lo.cwiseMin(vertices_[v]);
    hi = hi.cwiseMax(vertices_[v]);
  }
  // Half-edges and tree nodes are int32, the polygons' keys hold a half-edge in 31 bits.
  if (triangles.size() > 700'000'000u)
    throw std::invalid_argument("the mesh has " + std::to_string(triangles.size()) +
                                " triangles: at most 700,000,000 are supported");
  const double min_double_area = 1e-12 * (hi - lo).squaredNorm();
  triangles_.reserve(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    for (std::uint32_t v : tri)
      if (v >= vertices_.size())
        throw std::invalid_argument("mesh triangle " + std::to_string(t) + " names vertex " + std::to_string(v) +
                                    " of " + std::to_string(vertices_.size()));
    const Eigen::Vector3d n = (vertices_[tri[1]] - vertices_[tri[0]]).cross(vertices_[tri[2]] - vertices_[tri[0]]);
    if (n.norm() <= min_double_area || tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      ++quality_.degenerate_removed;
      continue;
    }
    triangles_.push_back(tri);
    normals_.push_back(n.normalized());
    areas_.push_back(0.5 * n.norm());
    centroids_.push_back((vertices_[tri[0]] + vertices_[tri[1]] + vertices_[tri[2]]) / 3.0);
  }
  if (triangles_.empty()) throw std::invalid_argument("the mesh has no triangle of non-zero area");
  pair_half_edges();
  std::vector<Eigen::Vector3d> box_lo(size()), box_hi(size());
  for (std::size_t t = 0; t < size(); ++t) {
    box_lo[t] = corner(t, 0).cwiseMin(corner(t, 1)).cwiseMin(corner(t, 2));
    box_hi[t] = corner(t, 0).cwiseMax(corner(t, 1)).cwiseMax(corner(t, 2));
  }
  tree_ = MeshTree(box_lo, box_hi, centroids_);
}

void TriangleMesh::pair_half_edges() {
  // Sort the half-edges by their undirected edge; a run of two is a shared edge, of one an open
  // edge, of more a non-manifold edge (left open).
  struct HalfEdge {
    std::uint32_t low, high, index;
    bool forward;  // runs low -> high
  };
  std::vector<HalfEdge> edges;
  edges.reserve(3 * size());
  for (std::size_t t = 0; t < size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = triangles_[t][static_cast<std::size_t>(k)], b = triangles_[t][static_cast<std::size_t>((k + 1) % 3)];
      edges.push_back({std::min(a, b), std::max(a, b), static_cast<std::uint32_t>(3 * t + static_cast<std::size_t>(k)), a < b});
    }
  std::sort(edges.begin(), edges.end(), [](const HalfEdge& x, const HalfEdge& y) {
    return std::tie(x.low, x.high, x.index) < std::tie(y.low, y.high, y.index);
  });
  twins_.assign(3 * size(), kOpen);
  for (std::size_t first = 0; first < edges.size();) {
    std::size_t last = first + 1;
    while (last < edges.size() && edges[last].low == edges[first].low && edges[last].high == edges[first].high) ++last;
    const std::size_t run = last - first;
    if (run == 1) {
      ++quality_.open_edges;
    } else if (run > 2) {
      ++quality_.non_manifold_edges;
    } else {
      const HalfEdge &x = edges[first], &y = edges[first + 1];
      if (x.forward == y.forward) ++quality_.inconsistent_edges;  // still neighbours for the walk
      twins_[x.index] = static_cast<std::int32_t>(y.index);
      twins_[y.index] = static_cast<std::int32_t>(x.index);
    }
    first = last;
  }
}

double TriangleMesh::total_area() const {
  double a = 0;
  for (double x : areas_) a += x;
  return a;
}

double TriangleMesh::signed_volume() const {
  double v = 0;
  for (std::size_t t = 0; t < size(); ++t) v += corner(t, 0).dot(corner(t, 1).cross(corner(t, 2)));
  return v / 6.0;
}

}  // namespace surfdb
