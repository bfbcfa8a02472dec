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

void GroupedJacobian::evaluate(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y,
                               const double* fy, const double* weights, double min_increment, double* J) {
  const auto n = static_cast<std::size_t>(system.size());
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  std::fill(J, J + n * n, 0.0);
  colour(blocks);
  perturbed_.assign(y, y + n);
  f_.resize(n);
  step_.resize(n);
  evaluations_ = 0;
  for (std::size_t c = 0; c < colours_; ++c) {
    const std::vector<int>& colour = members_[c];
    int widest = 0;
    for (int b : colour) widest = std::max(widest, blocks.size[static_cast<std::size_t>(b)]);
    for (int k = 0; k < widest; ++k) {
      for (int b : colour) {
        if (k >= blocks.size[static_cast<std::size_t>(b)]) continue;
        const auto j = static_cast<std::size_t>(blocks.first[static_cast<std::size_t>(b)] + k);
        perturbed_[j] = y[j] + std::max(root_eps * std::abs(y[j]), min_increment / weights[j]);
        step_[j] = perturbed_[j] - y[j];  // the increment as represented
      }
      system.derivative(t, perturbed_.data(), f_.data());
      ++evaluations_;
      for (int b : colour) {
        if (k >= blocks.size[static_cast<std::size_t>(b)]) continue;
        const auto j = static_cast<std::size_t>(blocks.first[static_cast<std::size_t>(b)] + k);
        double* column = J + j * n;
        for (int a : blocks.affects[static_cast<std::size_t>(b)]) {
          const auto first = static_cast<std::size_t>(blocks.first[static_cast<std::size_t>(a)]);
          for (std::size_t row = first; row < first + static_cast<std::size_t>(blocks.size[static_cast<std::size_t>(a)]); ++row)
            column[row] = (f_[row] - fy[row]) / step_[j];
        }
        perturbed_[j] = y[j];
      }
    }
  }
}

}  // namespace surfdb
