#include "surfdb/table/interp_bilinear.hpp"

#include <Eigen/Geometry>
#include <cmath>

#include "interp_bilinear_inline.hpp"
#include "surfdb/formats/columns.hpp"

namespace surfdb {

using namespace interp_detail;

void make_bilinear_cell(BilinearCell& cell) {
  set_coefficients(cell, kX, kFlags);
  cell.base[kFlags] = cell.along_u[kFlags] = cell.along_v[kFlags] = cell.twist[kFlags] = 0;
  set_flags(cell);
}

namespace {

// The `curved` lift along the unit normal n with derivatives dn_du, dn_dv, added to p and its
// derivatives (see the header). Out of line, evaluating the point's and the raw normal's
// differences across the cell again: the bilinear mode then keeps fewer values live.
[[gnu::noinline]] void add_curved_lift(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                                       const Eigen::Vector3d& n, const Eigen::Vector3d& dn_du,
                                       const Eigen::Vector3d& dn_dv, Eigen::Vector3d& p, Eigen::Vector3d& dp_du,
                                       Eigen::Vector3d& dp_dv) {
  const Triple pt = evaluate(c, kX, a, b), nt = evaluate(c, kNx, a, b);
  // du^2 (n_u . p_u) / 2 from the differences across the cell: no division.
  const auto half_dot = [](const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
    return 0.5 * (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]);
  };
  const double su = half_dot(nt.across_u, pt.across_u), sv = half_dot(nt.across_v, pt.across_v);
  const double lift = a * (1 - a) * su + b * (1 - b) * sv;
  p += lift * n;
  dp_du += (1 - 2 * a) * inv_du * su * n + lift * dn_du;
  dp_dv += (1 - 2 * b) * inv_dv * sv * n + lift * dn_dv;
}

}  // namespace

void interpolate_bilinear(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfacePoint& out) {
  const Triple p = evaluate(c, kX, a, b), n = evaluate(c, kNx, a, b);
  frame_and_rest(c, a, b, inv_du, inv_dv, p, n, out);
  if (mode == Interpolation::curved)
    add_curved_lift(c, a, b, inv_du, inv_dv, out.n, out.dn_du, out.dn_dv, out.p, out.dp_du, out.dp_dv);
}

void interpolate_bilinear(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfaceD1& out) {
  if (mode == Interpolation::bilinear) {
    interp_detail::bilinear(c, a, b, inv_du, inv_dv, out);
    return;
  }
  const Triple p = evaluate(c, kX, a, b), n = evaluate(c, kNx, a, b);
  const double inv = point_and_normal(c, p, n, inv_du, inv_dv, out);
  // The normal's derivatives as the full answer has them.
  const Eigen::Vector3d dn_du = inv == 0 ? Eigen::Vector3d::Zero() : unit_derivative(out.n, n.across_u * inv_du, inv);
  const Eigen::Vector3d dn_dv = inv == 0 ? Eigen::Vector3d::Zero() : unit_derivative(out.n, n.across_v * inv_dv, inv);
  add_curved_lift(c, a, b, inv_du, inv_dv, out.n, dn_du, dn_dv, out.p, out.dp_du, out.dp_dv);
}

}  // namespace surfdb
