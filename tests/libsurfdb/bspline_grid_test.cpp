// BSplineGrid, the converter's block evaluation of B-spline faces, against OpenCASCADE's own
// evaluation of every node (BRepAdaptor_Surface::D2 on the same face): rational and not, degrees
// 1 to 5, knots of every multiplicity with nodes on them, a face ending on a C0 knot, a located face.
#include <BRepAdaptor_Surface.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <TopLoc_Location.hxx>
#include <TopoDS.hxx>
#include <doctest/doctest.h>
#include <gp_Ax1.hxx>
#include <gp_Trsf.hxx>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../libsurfdb/src/bspline_grid.hpp"
#include "../../libsurfdb/src/occt_face_source.hpp"
#include "../support/occt_faces.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

// The largest difference of each derivative over the block, relative to that derivative's largest
// magnitude on it: S, S_u, S_v, S_uu, S_uv, S_vv.
struct Errors {
  double field[6] = {};
  double worst() const { return *std::max_element(std::begin(field), std::end(field)); }
};

std::vector<double> params(double lo, double hi, int steps, std::vector<double> extra = {}) {
  std::vector<double> t;
  for (int k = 0; k <= steps; ++k) t.push_back(k == steps ? hi : lo + (hi - lo) * k / steps);
  t.insert(t.end(), extra.begin(), extra.end());
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

Errors compare(const TopoDS_Face& face, const std::vector<double>& u, const std::vector<double>& v) {
  const BRepAdaptor_Surface exact(face, true);
  REQUIRE(exact.GetType() == GeomAbs_BSplineSurface);
  const auto grid = BSplineGrid::make(exact.Surface().BSpline(), exact.Trsf(), face_bounds(face, exact));
  REQUIRE(grid);
  std::vector<SurfaceD2> block(u.size() * v.size());
  BSplineGrid::Scratch scratch;
  grid->evaluate(u, v, block, scratch);
  double diff[6] = {}, scale[6] = {};
  for (std::size_t a = 0; a < u.size(); ++a) {
    for (std::size_t b = 0; b < v.size(); ++b) {
      gp_Pnt p;
      gp_Vec su, sv, suu, svv, suv;
      exact.D2(u[a], v[b], p, su, sv, suu, svv, suv);
      const SurfaceD2& d = block[a * v.size() + b];
      const Eigen::Vector3d want[6] = {{p.X(), p.Y(), p.Z()},       {su.X(), su.Y(), su.Z()},
                                       {sv.X(), sv.Y(), sv.Z()},    {suu.X(), suu.Y(), suu.Z()},
                                       {suv.X(), suv.Y(), suv.Z()}, {svv.X(), svv.Y(), svv.Z()}};
      const Eigen::Vector3d got[6] = {d.p, d.su, d.sv, d.suu, d.suv, d.svv};
      for (int f = 0; f < 6; ++f) {
        diff[f] = std::max(diff[f], (got[f] - want[f]).norm());
        scale[f] = std::max(scale[f], want[f].norm());
      }
    }
  }
  Errors e;
  for (int f = 0; f < 6; ++f) e.field[f] = diff[f] / std::max(scale[f], 1e-300);
  return e;
}

// Degree 2 in u and 5 in v, non-uniform knots with a double knot in u (C0 for degree 2 when
// doubled: multiplicity 2) and a triple one in v, poles on a wavy sheet, weights when rational.
Handle(Geom_BSplineSurface) mixed_degrees(bool rational) {
  const double uk[] = {0, 0.7, 1.0, 2.5, 3}, vk[] = {-1, -0.2, 0.4, 2};
  const int um[] = {3, 1, 2, 1, 3}, vm[] = {6, 1, 3, 6};
  TColStd_Array1OfReal uknots(1, 5), vknots(1, 4);
  TColStd_Array1OfInteger umults(1, 5), vmults(1, 4);
  for (int k = 1; k <= 5; ++k) { uknots(k) = uk[k - 1]; umults(k) = um[k - 1]; }
  for (int k = 1; k <= 4; ++k) { vknots(k) = vk[k - 1]; vmults(k) = vm[k - 1]; }
  const int nu = 3 + 1 + 2 + 1 + 3 - 3, nv = 6 + 1 + 3 + 6 - 6;  // sum of multiplicities - degree - 1
  TColgp_Array2OfPnt poles(1, nu, 1, nv);
  TColStd_Array2OfReal weights(1, nu, 1, nv);
  for (int i = 1; i <= nu; ++i) {
    for (int j = 1; j <= nv; ++j) {
      poles(i, j) = gp_Pnt(7.0 * i + std::cos(j), 5.0 * j, 3.0 * std::sin(1.7 * i) * std::cos(0.6 * j));
      weights(i, j) = 1.0 + 0.5 * std::sin(0.9 * i + 1.1 * j) * std::sin(0.9 * i + 1.1 * j);
    }
  }
  return rational ? new Geom_BSplineSurface(poles, weights, uknots, vknots, umults, vmults, 2, 5)
                  : new Geom_BSplineSurface(poles, uknots, vknots, umults, vmults, 2, 5);
}

}  // namespace

TEST_CASE("block evaluation of B-spline faces: every node as OpenCASCADE evaluates it") {
  for (bool rational : {false, true}) {
    CAPTURE(rational);
    // The bicubic patch: knots 0, 1, 2, 3 in u and 0, 0.5, 1 in v, nodes on each of them.
    const Errors patch = compare(natural_face(make_bspline(rational)), params(0, 3, 37, {1, 2}),
                                 params(0, 1, 23, {0.5}));
    // Degrees 2 x 5, knots of multiplicity 2 and 3 (where only C0 / C2 hold), nodes on them.
    const Errors mixed = compare(natural_face(mixed_degrees(rational)), params(0, 3, 41, {0.7, 1.0, 2.5}),
                                 params(-1, 2, 29, {-0.2, 0.4}));
    MESSAGE("patch " << patch.worst() << ", mixed degrees " << mixed.worst());
    // Measured at most 1.4e-14 relative, on a second derivative of the rational mixed surface
    // (rounding: the sums run in another order than OpenCASCADE's span polynomials). Bound 1e-13.
    // catches (tried): the basis derivatives without their factors p, p (p - 1) (0.9 relative);
    // the quotient rule's S_uv without its W_v S_u term (0.29). Also: u and v or a derivative's
    // order swapped, the lower span at an interior knot where OpenCASCADE takes the upper (the C0
    // knot of `mixed` at u = 1: its u derivatives jump there).
    for (double e : patch.field) CHECK(e < 1e-13);
    for (double e : mixed.field) CHECK(e < 1e-13);
  }
}

TEST_CASE("block evaluation: a face ending on a C0 knot takes the span inside it, as OpenCASCADE does") {
  const Handle(Geom_BSplineSurface) s = mixed_degrees(true);
  // u in [0.2, 1.0]: the face's upper u bound is the double knot, where S_u jumps. v ends on the
  // triple knot 0.4 (S_vv jumps there).
  const TopoDS_Face face = BRepBuilderAPI_MakeFace(s, 0.2, 1.0, -0.2, 0.4, Precision::Confusion()).Face();
  const Errors e = compare(face, params(0.2, 1.0, 16), params(-0.2, 0.4, 12));
  MESSAGE("face ending on C0 knots " << e.worst());
  // catches (tried): the span beyond the face's bound (the upper one at a knot) taken on its upper
  // edges, as inside the face (1.02 relative).
  for (double x : e.field) CHECK(x < 1e-13);
}

TEST_CASE("block evaluation: a located face is placed as the adaptor places it") {
  gp_Trsf turn;
  turn.SetRotation(gp_Ax1(gp_Pnt(1, 2, 3), gp_Dir(0.3, -0.5, 0.8)), 0.7);
  gp_Trsf shift;
  shift.SetTranslation(gp_Vec(-40, 15, 9));
  const TopoDS_Face face = TopoDS::Face(natural_face(make_bspline(true)).Moved(TopLoc_Location(shift * turn)));
  const Errors e = compare(face, params(0, 3, 19), params(0, 1, 11));
  MESSAGE("located face " << e.worst());
  // catches: the location ignored (points off by tens of mm), the translation applied to derivatives.
  for (double x : e.field) CHECK(x < 1e-13);
}

TEST_CASE("block evaluation is refused for periodic B-splines, which are evaluated node by node") {
  Handle(Geom_BSplineSurface) s = Handle(Geom_BSplineSurface)::DownCast(make_bspline(false)->Copy());
  s->SetUPeriodic();
  const BRepAdaptor_Surface adaptor(natural_face(s), true);
  CHECK_FALSE(BSplineGrid::make(s, adaptor.Trsf(), face_bounds(natural_face(s), adaptor)));
}
