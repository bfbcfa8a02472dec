#include "surfdb/multibody/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace surfdb {
namespace {

bool overlap(const Aabb& a, const Aabb& b) {
  return (a.min.array() <= b.max.array()).all() && (b.min.array() <= a.max.array()).all();
}

// Cells a box can overlap from: itself and the 13 neighbours after it in (x, y, z) order.
constexpr std::array<std::array<int, 3>, 13> kForward = {{{0, 0, 1},
                                                         {0, 1, -1}, {0, 1, 0}, {0, 1, 1},
                                                         {1, -1, -1}, {1, -1, 0}, {1, -1, 1},
                                                         {1, 0, -1}, {1, 0, 0}, {1, 0, 1},
                                                         {1, 1, -1}, {1, 1, 0}, {1, 1, 1}}};

// A cell's coordinates, 21 bits each, in one key whose order is (x, y, z) order. Coordinates
// beyond 2^21 - 1 share the last cell: more comparisons there, none missed.
constexpr std::uint64_t kCellMask = (std::uint64_t{1} << 21) - 1;
constexpr std::int64_t kCellMax = static_cast<std::int64_t>(kCellMask);
std::uint64_t pack(std::uint64_t x, std::uint64_t y, std::uint64_t z) { return (x << 42) | (y << 21) | z; }

}  // namespace

void BoxGrid::compare(std::span<const Aabb> boxes, int a, int b) {
  ++tested_;
  if (overlap(boxes[static_cast<std::size_t>(a)], boxes[static_cast<std::size_t>(b)]))
    overlaps_.emplace_back(std::min(a, b), std::max(a, b));
}

std::span<const std::pair<int, int>> BoxGrid::update(std::span<const Aabb> boxes) {
  overlaps_.clear();
  filed_.clear();
  large_.clear();
  tested_ = 0;
  if (boxes.empty()) return overlaps_;
  // The cell: twice the median box's largest side.
  extents_.resize(boxes.size());
  Eigen::Vector3d origin = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  const auto finite = [](const Aabb& b) { return b.min.allFinite() && b.max.allFinite(); };
  for (std::size_t k = 0; k < boxes.size(); ++k) {
    if (!finite(boxes[k])) {  // a failed trial state: compared with all, overlapping none
      extents_[k] = 0;
      continue;
    }
    extents_[k] = (boxes[k].max - boxes[k].min).maxCoeff();
    origin = origin.cwiseMin(boxes[k].min);
  }
  // The cell: the largest box no more than twice the median's size (all of them when they are alike).
  std::vector<double>::iterator middle = extents_.begin() + static_cast<std::ptrdiff_t>(extents_.size() / 2);
  std::nth_element(extents_.begin(), middle, extents_.end());
  double cell = *middle;
  for (double e : extents_)
    if (e <= 2 * *middle) cell = std::max(cell, e);
  cell = std::max(cell, std::numeric_limits<double>::min());
  for (std::size_t k = 0; k < boxes.size(); ++k) {
    const int box = static_cast<int>(k);
    if (!finite(boxes[k]) || (boxes[k].max - boxes[k].min).maxCoeff() > cell) {
      large_.push_back(box);
      continue;
    }
    const Eigen::Vector3d c = ((boxes[k].min - origin) / cell).array().floor().min(kCellMax);
    filed_.push_back({pack(static_cast<std::uint64_t>(c.x()), static_cast<std::uint64_t>(c.y()),
                           static_cast<std::uint64_t>(c.z())),
                      box});
  }
  const auto by_cell = [](const Filed& a, const Filed& b) { return a.cell < b.cell || (a.cell == b.cell && a.box < b.box); };
  std::sort(filed_.begin(), filed_.end(), by_cell);
  // Each occupied cell's first entry in filed_, by an open-addressing table of the cells.
  std::size_t size = 16;
  int bits = 4;
  while (size < 2 * filed_.size()) size <<= 1, ++bits;
  heads_.assign(size, -1);
  // Fibonacci hashing: the product's top bits depend on every bit of the key.
  const auto hash = [&](std::uint64_t c) { return static_cast<std::size_t>((c * 0x9E3779B97F4A7C15ull) >> (64 - bits)); };
  for (std::size_t k = 0; k < filed_.size(); ++k) {
    if (k > 0 && filed_[k].cell == filed_[k - 1].cell) continue;
    std::size_t s = hash(filed_[k].cell);
    while (heads_[s] >= 0) s = (s + 1) & (size - 1);
    heads_[s] = static_cast<int>(k);
  }
  const auto find = [&](std::uint64_t c) -> int {
    for (std::size_t s = hash(c);; s = (s + 1) & (size - 1)) {
      if (heads_[s] < 0) return -1;
      if (filed_[static_cast<std::size_t>(heads_[s])].cell == c) return heads_[s];
    }
  };
  for (std::size_t first = 0; first < filed_.size();) {
    std::size_t last = first;  // [first, last): one cell
    while (last < filed_.size() && filed_[last].cell == filed_[first].cell) ++last;
    for (std::size_t a = first; a < last; ++a)
      for (std::size_t b = a + 1; b < last; ++b) compare(boxes, filed_[a].box, filed_[b].box);
    const std::uint64_t here = filed_[first].cell;
    for (const std::array<int, 3>& step : kForward) {
      const std::int64_t x = static_cast<std::int64_t>(here >> 42) + step[0];
      const std::int64_t y = static_cast<std::int64_t>((here >> 21) & kCellMask) + step[1];
      const std::int64_t z = static_cast<std::int64_t>(here & kCellMask) + step[2];
      if (x < 0 || y < 0 || z < 0 || x > kCellMax || y > kCellMax || z > kCellMax) continue;
      const std::uint64_t next = pack(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y), static_cast<std::uint64_t>(z));
      for (int m = find(next); m >= 0 && static_cast<std::size_t>(m) < filed_.size() &&
                               filed_[static_cast<std::size_t>(m)].cell == next;
           ++m)
        for (std::size_t a = first; a < last; ++a) compare(boxes, filed_[a].box, filed_[static_cast<std::size_t>(m)].box);
    }
    first = last;
  }
  for (std::size_t k = 0; k < large_.size(); ++k) {
    for (const Filed& f : filed_) compare(boxes, large_[k], f.box);
    for (std::size_t m = k + 1; m < large_.size(); ++m) compare(boxes, large_[k], large_[m]);
  }
  return overlaps_;
}

}  // namespace surfdb
