// The second derivatives a table's jet gives (surface_jet.hpp: central differences of the
// interpolated first derivatives one cell apart) against the exact ones of the sphere it samples:
// the paper's ball, a 999 x 999 table of R = 10 mm, p = R (cos v cos u, cos v sin u, sin v) and
// n = p / R. The second fundamental form's identities of a sphere, p_uu . n = -|p_u|^2 / R,
// p_uv . n = -p_u . p_v / R, p_vv . n = -|p_v|^2 / R, are checked too, and the stencil at a bound.
#include <doctest/doctest.h>

#include <cmath>

#include "../support/ball_and_cup.hpp"
#include "surfdb/contact/surface_jet.hpp"

namespace surfdb {
namespace {

using Eigen::Vector3d;

struct Exact {
  Vector3d p, p_uu, p_uv, p_vv;
};

Exact sphere(double R, double u, double v) {
  const double cu = std::cos(u), su = std::sin(u), cv = std::cos(v), sv = std::sin(v);
  return {R * Vector3d(cv * cu, cv * su, sv), R * Vector3d(-cv * cu, -cv * su, 0), R * Vector3d(sv * su, -sv * cu, 0),
          R * Vector3d(-cv * cu, -cv * su, -sv)};
}

}  // namespace

TEST_CASE("surface jet: a sphere table's second derivatives against the sphere's") {
  SurfaceBinding ball(test::ball_and_cup().ball, {5, 5}, Residency::direct_mapping, Interpolation::curved);
  const double R = 10;  // mm, the table's unit
  const double du = ball.database().header().du;
  double worst_point = 0, worst_normal = 0, worst_identity = 0, worst_mixed = 0;
  // Points inside cells, on nodes and on cell edges, away from the poles (|v| < 1.2).
  for (double u : {-2.9, -1.0, 0.0, 0.3 + 0.5 * du, 1.7, 3.0})
    for (double v : {-1.2, -0.4, 0.0, 0.25, 0.9}) {
      const SurfaceJet jet = surface_jet(ball, u, v);
      REQUIRE(jet.status == QueryStatus::valid);
      const Exact e = sphere(R, jet.u, jet.v);
      const auto relative = [&](const Vector3d& got, const Vector3d& want) { return (got - want).norm() / R; };
      worst_point = std::max({worst_point, relative(jet.p_uu, e.p_uu), relative(jet.p_vv, e.p_vv)});
      worst_mixed = std::max(worst_mixed, relative(jet.p_uv, e.p_uv));
      // A convex sphere's normal is p / R: its second derivatives are the point's over R.
      worst_normal = std::max({worst_normal, (R * jet.n_uu - e.p_uu).norm() / R, (R * jet.n_uv - e.p_uv).norm() / R,
                               (R * jet.n_vv - e.p_vv).norm() / R});
      const double identities[3] = {jet.p_uu.dot(jet.n) + jet.p_u.squaredNorm() / R,
                                    jet.p_uv.dot(jet.n) + jet.p_u.dot(jet.p_v) / R,
                                    jet.p_vv.dot(jet.n) + jet.p_v.squaredNorm() / R};
      for (double d : identities) worst_identity = std::max(worst_identity, std::abs(d) / R);
    }
  MESSAGE("cell " << du << " rad: largest error relative to R of p_uu, p_vv " << worst_point << ", of p_uv "
                  << worst_mixed << ", of R n_uu, R n_uv, R n_vv " << worst_normal << "; of the identities "
                  << worst_identity);
  // First order in the cell: h / 2 for a third derivative of size R (h = du, 6.3e-3 rad), the
  // mixed term included (its differences across v of p_u, constant across a cell in u, and back).
  CHECK(worst_point < 0.5 * du);
  CHECK(worst_mixed < 0.5 * du);
  CHECK(worst_normal < 0.5 * du);
  CHECK(worst_identity < 0.5 * du);
}

TEST_CASE("surface jet: at a bound of the domain the stencil moves inward") {
  // The cup covers u in [-pi/2, pi/2]: at the bound the differences use the first three nodes' cells.
  SurfaceBinding cup(test::ball_and_cup().cup, {5, 5}, Residency::direct_mapping, Interpolation::curved);
  const Header& h = cup.database().header();
  const SurfaceJet edge = surface_jet(cup, h.u0, 0.3);
  const SurfaceJet inside = surface_jet(cup, h.u0 + h.du, 0.3);
  CHECK(edge.status == QueryStatus::valid);
  // The same stencil, so the same second derivatives in u; R = 50 mm, so p_uu is about 50 long.
  CHECK((edge.p_uu - inside.p_uu).norm() < 1e-12 * 50);
  CHECK((edge.n_uu - inside.n_uu).norm() < 1e-12);
}

}  // namespace surfdb
