#include "surfdb/runtime/interp_bilinear.hpp"

#include <Eigen/Geometry>
#include <cmath>

#include "surfdb/formats/columns.hpp"

namespace surfdb {
namespace {

// 1/sqrt(s) for s = |x|^2 of an interpolated unit vector, which lies within about (h/R)^2 of 1 (h
// the cell's size, R the radius of curvature). There the series of (1 + e)^(-1/2) to e^4 is exact
// to rounding (the next term, 63/256 e^5, is below 3e-21 for |e| < 1e-4) and takes a fraction
// of the latency of a square root and a division, which otherwise dominate a query.
double inverse_norm_near_one(double s) {
  const double e = s - 1;
  if (std::abs(e) < 1e-4) [[likely]]
    return 1 + e * (-0.5 + e * (0.375 + e * (-0.3125 + e * 0.2734375)));
  return 1 / std::sqrt(s);
}

}  // namespace

void make_bilinear_cell(BilinearCell& cell) {
  const CellValues& c = cell.corners;
  for (int k = 0; k < kCornerValues; ++k) {
    cell.base[k] = c[0][k];
    cell.along_u[k] = c[1][k] - c[0][k];
    cell.along_v[k] = c[2][k] - c[0][k];
    cell.twist[k] = (c[3][k] - c[2][k]) - (c[1][k] - c[0][k]);
  }
  cell.base[kFlags] = cell.along_u[kFlags] = cell.along_v[kFlags] = cell.twist[kFlags] = 0;
  cell.flags_all = ~0u;
  cell.flags_any = 0;
  for (const auto& corner : c) {
    const auto flags = static_cast<std::uint32_t>(corner[kFlags]);
    cell.flags_all &= flags;
    cell.flags_any |= flags;
  }
}

void interpolate_bilinear(const BilinearCell& c, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfacePoint& out) {
  // Differences across the cell at (a, b): e_u = f(1, b) - f(0, b), e_v = f(a, 1) - f(a, 0).
  alignas(64) double v[kCornerValues], e_u[kCornerValues], e_v[kCornerValues];
  for (int k = 0; k < kCornerValues; ++k) {
    e_u[k] = c.along_u[k] + b * c.twist[k];
    e_v[k] = c.along_v[k] + a * c.twist[k];
    v[k] = c.base[k] + a * c.along_u[k] + b * e_v[k];
  }
  if (a == 1 || b == 1) [[unlikely]] {  // the last cell's upper edge: its nodes exactly as stored
    const double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
    const CellValues& n = c.corners;
    for (int k = 0; k < kCornerValues; ++k) v[k] = w00 * n[0][k] + w10 * n[1][k] + w01 * n[2][k] + w11 * n[3][k];
  }
  out.p = {v[kX], v[kY], v[kZ]};
  out.dp_du = Eigen::Vector3d(e_u[kX], e_u[kY], e_u[kZ]) * inv_du;
  out.dp_dv = Eigen::Vector3d(e_v[kX], e_v[kY], e_v[kZ]) * inv_dv;

  const Eigen::Vector3d n_raw(v[kNx], v[kNy], v[kNz]);
  const double n_squared = n_raw.squaredNorm();
  if (!(n_squared > 1e-24)) [[unlikely]] {  // opposite corner normals: cannot occur on a sampled smooth face
    out.n = {c.base[kNx], c.base[kNy], c.base[kNz]};
    out.t = {c.base[kTx], c.base[kTy], c.base[kTz]};
    out.b = out.n.cross(out.t);
    out.dn_du = out.dn_dv = Eigen::Vector3d::Zero();
  } else {
    const double inv = inverse_norm_near_one(n_squared);
    out.n = n_raw * inv;
    // d(n/|n|) = (I - n n^T) dn / |n|
    const Eigen::Vector3d dn_du = Eigen::Vector3d(e_u[kNx], e_u[kNy], e_u[kNz]) * inv_du;
    const Eigen::Vector3d dn_dv = Eigen::Vector3d(e_v[kNx], e_v[kNy], e_v[kNz]) * inv_dv;
    out.dn_du = (dn_du - out.n * out.n.dot(dn_du)) * inv;
    out.dn_dv = (dn_dv - out.n * out.n.dot(dn_dv)) * inv;
    const Eigen::Vector3d t_raw(v[kTx], v[kTy], v[kTz]);
    const Eigen::Vector3d t_plane = t_raw - out.n * out.n.dot(t_raw);
    const double t_squared = t_plane.squaredNorm();
    out.t = t_squared > 1e-24 ? Eigen::Vector3d(t_plane * inverse_norm_near_one(t_squared))
                              : Eigen::Vector3d(c.base[kTx], c.base[kTy], c.base[kTz]);
    out.b = out.n.cross(out.t);
  }
  if (mode == Interpolation::curved) {
    // du^2 (n_u . p_u) / 2 from the differences across the cell: no division.
    const double su = 0.5 * (e_u[kNx] * e_u[kX] + e_u[kNy] * e_u[kY] + e_u[kNz] * e_u[kZ]);
    const double sv = 0.5 * (e_v[kNx] * e_v[kX] + e_v[kNy] * e_v[kY] + e_v[kNz] * e_v[kZ]);
    const double lift = a * (1 - a) * su + b * (1 - b) * sv;
    out.p += lift * out.n;
    out.dp_du += (1 - 2 * a) * inv_du * su * out.n + lift * out.dn_du;
    out.dp_dv += (1 - 2 * b) * inv_dv * sv * out.n + lift * out.dn_dv;
  }
  out.k1 = v[kK1];
  out.k2 = v[kK2];
  out.degenerate = c.flags_any & point_flags::degenerate;
}

}  // namespace surfdb
