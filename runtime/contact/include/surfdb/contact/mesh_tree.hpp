// A bounding-volume tree of a triangle mesh (Hippmann 2003): a binary tree of axis-aligned boxes
// in the mesh's frame, from the whole surface at the root down to one triangle per leaf, built
// once per mesh by splitting the triangles at the median centroid along the longest side. Two
// trees are traversed against each other in the meshes' relative pose, and one tree against a
// segment; both visit the leaves (triangles) whose boxes the other side may reach and count the
// tests they make. The traversals keep their stack in a vector the caller owns (no allocation
// once it has grown).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace surfdb {

/// Counts of the tests a traversal made (the paper's table: box checks, triangle checks).
struct TraversalCounts {
  std::uint64_t box_tests = 0;
  std::uint64_t triangle_tests = 0;
};

class MeshTree {
 public:
  struct Node {
    Eigen::Vector3d lo, hi;    // box corners, m, mesh frame
    std::int32_t left = -1;    // child nodes; a leaf holds -1 - triangle in left
    std::int32_t right = -1;
    bool leaf() const { return left < 0; }
    std::uint32_t triangle() const { return static_cast<std::uint32_t>(-1 - left); }
  };

  MeshTree() = default;
  /// The tree over triangles with the given box corners (lo, hi per triangle) and centroids.
  MeshTree(std::span<const Eigen::Vector3d> lo, std::span<const Eigen::Vector3d> hi,
           std::span<const Eigen::Vector3d> centroids);

  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& root() const { return nodes_.front(); }

  /// Visits every pair of leaves (triangle of this tree, triangle of `other`) whose boxes overlap
  /// once other's boxes are placed in this tree's frame by x_this = R x_other + p (each rotated
  /// box enclosed in an axis-aligned one). visit(a, b) gets the two triangles. Where one side is
  /// a leaf and the other a subtree, apart(this_is_leaf, triangle, centre, half) may prune the
  /// subtree by its box (centre and half sides, this tree's frame), e.g. when the box lies wholly
  /// on one side of the triangle's plane: a large triangle's own box holds much of the other mesh.
  template <class Visit, class Apart>
  void overlapping_leaves(const MeshTree& other, const Eigen::Matrix3d& R, const Eigen::Vector3d& p,
                          std::vector<std::pair<std::int32_t, std::int32_t>>& stack, TraversalCounts& counts,
                          Visit&& visit, Apart&& apart) const;

  /// Visits every leaf whose box the segment from `from` to `to` (this tree's frame) crosses.
  template <class Visit>
  void leaves_on_segment(const Eigen::Vector3d& from, const Eigen::Vector3d& to, std::vector<std::int32_t>& stack,
                         TraversalCounts& counts, Visit&& visit) const;

 private:
  std::int32_t build(std::span<std::uint32_t> order, std::span<const Eigen::Vector3d> lo,
                     std::span<const Eigen::Vector3d> hi, std::span<const Eigen::Vector3d> centroids);

  std::vector<Node> nodes_;
};

template <class Visit, class Apart>
void MeshTree::overlapping_leaves(const MeshTree& other, const Eigen::Matrix3d& R, const Eigen::Vector3d& p,
                                  std::vector<std::pair<std::int32_t, std::int32_t>>& stack,
                                  TraversalCounts& counts, Visit&& visit, Apart&& apart) const {
  if (nodes_.empty() || other.nodes_.empty()) return;
  const Eigen::Matrix3d R_abs = R.cwiseAbs();
  stack.clear();
  stack.emplace_back(0, 0);
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    const Node& na = nodes_[static_cast<std::size_t>(a)];
    const Node& nb = other.nodes_[static_cast<std::size_t>(b)];
    ++counts.box_tests;
    const Eigen::Vector3d centre = R * (0.5 * (nb.lo + nb.hi)) + p;
    const Eigen::Vector3d half = R_abs * (0.5 * (nb.hi - nb.lo));
    if (((centre - half).array() > na.hi.array()).any() || ((centre + half).array() < na.lo.array()).any()) continue;
    if (na.leaf() != nb.leaf() &&
        (na.leaf() ? apart(true, na.triangle(), centre, half)
                   : apart(false, nb.triangle(), Eigen::Vector3d(0.5 * (na.lo + na.hi)), Eigen::Vector3d(0.5 * (na.hi - na.lo)))))
      continue;
    if (na.leaf() && nb.leaf()) {
      ++counts.triangle_tests;
      visit(na.triangle(), nb.triangle());
    } else if (nb.leaf() || (!na.leaf() && (na.hi - na.lo).squaredNorm() >= (nb.hi - nb.lo).squaredNorm())) {
      stack.emplace_back(na.left, b);  // descend the larger box
      stack.emplace_back(na.right, b);
    } else {
      stack.emplace_back(a, nb.left);
      stack.emplace_back(a, nb.right);
    }
  }
}

template <class Visit>
void MeshTree::leaves_on_segment(const Eigen::Vector3d& from, const Eigen::Vector3d& to,
                                 std::vector<std::int32_t>& stack, TraversalCounts& counts, Visit&& visit) const {
  if (nodes_.empty()) return;
  const Eigen::Vector3d mid = 0.5 * (from + to), half_span = 0.5 * (to - from), abs_span = half_span.cwiseAbs();
  stack.clear();
  stack.push_back(0);
  while (!stack.empty()) {
    const Node& n = nodes_[static_cast<std::size_t>(stack.back())];
    stack.pop_back();
    ++counts.box_tests;
    // Separating axes of a segment and a box: the box's three axes, then the segment x each axis.
    const Eigen::Vector3d c = 0.5 * (n.lo + n.hi), e = 0.5 * (n.hi - n.lo), d = mid - c;
    if ((d.cwiseAbs().array() > (e + abs_span).array()).any()) continue;
    if (std::abs(half_span.y() * d.z() - half_span.z() * d.y()) > e.y() * abs_span.z() + e.z() * abs_span.y() ||
        std::abs(half_span.z() * d.x() - half_span.x() * d.z()) > e.x() * abs_span.z() + e.z() * abs_span.x() ||
        std::abs(half_span.x() * d.y() - half_span.y() * d.x()) > e.x() * abs_span.y() + e.y() * abs_span.x())
      continue;
    if (n.leaf()) {
      ++counts.triangle_tests;
      visit(n.triangle());
    } else {
      stack.push_back(n.left);
      stack.push_back(n.right);
    }
  }
}

}  // namespace surfdb
