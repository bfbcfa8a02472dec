// A triangulated surface as the polygonal contact model sees it (Hippmann 2003): read-only once
// built, in metres in the surface's own frame. Each triangle knows its outward unit normal, area
// and centroid; the edges are half-edges with twins (a doubly connected edge list stored by
// triangle: half-edge 3t + k runs from corner k to corner k+1 of triangle t, and its twin is the
// same edge run the other way in the neighbouring triangle); a bounding-volume tree of boxes
// covers the triangles (mesh_tree.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "surfdb/contact/mesh_tree.hpp"

namespace surfdb {

/// What building a mesh found and repaired.
struct MeshQuality {
  std::size_t degenerate_removed = 0;  // triangles of (near) zero area left out
  std::size_t open_edges = 0;          // edges with one triangle (a crack or the border of a patch)
  std::size_t non_manifold_edges = 0;  // edges shared by more than two triangles (left unpaired)
  std::size_t inconsistent_edges = 0;  // edges whose two triangles run them the same way (flipped)
  bool closed() const { return open_edges == 0 && non_manifold_edges == 0; }
  bool consistent() const { return inconsistent_edges == 0 && non_manifold_edges == 0; }
};

class TriangleMesh {
 public:
  static constexpr std::int32_t kOpen = -1;  // a half-edge without a twin

  TriangleMesh() = default;
  /// Builds the mesh from vertices (m) and triangles (vertex indices, counter-clockwise seen from
  /// outside: (b - a) x (c - a) points out). Triangles whose area is below 1e-12 of the squared
  /// bounding-box diagonal are left out (counted in quality()). Throws std::invalid_argument for a
  /// non-finite vertex, an index out of range, no triangle left or more than 700,000,000.
  TriangleMesh(std::vector<Eigen::Vector3d> vertices, std::span<const std::array<std::uint32_t, 3>> triangles);

  std::size_t size() const { return triangles_.size(); }
  const std::vector<Eigen::Vector3d>& vertices() const { return vertices_; }
  const std::array<std::uint32_t, 3>& triangle(std::size_t t) const { return triangles_[t]; }
  /// Corner k of triangle t, m.
  const Eigen::Vector3d& corner(std::size_t t, int k) const { return vertices_[triangles_[t][static_cast<std::size_t>(k)]]; }
  const Eigen::Vector3d& normal(std::size_t t) const { return normals_[t]; }      // unit, outward
  const Eigen::Vector3d& centroid(std::size_t t) const { return centroids_[t]; }  // m
  double area(std::size_t t) const { return areas_[t]; }                          // m^2
  /// The twin of half-edge h = 3t + k, or kOpen.
  std::int32_t twin(std::size_t h) const { return twins_[h]; }
  /// The triangle across edge k of triangle t, or kOpen.
  std::int32_t neighbour(std::size_t t, int k) const {
    const std::int32_t h = twins_[3 * t + static_cast<std::size_t>(k)];
    return h == kOpen ? kOpen : h / 3;
  }
  const MeshTree& tree() const { return tree_; }
  const MeshQuality& quality() const { return quality_; }
  double total_area() const;  // m^2
  /// The volume the mesh encloses, m^3 (divergence theorem; meaningful for a closed mesh,
  /// negative when the triangles face inwards).
  double signed_volume() const;

 private:
  void pair_half_edges();

  std::vector<Eigen::Vector3d> vertices_;
  std::vector<std::array<std::uint32_t, 3>> triangles_;
  std::vector<Eigen::Vector3d> normals_, centroids_;
  std::vector<double> areas_;
  std::vector<std::int32_t> twins_;
  MeshTree tree_;
  MeshQuality quality_;
};

}  // namespace surfdb
