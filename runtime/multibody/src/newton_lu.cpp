#include "newton_lu.hpp"

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace surfdb {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>;

struct NewtonLu {
  Eigen::PartialPivLU<Eigen::MatrixXd> dense;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<sunindextype>> sparse;
  std::vector<sunindextype> analysed;  // the pattern sparse was analysed for: starts, then rows
  bool use_sparse = false;

  // Whether M's pattern is the one analysed last (then the ordering and the symbolic
  // factorisation are reused); if not, it becomes it.
  bool same_pattern(sunindextype n, const sunindextype* starts, const sunindextype* rows) {
    const std::size_t length = static_cast<std::size_t>(n + 1 + starts[n]);
    if (analysed.size() == length && std::equal(starts, starts + n + 1, analysed.begin()) &&
        std::equal(rows, rows + starts[n], analysed.begin() + n + 1))
      return true;
    analysed.assign(starts, starts + n + 1);
    analysed.insert(analysed.end(), rows, rows + starts[n]);
    return false;
  }

  static NewtonLu& of(SUNLinearSolver s) { return *static_cast<NewtonLu*>(s->content); }
  static SUNLinearSolver_Type type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }

  // A singular M is a recoverable failure (1): CVODE retries with a fresh Jacobian or a smaller step.
  static int setup(SUNLinearSolver s, SUNMatrix A) {
    NewtonLu& d = of(s);
    d.use_sparse = SUNMatGetID(A) == SUNMATRIX_SPARSE;
    if (!d.use_sparse) {
      const sunindextype n = SUNDenseMatrix_Rows(A);
      d.dense.compute(Eigen::Map<const Eigen::MatrixXd>(SUNDenseMatrix_Data(A), n, n));
      return 0;
    }
    const sunindextype n = SUNSparseMatrix_Columns(A);
    const sunindextype* starts = SUNSparseMatrix_IndexPointers(A);
    const Eigen::Map<const SparseMatrix> m(n, n, starts[n], starts, SUNSparseMatrix_IndexValues(A),
                                           SUNSparseMatrix_Data(A));
    if (!d.same_pattern(n, starts, SUNSparseMatrix_IndexValues(A))) d.sparse.analyzePattern(m);  // pairs came or went
    d.sparse.factorize(m);
    return d.sparse.info() == Eigen::Success ? 0 : 1;
  }

  static int solve(SUNLinearSolver s, SUNMatrix, N_Vector x, N_Vector b, sunrealtype) {
    NewtonLu& d = of(s);
    const sunindextype n = N_VGetLength(b);
    const Eigen::Map<const Eigen::VectorXd> rhs(N_VGetArrayPointer(b), n);
    Eigen::Map<Eigen::VectorXd> solution(N_VGetArrayPointer(x), n);
    if (d.use_sparse)
      solution = d.sparse.solve(rhs);
    else
      solution = d.dense.solve(rhs);
    return 0;
  }

  static int destroy(SUNLinearSolver s) {
    delete &of(s);
    SUNLinSolFreeEmpty(s);
    return 0;
  }
};

}  // namespace

SUNLinearSolver make_newton_lu(SUNContext context, sunindextype n) {
  SUNLinearSolver s = SUNLinSolNewEmpty(context);
  if (!s) throw std::runtime_error("CVODE: cannot allocate the linear solver");
  auto* content = new NewtonLu;
  content->dense = Eigen::PartialPivLU<Eigen::MatrixXd>(n);  // sized once: no allocation per dense factorisation
  s->content = content;
  s->ops->gettype = &NewtonLu::type;
  s->ops->setup = &NewtonLu::setup;
  s->ops->solve = &NewtonLu::solve;
  s->ops->free = &NewtonLu::destroy;
  return s;
}

}  // namespace surfdb
