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

namespace surfdb::test {

/// 6 x 5 poles, degree 3 x 3, u in [0, 3], v in [0, 1], a wavy sheet about 60 x 40 mm.
inline Handle(Geom_BSplineSurface) make_bspline(bool rational) {
  TColgp_Array2OfPnt poles(1, 6, 1, 5);
  TColStd_Array2OfReal weights(1, 6, 1, 5);
  for (int i = 1; i <= 6; ++i) {
    for (int j = 1; j <= 5; ++j) {
      poles(i, j) = gp_Pnt(10.0 * i, 8.0 * j + 0.5 * i, 4.0 * std::sin(i) * std::cos(0.9 * j));
      weights(i, j) = rational ? 1.0 + 0.4 * std::sin(1.3 * i + 0.7 * j) : 1.0;
    }
  }
  TColStd_Array1OfReal uknots(1, 4), vknots(1, 3);
  TColStd_Array1OfInteger umults(1, 4), vmults(1, 3);
  const double uk[] = {0, 1, 2, 3}, vk[] = {0, 0.5, 1};
  const int um[] = {4, 1, 1, 4}, vm[] = {4, 1, 4};
  for (int k = 1; k <= 4; ++k) { uknots(k) = uk[k - 1]; umults(k) = um[k - 1]; }
  for (int k = 1; k <= 3; ++k) { vknots(k) = vk[k - 1]; vmults(k) = vm[k - 1]; }
  return rational ? new Geom_BSplineSurface(poles, weights, uknots, vknots, umults, vmults, 3, 3)
                  : new Geom_BSplineSurface(poles, uknots, vknots, umults, vmults, 3, 3);
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
