#include "surfdb/contact/mesh_tree.hpp"

#include <algorithm>
#include <numeric>

namespace surfdb {

MeshTree::MeshTree(std::span<const Eigen::Vector3d> lo, std::span<const Eigen::Vector3d> hi,
                   std::span<const Eigen::Vector3d> centroids) {
  if (lo.empty()) return;
  std::vector<std::uint32_t> order(lo.size());
  std::iota(order.begin(), order.end(), 0u);
  nodes_.reserve(2 * lo.size() - 1);
  build(order, lo, hi, centroids);
}

std::int32_t MeshTree::build(std::span<std::uint32_t> order, std::span<const Eigen::Vector3d> lo,
                             std::span<const Eigen::Vector3d> hi, std::span<const Eigen::Vector3d> centroids) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  nodes_.emplace_back();
  Node node;
  node.lo = lo[order.front()];
  node.hi = hi[order.front()];
  Eigen::Vector3d c_lo = centroids[order.front()], c_hi = c_lo;
  for (std::uint32_t t : order) {
    node.lo = node.lo.cwiseMin(lo[t]);
    node.hi = node.hi.cwiseMax(hi[t]);
    c_lo = c_lo.cwiseMin(centroids[t]);
    c_hi = c_hi.cwiseMax(centroids[t]);
  }
  if (order.size() == 1) {
    node.left = -1 - static_cast<std::int32_t>(order.front());
  } else {
    int axis = 0;
    (c_hi - c_lo).maxCoeff(&axis);
    const std::size_t half = order.size() / 2;
    // Ties broken by triangle index, so that the tree does not depend on the sort's internals.
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(half), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       return centroids[a][axis] < centroids[b][axis] ||
                              (centroids[a][axis] == centroids[b][axis] && a < b);
                     });
    node.left = build(order.first(half), lo, hi, centroids);
    node.right = build(order.subspan(half), lo, hi, centroids);
  }
  nodes_[static_cast<std::size_t>(index)] = node;
  return index;
}

}  // namespace surfdb
