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
    for (int i = j + 1; i < m; ++i) {
      const int f = std::max(first_[static_cast<std::size_t>(i)], first_[static_cast<std::size_t>(j)]);
      if (first_[static_cast<std::size_t>(i)] <= j) entries_.push_back({i, i * m + j, i * m + f, j * m + f, j - f});
    }
    column_start_[static_cast<std::size_t>(j) + 1] = static_cast<int>(entries_.size());
  }
  l_ = RowMatrix::Zero(m, m);
  u_ = RowMatrix::Zero(m, m);
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

// Left-looking, by columns: d_j = S(j,j) - L(j,:) . U(j,:), then for each later row i whose envelope
// reaches column j, U(i,j) = S(i,j) - L(i,:) . U(j,:) and L(i,j) = U(i,j) / d_j. The dot products
// run over the columns both rows hold, which are contiguous in row-major storage and start at the
// later of the two rows' first columns. A column's entries are independent of one another, so the
// processor overlaps their dot products; the next column waits for d_j's reciprocal and L(j+1,j).
bool EnvelopeCholesky::factorise(const RowMatrix& s) {
  const int m = size();
  const double* s_data = s.data();
  double *l = l_.data(), *u = u_.data();
  for (int j = 0; j < m; ++j) {
    const int diagonal = j * m + j, fj = first_[static_cast<std::size_t>(j)];
    const double pivot = s_data[diagonal] - dot(l + (diagonal - j + fj), u + (diagonal - j + fj), j - fj);
    if (!(pivot > 0) || !std::isfinite(pivot)) return false;
    const double inverse = inverse_diagonal_[j] = 1 / pivot;
    const Entry* end = entries_.data() + column_start_[static_cast<std::size_t>(j) + 1];
    for (const Entry* e = entries_.data() + column_start_[static_cast<std::size_t>(j)]; e != end; ++e) {
      const double unscaled = u[e->index] = s_data[e->index] - dot(l + e->row_i_start, u + e->row_j_start, e->length);
      l[e->index] = unscaled * inverse;
    }
  }
  return true;
}

void EnvelopeCholesky::solve_in_place(Eigen::VectorXd& b) const {
  const int m = size();
  double* x = b.data();
  for (int i = 0; i < m; ++i) {  // L y = b, row by row
    const int fi = first_[static_cast<std::size_t>(i)];
    x[i] -= dot(l_.data() + static_cast<std::ptrdiff_t>(i) * m + fi, x + fi, i - fi);
  }
  // L^T x = D^-1 y from the last row up: x_i = y_i / d_i - sum over the rows k > i that column i
  // reaches of L(k,i) x_k. The sum runs from the farthest row in, so that x_(i+1), the value
  // computed last, enters last: each row waits for one product, one addition and one subtraction.
  for (int i = m - 1; i >= 0; --i) {
    const Entry* begin = entries_.data() + column_start_[static_cast<std::size_t>(i)];
    double sum = 0;
    for (const Entry* e = entries_.data() + column_start_[static_cast<std::size_t>(i) + 1]; e != begin;) {
      --e;
      sum += l_.data()[e->index] * x[e->row];
    }
    x[i] = x[i] * inverse_diagonal_[i] - sum;
  }
}

}  // namespace surfdb
