#include "surfdb/contact/shape_operator.hpp"

#include <Eigen/Dense>

namespace surfdb {

Eigen::Matrix3d shape_operator(const Eigen::Vector3d& p_u, const Eigen::Vector3d& p_v, const Eigen::Vector3d& n_u,
                               const Eigen::Vector3d& n_v, const Eigen::Vector3d& n) {
  // W T = N with T = [p_u p_v], N = [n_u n_v], W zero along n: W = N (T^T T)^-1 T^T.
  Eigen::Matrix<double, 3, 2> T, N;
  T << p_u, p_v;
  N << n_u, n_v;
  const Eigen::Matrix2d G = T.transpose() * T;  // first fundamental form
  const double det = G.determinant();
  if (!(det > 1e-12 * G.trace() * G.trace())) return Eigen::Matrix3d::Zero();
  const Eigen::Matrix3d W = N * G.inverse() * T.transpose();
  const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - n * n.transpose();
  return P * (0.5 * (W + W.transpose())) * P;
}

}  // namespace surfdb
