#include "surfdb/runtime/interp_bilinear.hpp"

#include <Eigen/Geometry>
#include <cmath>

namespace surfdb {

void interpolate_bilinear(const CellValues& c, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfacePoint& out) {
  const double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
  double v[kFlags], e_u[6], e_v[6], dv_du[6], dv_dv[6];
  for (int k = 0; k < kFlags; ++k) v[k] = w00 * c[0][k] + w10 * c[1][k] + w01 * c[2][k] + w11 * c[3][k];
  for (int k = 0; k < 6; ++k) {  // point and raw normal: differences across the cell, then per parameter
    e_u[k] = (1 - b) * (c[1][k] - c[0][k]) + b * (c[3][k] - c[2][k]);
    e_v[k] = (1 - a) * (c[2][k] - c[0][k]) + a * (c[3][k] - c[1][k]);
    dv_du[k] = e_u[k] * inv_du;
    dv_dv[k] = e_v[k] * inv_dv;
  }
  out.p = {v[kX], v[kY], v[kZ]};
  out.dp_du = {dv_du[0], dv_du[1], dv_du[2]};
  out.dp_dv = {dv_dv[0], dv_dv[1], dv_dv[2]};

  const Eigen::Vector3d n_raw(v[kNx], v[kNy], v[kNz]);
  const double n_len = n_raw.norm();
  if (!(n_len > 1e-12)) {  // opposite corner normals: cannot occur on a sampled smooth face
    out.n = {c[0][kNx], c[0][kNy], c[0][kNz]};
    out.t = {c[0][kTx], c[0][kTy], c[0][kTz]};
    out.b = out.n.cross(out.t);
    out.dn_du = out.dn_dv = Eigen::Vector3d::Zero();
  } else {
    const double inv = 1 / n_len;
    out.n = n_raw * inv;
    // d(n/|n|) = (I - n n^T) dn / |n|
    const Eigen::Vector3d dn_du(dv_du[3], dv_du[4], dv_du[5]), dn_dv(dv_dv[3], dv_dv[4], dv_dv[5]);
    out.dn_du = (dn_du - out.n * out.n.dot(dn_du)) * inv;
    out.dn_dv = (dn_dv - out.n * out.n.dot(dn_dv)) * inv;
    const Eigen::Vector3d t_raw(v[kTx], v[kTy], v[kTz]);
    const Eigen::Vector3d t_plane = t_raw - out.n * out.n.dot(t_raw);
    const double t_len = t_plane.norm();
    out.t = t_len > 1e-12 ? Eigen::Vector3d(t_plane * (1 / t_len)) : Eigen::Vector3d(c[0][kTx], c[0][kTy], c[0][kTz]);
    out.b = out.n.cross(out.t);
  }
  if (mode == Interpolation::curved) {
    // du^2 (n_u . p_u) / 2 from the differences across the cell: no division.
    const double su = 0.5 * (e_u[3] * e_u[0] + e_u[4] * e_u[1] + e_u[5] * e_u[2]);
    const double sv = 0.5 * (e_v[3] * e_v[0] + e_v[4] * e_v[1] + e_v[5] * e_v[2]);
    const double lift = a * (1 - a) * su + b * (1 - b) * sv;
    out.p += lift * out.n;
    out.dp_du += (1 - 2 * a) * inv_du * su * out.n + lift * out.dn_du;
    out.dp_dv += (1 - 2 * b) * inv_dv * sv * out.n + lift * out.dn_dv;
  }
  out.k1 = v[kK1];
  out.k2 = v[kK2];
}

}  // namespace surfdb
