// Cholesky factorisation S = L L^T of a symmetric positive-definite matrix stored by its envelope:
// row i holds nonzeros only from column first[i] <= i on, and so does L (a factorisation never
// fills in before a row's first nonzero). The dynamics' Schur complement Phi_z M^-1 Phi_z^T has
// this shape: two equations couple only through a body they share, and a mechanism's joints come
// in order along its chains, so each row starts near its diagonal.
//
// Unblocked and allocation-free after construction: for the few tens of equations of a mechanism,
// short dot products along the envelope's rows cost a fraction of a blocked dense factorisation,
// whose bookkeeping dominates at this size.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace surfdb {

class EnvelopeCholesky {
 public:
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  EnvelopeCholesky() = default;  // of no equations
  /// first[i] (0 <= first[i] <= i): the first column row i of the matrices to factorise may hold.
  explicit EnvelopeCholesky(std::vector<int> first);

  int size() const { return static_cast<int>(first_.size()); }
  const std::vector<int>& first() const { return first_; }

  /// Factorises the lower triangle of s (size() x size(); entries of row i before first[i] are
  /// taken as zero and not read). False, with the factor unusable, if s is not positive definite
  /// (a non-positive or non-finite pivot).
  bool factorise(const RowMatrix& s);

  /// Solves S x = b for x, in place, with the factor of the last successful factorise().
  void solve_in_place(Eigen::VectorXd& b) const;

 private:
  std::vector<int> first_;
  // The rows below each column's diagonal that its envelope reaches (first[i] <= j < i), column by
  // column: column j's are column_rows_[column_start_[j] .. column_start_[j + 1]).
  std::vector<int> column_start_, column_rows_;
  RowMatrix l_;                       // lower triangle, the envelope only
  Eigen::VectorXd inverse_diagonal_;  // 1 / L(j,j)
};

}  // namespace surfdb
