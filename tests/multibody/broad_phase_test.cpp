// The box grid against the brute force it replaces: every overlapping pair, no other, once each,
// for boxes of mixed sizes (some far larger than a cell), touching ones, far-apart ones and
// coordinates of both signs.
#include "surfdb/multibody/broad_phase.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace surfdb;

namespace {

std::vector<std::pair<int, int>> brute_force(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t a = 0; a < boxes.size(); ++a)
    for (std::size_t b = a + 1; b < boxes.size(); ++b)
      if ((boxes[a].min.array() <= boxes[b].max.array()).all() && (boxes[b].min.array() <= boxes[a].max.array()).all())
        pairs.emplace_back(static_cast<int>(a), static_cast<int>(b));
  return pairs;
}

std::vector<std::pair<int, int>> sorted(std::span<const std::pair<int, int>> pairs) {
  std::vector<std::pair<int, int>> s(pairs.begin(), pairs.end());
  std::sort(s.begin(), s.end());
  return s;
}

}  // namespace

TEST_CASE("the box grid finds exactly the overlapping pairs a brute force finds") {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> place(-0.2, 0.2), size(0.001, 0.02), large(0.1, 0.5);
  BoxGrid grid;
  for (int scene = 0; scene < 20; ++scene) {
    std::vector<Aabb> boxes;
    for (int k = 0; k < 300; ++k) {
      const Eigen::Vector3d c(place(random), place(random), place(random));
      const double h = (k % 50 == 0 ? large(random) : size(random)) / 2;
      boxes.push_back({c.array() - h, c.array() + h});
    }
    boxes.push_back(boxes[3]);                                                     // identical boxes
    boxes.push_back({boxes[5].max, boxes[5].max + Eigen::Vector3d::Constant(0.01)});  // touching at a corner
    boxes.push_back({Eigen::Vector3d::Constant(1e6), Eigen::Vector3d::Constant(1e6 + 0.01)});  // far away
    const std::vector<std::pair<int, int>> expected = brute_force(boxes);
    const std::vector<std::pair<int, int>> found = sorted(grid.update(boxes));
    CHECK(found == expected);
    CHECK(std::adjacent_find(found.begin(), found.end()) == found.end());
    CHECK(grid.tested() < boxes.size() * (boxes.size() - 1) / 2);
  }
  CHECK(grid.update({}).empty());
}

TEST_CASE("the box grid lists the same boxes' pairs in the same order every time") {
  std::vector<Aabb> boxes;
  for (int k = 0; k < 100; ++k) {
    const Eigen::Vector3d c(0.011 * (k % 5), 0.011 * (k / 5 % 5), 0.011 * (k / 25));
    boxes.push_back({c.array() - 0.006, c.array() + 0.006});
  }
  BoxGrid a, b;
  const std::span<const std::pair<int, int>> once = a.update(boxes);
  const std::vector<std::pair<int, int>> first(once.begin(), once.end());
  const std::span<const std::pair<int, int>> again = b.update(boxes);
  CHECK(std::equal(first.begin(), first.end(), again.begin(), again.end()));
  CHECK(!first.empty());
}
