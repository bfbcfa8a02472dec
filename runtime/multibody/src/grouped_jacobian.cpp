#include "grouped_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace surfdb {

// Greedy colouring: each block takes the first colour none of whose blocks affects a row it affects.
void GroupedJacobian::colour(const JacobianBlocks& blocks) {
  const std::size_t count = blocks.first.size();
  colours_ = 0;
  for (std::size_t b = 0; b < count; ++b) {
    const std::vector<int>& rows = blocks.affects[b];
    std::size_t c = 0;
    while (c < colours_ && std::any_of(rows.begin(), rows.end(), [&](int row) {
             return reached_[c][static_cast<std::size_t>(row)] != 0;
           }))
      ++c;
    if (c == colours_) {
      if (reached_.size() == colours_) reached_.emplace_back(), members_.emplace_back();
      reached_[c].assign(count, 0);
      members_[c].clear();
      ++colours_;
    }
    members_[c].push_back(static_cast<int>(b));
    for (int row : rows) reached_[c][static_cast<std::size_t>(row)] = 1;
  }
}

template <class Store>
void GroupedJacobian::differences(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y,
                                  const double* fy, const double* weights, double min_increment, Store store) {
  const auto n = static_cast<std::size_t>(system.size());
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  colour(blocks);
  perturbed_.assign(y, y + n);
  f_.resize(n);
  step_.resize(n);
  evaluations_ = 0;
  const auto first = [&](int b) { return static_cast<std::size_t>(blocks.first[static_cast<std::size_t>(b)]); };
  const auto size = [&](int b) { return blocks.size[static_cast<std::size_t>(b)]; };
  for (std::size_t c = 0; c < colours_; ++c) {
    const std::vector<int>& colour = members_[c];
    int widest = 0;
    for (int b : colour) widest = std::max(widest, size(b));
    for (int k = 0; k < widest; ++k) {
      for (int b : colour) {
        if (k >= size(b)) continue;
        const std::size_t j = first(b) + static_cast<std::size_t>(k);
        perturbed_[j] = y[j] + std::max(root_eps * std::abs(y[j]), min_increment / weights[j]);
        step_[j] = perturbed_[j] - y[j];  // the increment as represented
      }
      system.derivative(t, perturbed_.data(), f_.data());
      ++evaluations_;
      for (int b : colour) {
        if (k >= size(b)) continue;
        const std::size_t j = first(b) + static_cast<std::size_t>(k);
        std::size_t entry = 0;
        for (int a : blocks.affects[static_cast<std::size_t>(b)])
          for (std::size_t row = first(a); row < first(a) + static_cast<std::size_t>(size(a)); ++row)
            store(j, entry++, row, (f_[row] - fy[row]) / step_[j]);
        perturbed_[j] = y[j];
      }
    }
  }
}

void GroupedJacobian::evaluate(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y,
                               const double* fy, const double* weights, double min_increment, double* J) {
  const auto n = static_cast<std::size_t>(system.size());
  std::fill(J, J + n * n, 0.0);
  differences(system, blocks, t, y, fy, weights, min_increment,
              [&](std::size_t j, std::size_t, std::size_t row, double value) { J[j * n + row] = value; });
}

std::int64_t GroupedJacobian::entries(const JacobianBlocks& blocks, int n) {
  std::int64_t count = n;  // at most: a diagonal entry for each column in no block
  for (std::size_t b = 0; b < blocks.first.size(); ++b)
    for (int a : blocks.affects[b])
      count += static_cast<std::int64_t>(blocks.size[b]) * blocks.size[static_cast<std::size_t>(a)];
  return count;
}

void GroupedJacobian::pattern(const JacobianBlocks& blocks, int n, std::int64_t* starts, std::int64_t* rows) {
  std::fill(starts, starts + n + 1, 1);  // a column in no block holds its diagonal, 0
  for (std::size_t b = 0; b < blocks.first.size(); ++b) {
    std::int64_t height = 0;
    for (int a : blocks.affects[b]) height += blocks.size[static_cast<std::size_t>(a)];
    for (int k = 0; k < blocks.size[b]; ++k) starts[blocks.first[b] + k + 1] = height;
  }
  starts[0] = 0;
  for (int j = 0; j < n; ++j) starts[j + 1] += starts[j];
  for (int j = 0; j < n; ++j) rows[starts[j]] = j;
  for (std::size_t b = 0; b < blocks.first.size(); ++b)
    for (int k = 0; k < blocks.size[b]; ++k) {
      std::int64_t entry = starts[blocks.first[b] + k];
      for (int a : blocks.affects[b])
        for (int i = 0; i < blocks.size[static_cast<std::size_t>(a)]; ++i)
          rows[entry++] = blocks.first[static_cast<std::size_t>(a)] + i;
    }
}

void GroupedJacobian::evaluate(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y,
                               const double* fy, const double* weights, double min_increment,
                               const std::int64_t* starts, double* values) {
  std::fill(values, values + starts[system.size()], 0.0);
  differences(system, blocks, t, y, fy, weights, min_increment,
              [&](std::size_t j, std::size_t k, std::size_t, double value) { values[starts[j] + static_cast<std::int64_t>(k)] = value; });
}

}  // namespace surfdb
