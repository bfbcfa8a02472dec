// Square-root-free Cholesky factorisation S = L D L^T of a symmetric positive-definite matrix
// stored by its envelope: row i holds nonzeros only from column first[i] <= i on, and so does the
// unit lower triangular L (a factorisation never fills in before a row's first nonzero). The
// dynamics' Schur complement Phi_z M^-1 Phi_z^T has this shape: two equations couple only through
// a body they share, and a mechanism's joints come in order along its chains, so each row starts
// near its diagonal.
//
// Unblocked and allocation-free after construction: for the few tens of equations of a mechanism,
// short dot products along the envelope's rows cost a fraction of a blocked dense factorisation,
// whose bookkeeping dominates at this size. Each column waits for the one before it: for a
// division and the multiply-add through L(j+1,j), with no square root.
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
  /// (a non-positive or non-finite pivot d_j).
  bool factorise(const RowMatrix& s);

  /// Solves S x = b for x, in place, with the factor of the last successful factorise().
  void solve_in_place(Eigen::VectorXd& b) const;

 private:
  // One entry (i,j) below the diagonal within the envelope: its index in row-major storage and its
  // dot product's start in rows i and j, f the later of the two rows' first columns.
  struct Entry {
    int row;           // i
    int index;         // i * size() + j
    int row_i_start;   // i * size() + f
    int row_j_start;   // j * size() + f
    int length;        // j - f
  };
  std::vector<int> first_;
  // The entries below each column's diagonal that its envelope reaches (first[i] <= j < i), column
  // by column: column j's are entries_[column_start_[j] .. column_start_[j + 1]).
  std::vector<int> column_start_;
  std::vector<Entry> entries_;
  RowMatrix l_;                       // L below its unit diagonal, the envelope only
  RowMatrix u_;                       // U = L D, the same entries
  Eigen::VectorXd inverse_diagonal_;  // 1 / d_j
};

}  // namespace surfdb
