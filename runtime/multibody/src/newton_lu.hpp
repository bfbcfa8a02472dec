// The linear solver of CVODE BDF's Newton iteration, M x = b with M = I - gamma J, by Eigen's LU in
// place of SUNDIALS' own (unblocked) one. M is SUNDIALS' dense matrix, factorised by a partial-
// pivoting LU, or its compressed-column sparse matrix (integrator_sundials.cpp makes one for a system
// of many bodies whose Jacobian's block structure it knows), factorised by a sparse LU: a hundred
// free balls (1,300 states) then cost a few thousand operations a factorisation instead of
// 1300^3 / 3, and CVODE's own copies and updates of M go over its entries alone. The sparse
// factorisation allocates (Eigen's SparseLU, its pattern following the contacts in play, its
// ordering reused while the pattern stays); it runs when CVODE sets up its Newton iteration, not
// at every right-hand side.
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

namespace surfdb {

/// Makes the solver for n states and either kind of matrix. Throws std::runtime_error when
/// SUNDIALS cannot allocate it.
SUNLinearSolver make_newton_lu(SUNContext context, sunindextype n);

}  // namespace surfdb
