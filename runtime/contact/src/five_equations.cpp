#include "surfdb/contact/five_equations.hpp"

#include <Eigen/Dense>

namespace surfdb {
namespace {

using Matrix32 = Eigen::Matrix<double, 3, 2>;

// Below this pivot, relative to the largest, the row-equilibrated 4 x 4 matrix counts as singular.
constexpr double kSingularPivot = 1e-9;

Matrix32 point_tangents(const SurfaceJet& s) { return (Matrix32() << s.p_u, s.p_v).finished(); }
Matrix32 normal_tangents(const SurfaceJet& s) { return (Matrix32() << s.n_u, s.n_v).finished(); }

// The quadratic form of the second derivatives along the rates: x_uu u'^2 + 2 x_uv u' v' + x_vv v'^2.
Eigen::Vector3d along(const Eigen::Vector3d& uu, const Eigen::Vector3d& uv, const Eigen::Vector3d& vv,
                      const Eigen::Vector2d& r) {
  return r[0] * r[0] * uu + 2 * r[0] * r[1] * uv + r[1] * r[1] * vv;
}

// One side's point and normal: rates and accelerations without the parameter accelerations' part.
struct SideMotion {
  Eigen::Vector3d point_rate, point_acc, normal_rate, normal_acc;
};

SideMotion side_motion(const SurfaceJet& s, const Eigen::Vector2d& rates, const BodyState& body,
                       const BodyAcceleration& acc) {
  const Eigen::Vector3d& w = body.angular_velocity;
  const Eigen::Vector3d rho = s.p - body.pose.r;
  const Eigen::Vector3d slide = point_tangents(s) * rates, turn = normal_tangents(s) * rates;
  SideMotion m;
  m.point_rate = body.point_velocity(s.p) + slide;
  m.point_acc = acc.linear + acc.angular.cross(rho) + w.cross(w.cross(rho)) + 2 * w.cross(slide) +
                along(s.p_uu, s.p_uv, s.p_vv, rates);
  m.normal_rate = w.cross(s.n) + turn;
  m.normal_acc =
      acc.angular.cross(s.n) + w.cross(w.cross(s.n)) + 2 * w.cross(turn) + along(s.n_uu, s.n_uv, s.n_vv, rates);
  return m;
}

// Solves E^T [T_i a_i - T_j a_j] = E^T x, E^T [N_i a_i + N_j a_j] = E^T y for a = (a_i, a_j), the
// matrix of the paper's Eqs. 23 and 28 in tangent coordinates.
Eigen::Vector4d solve_tangential(const ContactJets& jets, const Eigen::Vector3d& x, const Eigen::Vector3d& y,
                                 bool& singular) {
  const Matrix32 E = tangent_basis(jets.j.n);
  Eigen::Matrix4d M;
  M << E.transpose() * point_tangents(jets.i), -E.transpose() * point_tangents(jets.j),
      E.transpose() * normal_tangents(jets.i), E.transpose() * normal_tangents(jets.j);
  Eigen::Vector4d rhs;
  rhs << E.transpose() * x, E.transpose() * y;
  // Rows in metres and in radians per parameter: equilibrated before the rank decision.
  for (int r = 0; r < 4; ++r) {
    const double size = M.row(r).cwiseAbs().maxCoeff();
    if (size > 0) M.row(r) /= size, rhs[r] /= size;
  }
  Eigen::FullPivLU<Eigen::Matrix4d> lu(M);
  lu.setThreshold(kSingularPivot);
  singular = lu.rank() < 4;
  return singular ? Eigen::Vector4d::Zero() : Eigen::Vector4d(lu.solve(rhs));
}

}  // namespace

ContactSlides contact_slides(const ContactJets& jets) {
  ContactSlides s;
  s.slide_i = point_tangents(jets.i) * jets.rates.head<2>();
  s.slide_j = point_tangents(jets.j) * jets.rates.tail<2>();
  s.normal_slide = normal_tangents(jets.j) * jets.rates.tail<2>();
  return s;
}

TangentialEquations tangential_equations(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j) {
  const SideMotion mi = side_motion(jets.i, jets.rates.head<2>(), body_i, {});
  const SideMotion mj = side_motion(jets.j, jets.rates.tail<2>(), body_j, {});
  const Matrix32 E = tangent_basis(jets.j.n);
  TangentialEquations c;
  c.value << E.transpose() * (jets.i.p - jets.j.p), E.transpose() * (jets.i.n + jets.j.n);
  c.rate << E.transpose() * (mi.point_rate - mj.point_rate), E.transpose() * (mi.normal_rate + mj.normal_rate);
  return c;
}

Eigen::Vector4d parameter_accelerations(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j,
                                        const BodyAcceleration& acc_i, const BodyAcceleration& acc_j, double alpha,
                                        double beta, bool& singular) {
  const SideMotion mi = side_motion(jets.i, jets.rates.head<2>(), body_i, acc_i);
  const SideMotion mj = side_motion(jets.j, jets.rates.tail<2>(), body_j, acc_j);
  const double b2 = beta * beta;
  const Eigen::Vector3d q_ps =
      mi.point_acc - mj.point_acc + 2 * alpha * (mi.point_rate - mj.point_rate) + b2 * (jets.i.p - jets.j.p);
  const Eigen::Vector3d q_n =
      mi.normal_acc + mj.normal_acc + 2 * alpha * (mi.normal_rate + mj.normal_rate) + b2 * (jets.i.n + jets.j.n);
  return solve_tangential(jets, -q_ps, -q_n, singular);
}

Eigen::Vector4d parameter_rates(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j,
                                bool& singular) {
  // c' = E^T [T_i s_i' - T_j s_j' + w] and E^T [N_i s_i' + N_j s_j' + w_i x n_i + w_j x n_j].
  const Eigen::Vector3d w = body_i.point_velocity(jets.i.p) - body_j.point_velocity(jets.j.p);
  const Eigen::Vector3d turn = body_i.angular_velocity.cross(jets.i.n) + body_j.angular_velocity.cross(jets.j.n);
  return solve_tangential(jets, -w, -turn, singular);
}

}  // namespace surfdb
