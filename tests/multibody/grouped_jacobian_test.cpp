// The grouped finite-difference Jacobian (runtime/multibody/src/grouped_jacobian.hpp) against the
// analytic Jacobian of a small system shaped like a bearing: a hub whose motion depends on itself
// alone, four balls each depending on itself and the hub, and an energy-like state fed by all of
// them that feeds back into nothing.
#include "../../runtime/multibody/src/grouped_jacobian.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace surfdb;

namespace {

constexpr int kBalls = 4, kSize = 2 + 2 * kBalls + 1;  // hub, balls, energy

class HubAndBalls : public OdeSystem {
 public:
  explicit HubAndBalls(bool ball_pair) : ball_pair_(ball_pair) {}
  int size() const override { return kSize; }
  // hub: (sin h0 + h1^2, h0 h1); ball k: (b0 b1 + h0^2 [+ the next ball's b0 for balls 0 and 1
  // when paired], cos b0 + h1 b1); energy: the sum of the balls' b0^2.
  void derivative(double, const double* y, double* f) override {
    f[0] = std::sin(y[0]) + y[1] * y[1];
    f[1] = y[0] * y[1];
    f[kSize - 1] = 0;
    for (int k = 0; k < kBalls; ++k) {
      const double* b = y + 2 + 2 * k;
      f[2 + 2 * k] = b[0] * b[1] + y[0] * y[0] + (ball_pair_ && k < 2 ? y[2 + 2 * (1 - k)] : 0.0);
      f[3 + 2 * k] = std::cos(b[0]) + y[1] * b[1];
      f[kSize - 1] += b[0] * b[0];
    }
  }
  bool jacobian_blocks(JacobianBlocks& blocks) const override {
    blocks.first = {0, 2, 4, 6, 8};
    blocks.size = {2, 2, 2, 2, 2};
    blocks.affects = {{0, 1, 2, 3, 4}, {1}, {2}, {3}, {4}};
    if (ball_pair_) blocks.affects[1] = blocks.affects[2] = {1, 2};
    return true;
  }
  // The exact df/dy, the energy row left 0 as the grouped Jacobian leaves it.
  std::vector<double> exact(const double* y) const {
    std::vector<double> J(kSize * kSize, 0.0);
    const auto at = [&](int row, int column) -> double& { return J[static_cast<std::size_t>(column * kSize + row)]; };
    at(0, 0) = std::cos(y[0]), at(0, 1) = 2 * y[1], at(1, 0) = y[1], at(1, 1) = y[0];
    for (int k = 0; k < kBalls; ++k) {
      const int r = 2 + 2 * k;
      at(r, r) = y[r + 1], at(r, r + 1) = y[r], at(r, 0) = 2 * y[0];
      at(r + 1, r) = -std::sin(y[r]), at(r + 1, r + 1) = y[1], at(r + 1, 1) = y[r + 1];
      if (ball_pair_ && k < 2) at(r, 2 + 2 * (1 - k)) = 1;
    }
    return J;
  }

 private:
  bool ball_pair_;
};

// J by grouped differences, dense or through the compressed columns (scattered into a dense copy,
// every column's diagonal entry checked present), against the exact Jacobian.
void check(bool ball_pair, int evaluations, bool compressed) {
  HubAndBalls system(ball_pair);
  std::vector<double> y(kSize), f(kSize), weights(kSize, 1e6), J(kSize * kSize, NAN);
  for (int c = 0; c < kSize; ++c) y[static_cast<std::size_t>(c)] = 0.3 + 0.1 * c;
  system.derivative(0, y.data(), f.data());
  JacobianBlocks blocks;
  REQUIRE(system.jacobian_blocks(blocks));
  GroupedJacobian grouped;
  if (!compressed) {
    grouped.evaluate(system, blocks, 0, y.data(), f.data(), weights.data(), 1e-2, J.data());
  } else {
    std::vector<std::int64_t> starts(kSize + 1), rows(static_cast<std::size_t>(GroupedJacobian::entries(blocks, kSize)));
    GroupedJacobian::pattern(blocks, kSize, starts.data(), rows.data());
    REQUIRE(starts[kSize] <= static_cast<std::int64_t>(rows.size()));
    std::vector<double> values(rows.size(), NAN);
    grouped.evaluate(system, blocks, 0, y.data(), f.data(), weights.data(), 1e-2, starts.data(), values.data());
    std::fill(J.begin(), J.end(), 0.0);
    for (int column = 0; column < kSize; ++column) {
      bool diagonal = false;
      for (auto e = starts[static_cast<std::size_t>(column)]; e < starts[static_cast<std::size_t>(column) + 1]; ++e) {
        const auto row = rows[static_cast<std::size_t>(e)];
        CHECK((e == starts[static_cast<std::size_t>(column)] || row > rows[static_cast<std::size_t>(e) - 1]));  // ascending
        diagonal = diagonal || row == column;
        J[static_cast<std::size_t>(column * kSize + row)] = values[static_cast<std::size_t>(e)];
      }
      CAPTURE(column);
      CHECK(diagonal);  // else CVODE rebuilds the whole matrix to form I - gamma J (n^2 work)
    }
  }
  CHECK(grouped.evaluations() == evaluations);
  const std::vector<double> exact = system.exact(y.data());
  for (int column = 0; column < kSize; ++column)
    for (int row = 0; row < kSize; ++row) {
      CAPTURE(row);
      CAPTURE(column);
      const auto e = static_cast<std::size_t>(column * kSize + row);
      CHECK(std::abs(J[e] - exact[e]) < 1e-6);
    }
}

}  // namespace

TEST_CASE("grouped differences: the hub apart, the balls that touch nothing in common in one group") {
  // Two colours (the hub; all four balls), two columns each: 4 evaluations of f for 11 columns.
  // catches: a ball's change put in another ball's rows, a perturbation not undone, the energy
  // state's column or row differenced (it is outside every block).
  check(false, 4, false);
}

TEST_CASE("grouped differences: two balls in contact with each other take two groups") {
  // Balls 0 and 1 reach each other's rows: they cannot share a group; balls 2 and 3 join either.
  check(true, 6, false);
}

TEST_CASE("grouped differences into compressed columns: the same entries, every diagonal present") {
  // The sparse Newton matrix of a scene of many bodies (integrator_sundials.cpp). catches: an entry
  // stored in another column's or row's place, a column outside every block (the energy state)
  // left without its diagonal, rows out of order.
  check(false, 4, true);
  check(true, 6, true);
}
