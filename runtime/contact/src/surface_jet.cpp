#include "surfdb/contact/surface_jet.hpp"

#include <algorithm>

namespace surfdb {
namespace {

// The centre of a three-point stencil of half-width h at x in [lo, hi]: x itself, or moved inward
// so that x +- h stay in the domain (periodic: never moved, the stencil wraps).
double stencil_centre(double x, double h, double lo, double hi, bool periodic) {
  if (periodic || hi - lo < 2 * h) return x;
  return std::clamp(x, lo + h, hi - h);
}

}  // namespace

SurfaceJet surface_jet(SurfaceBinding& binding, double u, double v) {
  const Header& h = binding.database().header();
  const SurfacePoint c = binding.query(u, v);
  SurfaceJet jet;
  jet.u = c.u, jet.v = c.v, jet.status = c.status;
  jet.p = c.p, jet.p_u = c.dp_du, jet.p_v = c.dp_dv;
  jet.n = c.n, jet.n_u = c.dn_du, jet.n_v = c.dn_dv;
  const double cu = stencil_centre(c.u, h.du, h.u0, h.u1, h.periodic_u);
  const double cv = stencil_centre(c.v, h.dv, h.v0, h.v1, h.periodic_v);
  // The window follows the point, not its stencil: across a periodic seam the stencil reads the
  // record at the other end of the table directly, instead of moving the window there and back.
  // Each query's answer is a copy: the binding keeps only the last.
  constexpr WindowPolicy hold = WindowPolicy::hold;
  const SurfacePoint u_plus = binding.query(cu + h.du, c.v, hold), u_minus = binding.query(cu - h.du, c.v, hold);
  const SurfacePoint v_plus = binding.query(c.u, cv + h.dv, hold), v_minus = binding.query(c.u, cv - h.dv, hold);
  const double su = 1 / (2 * h.du), sv = 1 / (2 * h.dv);
  jet.p_uu = su * (u_plus.dp_du - u_minus.dp_du);
  jet.p_vv = sv * (v_plus.dp_dv - v_minus.dp_dv);
  jet.p_uv = 0.5 * (sv * (v_plus.dp_du - v_minus.dp_du) + su * (u_plus.dp_dv - u_minus.dp_dv));
  jet.n_uu = su * (u_plus.dn_du - u_minus.dn_du);
  jet.n_vv = sv * (v_plus.dn_dv - v_minus.dn_dv);
  jet.n_uv = 0.5 * (sv * (v_plus.dn_du - v_minus.dn_du) + su * (u_plus.dn_dv - u_minus.dn_dv));
  jet.p_u_mean = su * (u_plus.p - u_minus.p), jet.p_v_mean = sv * (v_plus.p - v_minus.p);
  jet.n_u_mean = su * (u_plus.n - u_minus.n), jet.n_v_mean = sv * (v_plus.n - v_minus.n);
  return jet;
}

SurfaceJet placed(const SurfaceJet& jet, const Eigen::Matrix3d& R, const Eigen::Vector3d& offset, double scale) {
  SurfaceJet out = jet;
  const Eigen::Matrix3d S = scale * R;
  out.p = offset + S * jet.p;
  out.p_u = S * jet.p_u, out.p_v = S * jet.p_v;
  out.p_uu = S * jet.p_uu, out.p_uv = S * jet.p_uv, out.p_vv = S * jet.p_vv;
  out.n = R * jet.n;
  out.n_u = R * jet.n_u, out.n_v = R * jet.n_v;
  out.n_uu = R * jet.n_uu, out.n_uv = R * jet.n_uv, out.n_vv = R * jet.n_vv;
  out.p_u_mean = S * jet.p_u_mean, out.p_v_mean = S * jet.p_v_mean;
  out.n_u_mean = R * jet.n_u_mean, out.n_v_mean = R * jet.n_v_mean;
  return out;
}

}  // namespace surfdb
