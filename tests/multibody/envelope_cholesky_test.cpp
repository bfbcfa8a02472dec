// EnvelopeCholesky (S = L D L^T) on matrices made from a Cholesky factor known in advance:
// S = L L^T built from a lower-triangular L with positive diagonal and a given envelope has the
// same envelope, so S x = b solved for x must give back the x that made b = L (L^T x). Also:
// entries outside the envelope never read, an indefinite matrix refused, also where its diagonal
// is positive.
#include "surfdb/multibody/envelope_cholesky.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace surfdb;
using RowMatrix = EnvelopeCholesky::RowMatrix;

namespace {

// A chain-like envelope of 9 rows: blocks of 3 that each couple with the block before.
const std::vector<int> kFirst = {0, 0, 0, 0, 1, 1, 4, 3, 6};

RowMatrix known_factor() {
  const int m = static_cast<int>(kFirst.size());
  RowMatrix l = RowMatrix::Zero(m, m);
  for (int i = 0; i < m; ++i) {
    for (int j = kFirst[static_cast<std::size_t>(i)]; j < i; ++j) l(i, j) = std::sin(1.0 + 3 * i + 7 * j);
    l(i, i) = 1.5 + 0.25 * i;
  }
  return l;
}

}  // namespace

TEST_CASE("EnvelopeCholesky solves S x = b for S made from a known envelope factor") {
  const RowMatrix l = known_factor();
  RowMatrix s = l * l.transpose();
  const int m = static_cast<int>(s.rows());
  // The envelope is what the factor assumes: outside it the product is zero ...
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < kFirst[static_cast<std::size_t>(i)]; ++j) REQUIRE(s(i, j) == 0.0);
  // ... and what it reads: poison there and in the upper triangle changes nothing.
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < kFirst[static_cast<std::size_t>(i)]; ++j) s(i, j) = std::numeric_limits<double>::quiet_NaN();
    for (int j = i + 1; j < m; ++j) s(i, j) = 1e30;
  }
  EnvelopeCholesky chol(kFirst);
  REQUIRE(chol.factorise(s));

  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(m, -2.0, 3.0);
  Eigen::VectorXd b = l * (l.transpose() * x);
  chol.solve_in_place(b);
  CHECK((b - x).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("EnvelopeCholesky refuses a matrix that is not positive definite") {
  const RowMatrix l = known_factor();
  RowMatrix s = l * l.transpose();
  s(5, 5) = -1.0;  // a negative pivot at row 5 whatever came before
  EnvelopeCholesky chol(kFirst);
  CHECK_FALSE(chol.factorise(s));
  s(5, 5) = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(chol.factorise(s));
  // A positive diagonal, but half of what the rows before need: pivot 5 is -0.5 L(5,:5) . L(5,:5).
  s(5, 5) = 0.5 * l.row(5).head(5).squaredNorm();
  REQUIRE(s(5, 5) > 0);
  CHECK_FALSE(chol.factorise(s));
}

TEST_CASE("EnvelopeCholesky refuses an envelope beyond the diagonal") {
  CHECK_THROWS_AS(EnvelopeCholesky({0, 2}), std::invalid_argument);
  CHECK_THROWS_AS(EnvelopeCholesky({-1}), std::invalid_argument);
}
