#include "surfdb/multibody/broad_phase.hpp"

#include <algorithm>

namespace surfdb {

std::span<const std::pair<int, int>> SweepAndPrune::update(std::span<const Aabb> boxes) {
  const int n = static_cast<int>(boxes.size());
  if (static_cast<int>(order_.size()) != n) {
    order_.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) order_[static_cast<std::size_t>(k)] = k;
  }
  // Insertion sort by min.x, ties by index (a total order: the same boxes, the same order).
  const auto before = [&](int a, int b) {
    const double xa = boxes[static_cast<std::size_t>(a)].min.x(), xb = boxes[static_cast<std::size_t>(b)].min.x();
    return xa < xb || (xa == xb && a < b);
  };
  for (std::size_t k = 1; k < order_.size(); ++k) {
    const int box = order_[k];
    std::size_t m = k;
    for (; m > 0 && before(box, order_[m - 1]); --m) order_[m] = order_[m - 1];
    order_[m] = box;
  }
  // The boxes copied in sweep order: the sweep then reads memory in sequence.
  sorted_.resize(order_.size());
  for (std::size_t k = 0; k < order_.size(); ++k) sorted_[k] = boxes[static_cast<std::size_t>(order_[k])];
  overlaps_.clear();
  tested_ = 0;
  for (std::size_t k = 0; k < sorted_.size(); ++k) {
    const Aabb& a = sorted_[k];
    for (std::size_t m = k + 1; m < sorted_.size(); ++m) {
      const Aabb& b = sorted_[m];
      if (b.min.x() > a.max.x()) break;
      ++tested_;
      if (b.min.y() > a.max.y() || a.min.y() > b.max.y() || b.min.z() > a.max.z() || a.min.z() > b.max.z()) continue;
      overlaps_.emplace_back(std::min(order_[k], order_[m]), std::max(order_[k], order_[m]));
    }
  }
  return overlaps_;
}

}  // namespace surfdb
