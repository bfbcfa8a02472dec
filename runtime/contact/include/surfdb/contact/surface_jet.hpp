// A surface's second-order expansion at a parameter point (u, v): the point p and the unit normal
// n with their first and second derivatives in (u, v), as the five-equation contact formulation
// (five_equations.hpp) needs them for the contact points' accelerations (paper 004, Eqs. 25-27).
//
// A lookup table interpolates first derivatives only (surface_point.hpp: dp_du, dp_dv, dn_du,
// dn_dv in the grid cell). The second derivatives come, as the paper says, from numerical
// differentiation: central differences of the table's first derivatives one grid cell (du, dv)
// either side,
//   p_uu = [p_u(u + du, v) - p_u(u - du, v)] / (2 du),   p_vv = [p_v(u, v + dv) - p_v(u, v - dv)] / (2 dv),
//   p_uv = ( [p_u(u, v + dv) - p_u(u, v - dv)] / (2 dv) + [p_v(u + du, v) - p_v(u - du, v)] / (2 du) ) / 2,
// the same for n: five queries in all. The table's first derivatives are those of a bilinear
// patch per cell (constant across the cell in their own direction), so each difference spans the
// cells either side of the point's and approximates the smooth surface's second derivative to
// first order in the cell size (its error shows within the cell as a sawtooth of amplitude about
// h |p_uuu| / 2; the mixed term is second order). Table-test figures (the paper's 999 x 999 ball,
// tests/contact/surface_jet_test.cpp): the identities p_uu . n = -p_u . n_u etc. of a sphere hold
// to about 1e-3 of |p_uu|.
//
// Near a non-periodic bound the three-point stencil moves inward so that it stays in the domain
// (one cell's shift: the same first-order accuracy); periodic directions wrap. The storage window
// follows (u, v) only: the stencil's queries hold it, so that a stencil across a periodic seam reads
// the record at the table's other end directly rather than moving the window there and back.
#pragma once

#include <Eigen/Core>

#include "surfdb/table/surface_binding.hpp"

namespace surfdb {

/// Point, unit normal and their derivatives at one (u, v). Units and axes: the caller's (a table's
/// file unit and surface axes from surface_jet(); metres and world axes after placed()).
struct SurfaceJet {
  double u = 0, v = 0;                      // where it was evaluated (wrapped into a periodic range)
  QueryStatus status = QueryStatus::valid;  // the centre query's: outside_domain beyond a bound
  Eigen::Vector3d p, p_u, p_v, p_uu, p_uv, p_vv;
  Eigen::Vector3d n, n_u, n_v, n_uu, n_uv, n_vv;
  /// The first derivatives of the smooth surface the table samples, by central differences of the
  /// point and the normal over the same stencil: unlike p_u ... n_v (the cell's, constant or
  /// linear across it and jumping at its edges) they carry no cell-periodic error, only O(h^2).
  Eigen::Vector3d p_u_mean, p_v_mean, n_u_mean, n_v_mean;
};

/// The table's jet at (u, v) (file unit, surface axes). Five queries through `binding`, the window
/// following (u, v). Never throws for numerical trouble: see the status.
SurfaceJet surface_jet(SurfaceBinding& binding, double u, double v);

/// The jet moved by x -> offset + rotation * (scale * x) (points scaled, normals rotated only).
SurfaceJet placed(const SurfaceJet& jet, const Eigen::Matrix3d& rotation, const Eigen::Vector3d& offset, double scale);

}  // namespace surfdb
