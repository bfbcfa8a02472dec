#include "surfdb/multibody/envelope_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace surfdb {

EnvelopeCholesky::EnvelopeCholesky(std::vector<int> first) : first_(std::move(first)) {
  const int m = size();
  last_.assign(static_cast<std::size_t>(m), 0);
  for (int i = 0; i < m; ++i) {
    const int fi = first_[static_cast<std::size_t>(i)];
    if (fi < 0 || fi > i)
      throw std::invalid_argument("EnvelopeCholesky: row " + std::to_string(i) + " starts at column " + std::to_string(fi) +
                                  ", outside 0.." + std::to_string(i));
    for (int j = fi; j <= i; ++j) last_[static_cast<std::size_t>(j)] = i;  // rows are visited in order
  }
  l_ = ColMatrix::Zero(m, m);
  inverse_diagonal_ = Eigen::VectorXd::Zero(m);
}

// Left-looking, by columns: column j of L is S's column j less the earlier columns k that row j
// holds, each scaled by L(j,k). The updates are independent multiply-adds along contiguous
// columns (no chain of dependent sums or divisions), and row j's envelope bounds which k take part.
bool EnvelopeCholesky::factorise(const RowMatrix& s) {
  const int m = size();
  for (int j = 0; j < m; ++j) {
    const int end = last_[static_cast<std::size_t>(j)] + 1;
    double* c = l_.data() + static_cast<std::ptrdiff_t>(j) * m;
    for (int i = j; i < end; ++i) c[i] = first_[static_cast<std::size_t>(i)] <= j ? s(i, j) : 0.0;
    for (int k = first_[static_cast<std::size_t>(j)]; k < j; ++k) {
      const double* lk = l_.data() + static_cast<std::ptrdiff_t>(k) * m;
      const double f = lk[j];
      const int stop = last_[static_cast<std::size_t>(k)] + 1;  // column k is zero below it
      for (int i = j; i < stop; ++i) c[i] -= f * lk[i];
    }
    const double pivot = c[j];
    if (!(pivot > 0) || !std::isfinite(pivot)) return false;
    c[j] = std::sqrt(pivot);
    const double inverse = 1 / c[j];
    inverse_diagonal_[j] = inverse;
    for (int i = j + 1; i < end; ++i) c[i] *= inverse;
  }
  return true;
}

void EnvelopeCholesky::solve_in_place(Eigen::VectorXd& b) const {
  const int m = size();
  double* x = b.data();
  for (int j = 0; j < m; ++j) {  // L y = b, column by column
    const double* lj = l_.data() + static_cast<std::ptrdiff_t>(j) * m;
    x[j] *= inverse_diagonal_[j];
    for (int i = j + 1, end = last_[static_cast<std::size_t>(j)] + 1; i < end; ++i) x[i] -= lj[i] * x[j];
  }
  for (int j = m - 1; j >= 0; --j) {  // L^T x = y, row j of L^T being column j of L
    const double* lj = l_.data() + static_cast<std::ptrdiff_t>(j) * m;
    double sum = x[j];
    for (int i = j + 1, end = last_[static_cast<std::size_t>(j)] + 1; i < end; ++i) sum -= lj[i] * x[i];
    x[j] = sum * inverse_diagonal_[j];
  }
}

}  // namespace surfdb
