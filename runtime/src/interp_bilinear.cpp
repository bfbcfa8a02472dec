#include "surfdb/runtime/interp_bilinear.hpp"

#include <Eigen/Geometry>

namespace surfdb {

void interpolate_bilinear(const Cell& c, double a, double b, double du, double dv, SurfacePoint& out) {
  const double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
  out.p = w00 * c.c00.p + w10 * c.c10.p + w01 * c.c01.p + w11 * c.c11.p;
  out.dp_du = ((1 - b) * (c.c10.p - c.c00.p) + b * (c.c11.p - c.c01.p)) / du;
  out.dp_dv = ((1 - a) * (c.c01.p - c.c00.p) + a * (c.c11.p - c.c10.p)) / dv;

  const Eigen::Vector3d n_raw = w00 * c.c00.n + w10 * c.c10.n + w01 * c.c01.n + w11 * c.c11.n;
  double n_len = n_raw.norm();
  if (!(n_len > 1e-12)) n_len = 1;  // opposite corner normals cannot occur on a sampled smooth face
  out.n = n_len == 1 && n_raw.norm() <= 1e-12 ? c.c00.n : Eigen::Vector3d(n_raw / n_len);
  // d(n/|n|) = (I - n n^T) dn / |n|
  const Eigen::Vector3d dn_du = ((1 - b) * (c.c10.n - c.c00.n) + b * (c.c11.n - c.c01.n)) / du;
  const Eigen::Vector3d dn_dv = ((1 - a) * (c.c01.n - c.c00.n) + a * (c.c11.n - c.c10.n)) / dv;
  out.dn_du = (dn_du - out.n * out.n.dot(dn_du)) / n_len;
  out.dn_dv = (dn_dv - out.n * out.n.dot(dn_dv)) / n_len;

  const Eigen::Vector3d t_raw = w00 * c.c00.t + w10 * c.c10.t + w01 * c.c01.t + w11 * c.c11.t;
  const Eigen::Vector3d t_plane = t_raw - out.n * out.n.dot(t_raw);
  out.t = t_plane.norm() > 1e-12 ? Eigen::Vector3d(t_plane.normalized()) : c.c00.t;
  out.b = out.n.cross(out.t);
  out.k1 = w00 * c.c00.k1 + w10 * c.c10.k1 + w01 * c.c01.k1 + w11 * c.c11.k1;
  out.k2 = w00 * c.c00.k2 + w10 * c.c10.k2 + w01 * c.c01.k2 + w11 * c.c11.k2;
}

}  // namespace surfdb
