// The bilinear interpolation's arithmetic (interp_bilinear.hpp), inline so that a query can
// evaluate its cell without a call: interp_bilinear.cpp and surface_binding.cpp both use these, so
// an answer is computed by the same operations in the same order, bit for bit, on either path.
// Private to the runtime's sources.
#pragma once

#include <Eigen/Geometry>
#include <cmath>

#include "surfdb/formats/columns.hpp"
#include "surfdb/table/interp_bilinear.hpp"

namespace surfdb::interp_detail {

// 1/sqrt(s) for s = |x|^2 of an interpolated unit vector, which lies within about (h/R)^2 of 1 (h
// the cell's size, R the radius of curvature). There the series of (1 + e)^(-1/2) to e^4 is exact
// to rounding (the next term, 63/256 e^5, is below 3e-21 for |e| < 1e-4) and takes a fraction
// of the latency of a square root and a division, which otherwise dominate a query.
inline double inverse_norm_near_one(double s) {
  const double e = s - 1;
  if (std::abs(e) < 1e-4) [[likely]]
    return 1 + e * (-0.5 + e * (0.375 + e * (-0.3125 + e * 0.2734375)));
  return 1 / std::sqrt(s);
}

// make_bilinear_cell's coefficients of values [first, last) of the cell's corners alone: a
// binding whose query needs no frame makes those of the point and the normal.
[[gnu::always_inline]] inline void set_coefficients(BilinearCell& cell, int first, int last) {
  const CellValues& c = cell.corners;
  for (int k = first; k < last; ++k) {
    cell.base[k] = c[0][k];
    cell.along_u[k] = c[1][k] - c[0][k];
    cell.along_v[k] = c[2][k] - c[0][k];
    cell.twist[k] = (c[3][k] - c[2][k]) - (c[1][k] - c[0][k]);
  }
}

// make_bilinear_cell's flags_all and flags_any, from the corners' flags.
[[gnu::always_inline]] inline void set_flags(BilinearCell& cell) {
  cell.flags_all = ~0u;
  cell.flags_any = 0;
  for (const auto& corner : cell.corners) {
    const auto flags = static_cast<std::uint32_t>(corner[kFlags]);
    cell.flags_all &= flags;
    cell.flags_any |= flags;
  }
}

// One triple of values (point, normal or tangent) at (a, b), and its differences across the cell
// there: across_u = f(1, b) - f(0, b), across_v = f(a, 1) - f(a, 0). Kept in registers: a
// round trip through an array on the stack stalls on store forwarding.
struct Triple {
  Eigen::Vector3d value, across_u, across_v;
};

[[gnu::always_inline]] inline Triple evaluate(const BilinearCell& c, int first, double a, double b) {
  using Coefficients = Eigen::Map<const Eigen::Vector3d>;
  const Coefficients base(c.base + first), along_u(c.along_u + first), along_v(c.along_v + first),
      twist(c.twist + first);
  Triple t;
  t.across_u = along_u + b * twist;
  t.across_v = along_v + a * twist;
  t.value = base + a * along_u + b * t.across_v;
  if ((a == 1) | (b == 1)) [[unlikely]] {  // the last cell's upper edge: its nodes exactly as stored
    const double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
    const auto corner = [&](int k) { return Coefficients(c.corners[k] + first); };
    t.value = w00 * corner(0) + w10 * corner(1) + w01 * corner(2) + w11 * corner(3);
  }
  return t;
}

inline double evaluate_scalar(const BilinearCell& c, int k, double a, double b) {
  if (a == 1 || b == 1) [[unlikely]] {
    const CellValues& n = c.corners;
    return (1 - a) * (1 - b) * n[0][k] + a * (1 - b) * n[1][k] + (1 - a) * b * n[2][k] + a * b * n[3][k];
  }
  return c.base[k] + a * c.along_u[k] + b * (c.along_v[k] + a * c.twist[k]);
}

// d(n/|n|) = (I - n n^T) dn / |n|, for the unit normal n and the derivative dn of the raw one.
[[gnu::always_inline]] inline Eigen::Vector3d unit_derivative(const Eigen::Vector3d& n, const Eigen::Vector3d& dn, double inv_norm) {
  return (dn - n * n.dot(dn)) * inv_norm;
}

// p, dp_du, dp_dv and n, the fields both answers have. Returns 1/|n| of the interpolated raw
// normal, or 0 when it vanishes (opposite corner normals, which cannot occur on a sampled smooth
// face); n is then the first corner's.
template <class Answer>
[[gnu::always_inline]] inline double point_and_normal(const BilinearCell& c, const Triple& p, const Triple& n,
                                                      double inv_du, double inv_dv, Answer& out) {
  out.p = p.value;
  out.dp_du = p.across_u * inv_du;
  out.dp_dv = p.across_v * inv_dv;
  const double n_squared = n.value.squaredNorm();
  if (!(n_squared > 1e-24)) [[unlikely]] {
    out.n = {c.base[kNx], c.base[kNy], c.base[kNz]};
    return 0;
  }
  const double inv = inverse_norm_near_one(n_squared);
  out.n = n.value * inv;
  return inv;
}

// The full answer of the bilinear mode, from the point's and the raw normal's triples (the
// `curved` mode adds its lift to p and its derivatives afterwards, which nothing here reads).
[[gnu::always_inline]] inline void frame_and_rest(const BilinearCell& c, double a, double b, double inv_du,
                                                  double inv_dv, const Triple& p, const Triple& n, SurfacePoint& out) {
  const double inv = point_and_normal(c, p, n, inv_du, inv_dv, out);
  if (inv == 0) [[unlikely]] {
    out.t = {c.base[kTx], c.base[kTy], c.base[kTz]};
    out.b = out.n.cross(out.t);
    out.dn_du = out.dn_dv = Eigen::Vector3d::Zero();
  } else {
    out.dn_du = unit_derivative(out.n, n.across_u * inv_du, inv);
    out.dn_dv = unit_derivative(out.n, n.across_v * inv_dv, inv);
    const Eigen::Vector3d t_raw = evaluate(c, kTx, a, b).value;
    const Eigen::Vector3d t_plane = t_raw - out.n * out.n.dot(t_raw);
    const double t_squared = t_plane.squaredNorm();
    out.t = t_squared > 1e-24 ? Eigen::Vector3d(t_plane * inverse_norm_near_one(t_squared))
                              : Eigen::Vector3d(c.base[kTx], c.base[kTy], c.base[kTz]);
    out.b = out.n.cross(out.t);
  }
  out.k1 = evaluate_scalar(c, kK1, a, b);
  out.k2 = evaluate_scalar(c, kK2, a, b);
  out.degenerate = c.flags_any & point_flags::degenerate;
}

/// interpolate_bilinear(..., Interpolation::bilinear, SurfacePoint&), inline.
[[gnu::always_inline]] inline void bilinear(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                                            SurfacePoint& out) {
  const Triple p = evaluate(c, kX, a, b), n = evaluate(c, kNx, a, b);
  frame_and_rest(c, a, b, inv_du, inv_dv, p, n, out);
}

/// interpolate_bilinear(..., Interpolation::bilinear, SurfaceD1&), inline: the normal's
/// differences across the cell, which only the `curved` mode reads here, are not formed.
[[gnu::always_inline]] inline void bilinear(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                                            SurfaceD1& out) {
  const Triple p = evaluate(c, kX, a, b), n = evaluate(c, kNx, a, b);
  point_and_normal(c, p, n, inv_du, inv_dv, out);
}

}  // namespace surfdb::interp_detail
