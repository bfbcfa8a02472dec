#include "surfdb/multibody/envelope_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace surfdb {

EnvelopeCholesky::EnvelopeCholesky(std::vector<int> first) : first_(std::move(first)) {
  const int m = size();
  for (int i = 0; i < m; ++i) {
    const int fi = first_[static_cast<std::size_t>(i)];
    if (fi < 0 || fi > i)
      throw std::invalid_argument("EnvelopeCholesky: row " + std::to_string(i) + " starts at column " + std::to_string(fi) +
                                  ", outside 0.." + std::to_string(i));
  }
  column_start_.assign(static_cast<std::size_t>(m) + 1, 0);
  for (int j = 0; j < m; ++j) {
    for (int i = j + 1; i < m; ++i)
      if (first_[static_cast<std::size_t>(i)] <= j) column_rows_.push_back(i);
    column_start_[static_cast<std::size_t>(j) + 1] = static_cast<int>(column_rows_.size());
  }
  l_ = RowMatrix::Zero(m, m);
  inverse_diagonal_ = Eigen::VectorXd::Zero(m);
}

namespace {

// sum of a[k] b[k] for k in [0, n): the envelopes' rows are a few entries long.
double dot(const double* a, const double* b, int n) {
  double sum = 0;
  for (int k = 0; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

}  // namespace

// Left-looking, by columns: L(j,j) = sqrt(S(j,j) - L(j,:) . L(j,:)), then for each later row i whose
// envelope reaches column j, L(i,j) = (S(i,j) - L(i,:) . L(j,:)) / L(j,j). The dot products run over
// the columns both rows hold, which are contiguous in row-major storage and start at the later of
// the two rows' first columns. A column's entries are independent of one another, so the processor
// overlaps their dot products, where by rows each entry waits for the one before it.
// Each entry is the same expression either way: the factor is the same to the bit.
bool EnvelopeCholesky::factorise(const RowMatrix& s) {
  const int m = size();
  const int* first = first_.data();
  double* l = l_.data();
  for (int j = 0; j < m; ++j) {
    const int fj = first[j];
    double* lj = l + static_cast<std::ptrdiff_t>(j) * m;
    const double pivot = s(j, j) - dot(lj + fj, lj + fj, j - fj);
    if (!(pivot > 0) || !std::isfinite(pivot)) return false;
    lj[j] = std::sqrt(pivot);
    const double inverse = inverse_diagonal_[j] = 1 / lj[j];
    for (int k = column_start_[static_cast<std::size_t>(j)]; k < column_start_[static_cast<std::size_t>(j) + 1]; ++k) {
      const int i = column_rows_[static_cast<std::size_t>(k)];
      const int f = std::max(first[i], fj);
      double* li = l + static_cast<std::ptrdiff_t>(i) * m;
      li[j] = (s(i, j) - dot(li + f, lj + f, j - f)) * inverse;
    }
  }
  return true;
}

void EnvelopeCholesky::solve_in_place(Eigen::VectorXd& b) const {
  const int m = size();
  double* x = b.data();
  for (int i = 0; i < m; ++i) {  // L y = b, row by row
    const int fi = first_[static_cast<std::size_t>(i)];
    const double* li = l_.data() + static_cast<std::ptrdiff_t>(i) * m;
    x[i] = (x[i] - dot(li + fi, x + fi, i - fi)) * inverse_diagonal_[i];
  }
  for (int i = m - 1; i >= 0; --i) {  // L^T x = y: row i of L is column i of L^T
    const int fi = first_[static_cast<std::size_t>(i)];
    const double* li = l_.data() + static_cast<std::ptrdiff_t>(i) * m;
    x[i] *= inverse_diagonal_[i];
    for (int j = fi; j < i; ++j) x[j] -= li[j] * x[i];
  }
}

}  // namespace surfdb
