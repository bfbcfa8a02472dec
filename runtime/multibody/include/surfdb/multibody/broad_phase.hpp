// The broad phase between bodies: sweep and prune over axis-aligned boxes (world axes, m). The
// boxes' order along x is kept from call to call and restored by insertion sort, linear in the
// number of boxes when they move a little between calls; the sweep then tests only boxes whose
// x intervals overlap, so a scene of N bodies costs about N plus the pairs that are close.
#pragma once

#include <Eigen/Core>
#include <span>
#include <utility>
#include <vector>

namespace surfdb {

struct Aabb {
  Eigen::Vector3d min, max;
};

class SweepAndPrune {
 public:
  /// The pairs (a, b), a < b, of boxes that overlap (touching counts), in the order of the sweep:
  /// the same boxes always give the same list. No allocation once the lists have grown to size.
  std::span<const std::pair<int, int>> update(std::span<const Aabb> boxes);

  /// The box pairs the last update() tested on all three axes (for the benchmark's report).
  std::size_t tested() const { return tested_; }

 private:
  std::vector<int> order_;  // box indices ascending by min.x
  std::vector<Aabb> sorted_;  // the boxes in that order
  std::vector<std::pair<int, int>> overlaps_;
  std::size_t tested_ = 0;
};

}  // namespace surfdb
