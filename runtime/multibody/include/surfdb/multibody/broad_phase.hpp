// The broad phase between bodies: which axis-aligned boxes (world axes, m) overlap. Boxes are
// binned in a uniform grid whose cells are the size of the largest box no more than twice the
// median's (all boxes, when they are alike); a box is filed under the cell of its lowest corner, so two boxes no larger than a cell can overlap only if their cells are
// neighbours, and each cell is compared with itself and its 13 forward neighbours. The few boxes
// larger than a cell (a bowl's, a long rail's) are compared with every box. Sorting the cells
// costs N log N; the comparisons, about N plus the pairs that are close, whatever the scene's
// shape (a sweep along one axis tests about N^(5/3) pairs in a compact pile).
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace surfdb {

struct Aabb {
  Eigen::Vector3d min, max;
};

class BoxGrid {
 public:
  /// The pairs (a, b), a < b, of boxes that overlap (touching counts); the same boxes always give
  /// the same list in the same order. No allocation once the lists have grown to size.
  std::span<const std::pair<int, int>> update(std::span<const Aabb> boxes);

  /// The box pairs the last update() compared (for the benchmark's report).
  std::size_t tested() const { return tested_; }

 private:
  struct Filed {
    std::uint64_t cell;  // packed coordinates (broad_phase.cpp)
    int box;
  };
  void compare(std::span<const Aabb> boxes, int a, int b);

  std::vector<double> extents_;
  std::vector<Filed> filed_;  // the small boxes, sorted by cell then box
  std::vector<int> large_;    // boxes larger than a cell
  std::vector<int> heads_;    // open-addressing table: an occupied cell's first entry in filed_
  std::vector<std::pair<int, int>> overlaps_;
  std::size_t tested_ = 0;
};

}  // namespace surfdb
