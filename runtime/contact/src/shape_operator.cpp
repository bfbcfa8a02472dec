#include "surfdb/contact/shape_operator.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "surfdb/table/surface_binding.hpp"

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

namespace {

// Where (u, v) lies among the cells' centres along one direction: the lower cell and the weight of
// the upper one. Cell k (0 .. cells - 1) has its centre at lo + (k + 1/2) step; a periodic
// direction wraps (the query does), a bounded one keeps to its edge cells.
struct Between {
  double lower;  // the lower cell's index, as the query parameter's cell
  double weight;
};

Between between(double x, double lo, double step, std::uint64_t nodes, bool periodic) {
  const double f = (x - lo) / step - 0.5;
  double k = std::floor(f), w = f - k;
  const double last = static_cast<double>(nodes) - 2;  // the last cell
  if (!periodic) {
    if (k < 0) k = 0, w = 0;
    if (k >= last) k = std::max(0.0, last - 1), w = last > 0 ? 1 : 0;
  }
  return {k, w};
}

}  // namespace

Eigen::Matrix3d blended_shape_operator(SurfaceBinding& binding, double u, double v, const Eigen::Vector3d& n) {
  const Header& h = binding.database().header();
  const Between bu = between(u, h.u0, h.du, h.layout.u_points, h.periodic_u);
  const Between bv = between(v, h.v0, h.dv, h.layout.v_points, h.periodic_v);
  Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const double weight = (a ? bu.weight : 1 - bu.weight) * (b ? bv.weight : 1 - bv.weight);
      if (weight == 0) continue;
      const SurfacePoint c = binding.query(h.u0 + (bu.lower + a + 0.5) * h.du, h.v0 + (bv.lower + b + 0.5) * h.dv,
                                           WindowPolicy::hold);
      // Turned from the cell centre's tangent plane into n's by the least rotation taking c.n to n
      // (Rodrigues): on a sphere every cell's (I - n_c n_c^T) / R becomes (I - n n^T) / R exactly.
      const Eigen::Vector3d axis = c.n.cross(n);
      Eigen::Matrix3d K;
      K << 0, -axis.z(), axis.y(), axis.z(), 0, -axis.x(), -axis.y(), axis.x(), 0;
      const Eigen::Matrix3d R = Eigen::Matrix3d::Identity() + K + K * K / (1 + c.n.dot(n));
      W += weight * R * shape_operator(c.dp_du, c.dp_dv, c.dn_du, c.dn_dv, c.n) * R.transpose();
    }
  const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - n * n.transpose();
  return P * W * P;
}

}  // namespace surfdb
