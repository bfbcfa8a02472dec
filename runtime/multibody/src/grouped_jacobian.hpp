// A Jacobian by finite differences that perturbs many columns at once (Curtis, Powell and Reid
// 1974): blocks of columns whose rows do not overlap (OdeSystem::jacobian_blocks) share one
// evaluation of f, so a scene of N balls touching one race costs two blocks' columns, not N + 1.
#pragma once

#include <cstdint>
#include <vector>

#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

class GroupedJacobian {
 public:
  /// Fills the dense column-major n x n matrix J (leading dimension n) with df/dy at (t, y), where
  /// fy = f(t, y) and weights are the integrator's error weights (1 / (rtol |y| + atol)): the
  /// increment of component j is max(sqrt(eps) |y_j|, min_increment / weight_j), as CVODE's own
  /// difference quotients (which take min_increment = 1000 |h| eps n ||fy||, h the step, ||.|| the
  /// weighted RMS norm). Entries no block's rows and columns cover are 0. Allocates only when the
  /// size or the structure grows.
  void evaluate(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y, const double* fy,
                const double* weights, double min_increment, double* J);

  /// The same into the compressed columns of the n x n J over the structure: column j holds the
  /// rows of the blocks its block affects, in ascending order, or, if j is in no block, its
  /// diagonal alone (0), so that CVODE finds every diagonal entry when it forms I - gamma J.
  /// starts holds n + 1 offsets into rows and values; entries() bounds their length, pattern()
  /// writes starts and rows.
  static std::int64_t entries(const JacobianBlocks& blocks, int n);
  static void pattern(const JacobianBlocks& blocks, int n, std::int64_t* starts, std::int64_t* rows);
  void evaluate(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y, const double* fy,
                const double* weights, double min_increment, const std::int64_t* starts, double* values);

  /// Evaluations of f the last evaluate() made, and the colours (groups of blocks) it used.
  int evaluations() const { return evaluations_; }
  std::size_t colours() const { return colours_; }

 private:
  void colour(const JacobianBlocks& blocks);
  // Calls store(j, k, value) for the k-th entry of column j over the structure, column by column.
  template <class Store>
  void differences(OdeSystem& system, const JacobianBlocks& blocks, double t, const double* y, const double* fy,
                   const double* weights, double min_increment, Store store);

  std::size_t colours_ = 0;
  std::vector<std::vector<int>> members_;   // per colour: its blocks
  std::vector<std::vector<char>> reached_;  // per colour, per block: whether the colour's columns reach its rows
  std::vector<double> perturbed_, f_, step_;
  int evaluations_ = 0;
};

}  // namespace surfdb
