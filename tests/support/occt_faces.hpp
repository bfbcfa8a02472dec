// OpenCASCADE faces built inside tests: a bicubic B-spline patch (optionally rational), the same
// patch trimmed to a disk in its parameter plane, and BREP files of them.
#pragma once

#include <BRepBuilderAPI_MakeEdge.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepBuilderAPI_MakeWire.hxx>
#include <BRepLib.hxx>
#include <BRepTools.hxx>
#include <GCE2d_MakeCircle.hxx>
#include <Geom2d_Circle.hxx>
#include <Geom_BSplineSurface.hxx>
#include <Precision.hxx>
#include <TColStd_Array1OfInteger.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TColStd_Array2OfReal.hxx>
#include <TColgp_Array2OfPnt.hxx>
#include <TopoDS_Face.hxx>

#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace surfdb::test {

/// One direction of a B-spline surface: its distinct knots, their multiplicities and the degree.
struct KnotVector {
  std::vector<double> knots;
  std::vector<int> mults;
  int degree;
  int poles() const { return std::accumulate(mults.begin(), mults.end(), 0) - degree - 1; }
};

/// The surface with poles pole(i, j) and, when `weight` is given, weights weight(i, j) (from 1).
inline Handle(Geom_BSplineSurface) bspline_surface(const KnotVector& u, const KnotVector& v,
                                                  const std::function<gp_Pnt(int, int)>& pole,
                                                  const std::function<double(int, int)>& weight = {}) {
  TColgp_Array2OfPnt poles(1, u.poles(), 1, v.poles());
  TColStd_Array2OfReal weights(1, u.poles(), 1, v.poles());
  for (int i = 1; i <= u.poles(); ++i) {
    for (int j = 1; j <= v.poles(); ++j) {
      poles(i, j) = pole(i, j);
      weights(i, j) = weight ? weight(i, j) : 1.0;
    }
  }
  const auto arrays = [](const KnotVector& d) {
    const int n = static_cast<int>(d.knots.size());
    std::pair<TColStd_Array1OfReal, TColStd_Array1OfInteger> a{TColStd_Array1OfReal(1, n), TColStd_Array1OfInteger(1, n)};
    for (int k = 1; k <= n; ++k) {
      a.first(k) = d.knots[k - 1];
      a.second(k) = d.mults[k - 1];
    }
    return a;
  };
  const auto [uknots, umults] = arrays(u);
  const auto [vknots, vmults] = arrays(v);
  return weight ? new Geom_BSplineSurface(poles, weights, uknots, vknots, umults, vmults, u.degree, v.degree)
                : new Geom_BSplineSurface(poles, uknots, vknots, umults, vmults, u.degree, v.degree);
}

/// 6 x 5 poles, degree 3 x 3, u in [0, 3], v in [0, 1], a wavy sheet about 60 x 40 mm.
inline Handle(Geom_BSplineSurface) make_bspline(bool rational) {
  const auto pole = [](int i, int j) { return gp_Pnt(10.0 * i, 8.0 * j + 0.5 * i, 4.0 * std::sin(i) * std::cos(0.9 * j)); };
  const auto weight = [](int i, int j) { return 1.0 + 0.4 * std::sin(1.3 * i + 0.7 * j); };
  return bspline_surface({{0, 1, 2, 3}, {4, 1, 1, 4}, 3}, {{0, 0.5, 1}, {4, 1, 4}, 3}, pole,
                         rational ? std::function<double(int, int)>(weight) : nullptr);
}

inline TopoDS_Face natural_face(const Handle(Geom_Surface)& s) {
  return BRepBuilderAPI_MakeFace(s, Precision::Confusion()).Face();
}

/// The surface restricted to the disk |(u,v) - centre| <= radius of its parameter plane.
inline TopoDS_Face disk_face(const Handle(Geom_Surface)& s, gp_Pnt2d centre, double radius) {
  const Handle(Geom2d_Curve) circle = Handle(Geom2d_Circle)(GCE2d_MakeCircle(centre, radius).Value());
  const TopoDS_Edge edge = BRepBuilderAPI_MakeEdge(circle, s).Edge();
  TopoDS_Face face = BRepBuilderAPI_MakeFace(s, BRepBuilderAPI_MakeWire(edge).Wire()).Face();
  BRepLib::BuildCurves3d(face);
  return face;
}

inline void write_brep(const TopoDS_Shape& shape, const std::filesystem::path& path) {
  BRepTools::Write(shape, path.c_str());
}

}  // namespace surfdb::test
