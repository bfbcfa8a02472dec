#include "contact_parts.hpp"

#include <BRepAlgoAPI_Cut.hxx>
#include <BRepAlgoAPI_Fuse.hxx>
#include <BRepBuilderAPI_MakePolygon.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepFilletAPI_MakeFillet.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <BRepPrimAPI_MakePrism.hxx>
#include <BRepPrimAPI_MakeSphere.hxx>
#include <BRep_Tool.hxx>
#include <Interface_Static.hxx>
#include <STEPControl_Writer.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <gp_Ax2.hxx>

#include <cmath>
#include <initializer_list>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace surfdb::samples {
namespace {

// A closed polygon in the plane y = y0 given by (x, z) corners, extruded along +y by `width`.
TopoDS_Shape prism_xz(std::initializer_list<std::pair<double, double>> corners, double y0, double width) {
  BRepBuilderAPI_MakePolygon polygon;
  for (const auto& [x, z] : corners) polygon.Add(gp_Pnt(x, y0, z));
  polygon.Close();
  const TopoDS_Face face = BRepBuilderAPI_MakeFace(polygon.Wire(), true);
  return BRepPrimAPI_MakePrism(face, gp_Vec(0, width, 0)).Shape();
}

}  // namespace

TopoDS_Shape v_groove_block() {
  constexpr double w = kGrooveHalfWidth, length = 60, below = 10;
  BRepBuilderAPI_MakePolygon polygon;  // in the plane x = -length/2, corners (y, z)
  for (const auto& [y, z] : {std::pair{-w, w}, {0.0, 0.0}, {w, w}, {w, -below}, {-w, -below}})
    polygon.Add(gp_Pnt(-length / 2, y, z));
  polygon.Close();
  const TopoDS_Face face = BRepBuilderAPI_MakeFace(polygon.Wire(), true);
  return BRepPrimAPI_MakePrism(face, gp_Vec(length, 0, 0)).Shape();
}

TopoDS_Shape seam_plate() {
  const TopoDS_Shape left = BRepPrimAPI_MakeBox(gp_Pnt(-50, -20, -10), gp_Pnt(0, 20, 0)).Shape();
  const TopoDS_Shape right = BRepPrimAPI_MakeBox(gp_Pnt(0, -20, -10), gp_Pnt(50, 20, 0)).Shape();
  BRepAlgoAPI_Fuse fuse(left, right);
  if (!fuse.IsDone()) throw std::runtime_error("seam_plate: the boolean fuse failed");
  return fuse.Shape();
}

TopoDS_Shape fillet_ramp() {
  const double a = kRampAngleDeg * std::numbers::pi / 180, run = 60;
  const TopoDS_Shape sharp =
      prism_xz({{-60, 0}, {0, 0}, {run * std::cos(a), -run * std::sin(a)}, {run * std::cos(a), -40}, {-60, -40}}, -20, 40);
  BRepFilletAPI_MakeFillet fillet(sharp);
  for (TopExp_Explorer e(sharp, TopAbs_EDGE); e.More(); e.Next()) {  // the edge along y through the origin
    const TopoDS_Edge edge = TopoDS::Edge(e.Current());
    double first = 0, last = 0;
    const gp_Pnt mid = BRep_Tool::Curve(edge, first, last)->Value(0.5 * (first + last));
    if (std::abs(mid.X()) < 1e-9 && std::abs(mid.Z()) < 1e-9) fillet.Add(kFilletRadius, edge);
  }
  fillet.Build();
  if (!fillet.IsDone()) throw std::runtime_error("fillet_ramp: the fillet failed");
  return fillet.Shape();
}

TopoDS_Shape bowl() {
  constexpr double pi = std::numbers::pi;
  // Pole axis x; longitude 0 at -y, pi/2 at -z, pi at +y: longitudes [0, pi] are the lower half.
  const gp_Ax2 axes(gp_Pnt(0, 0, 0), gp::DX(), -gp::DY());
  const TopoDS_Shape outer = BRepPrimAPI_MakeSphere(axes, kBowlRadius + 5, -pi / 2, pi / 2, pi).Shape();
  const TopoDS_Shape inner = BRepPrimAPI_MakeSphere(axes, kBowlRadius, -pi / 2, pi / 2, pi).Shape();
  BRepAlgoAPI_Cut cut(outer, inner);
  if (!cut.IsDone()) throw std::runtime_error("bowl: the boolean cut failed");
  return cut.Shape();
}

TopoDS_Shape holed_plate() {
  const TopoDS_Shape plate =
      BRepPrimAPI_MakeBox(gp_Pnt(-kPlateHalfLength, -20, -10), gp_Pnt(kPlateHalfLength, 20, 0)).Shape();
  const TopoDS_Shape hole = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(0, 0, -20), gp::DZ()), kHoleRadius, 40).Shape();
  BRepAlgoAPI_Cut cut(plate, hole);
  if (!cut.IsDone()) throw std::runtime_error("holed_plate: OpenCASCADE could not cut the hole");
  return cut.Shape();
}

TopoDS_Shape rod(double length) {
  return BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(-length / 2, 0, 0), gp::DX()), kRodRadius, length).Shape();
}

TopoDS_Shape block() {
  return BRepPrimAPI_MakeBox(gp_Pnt(-kBlockX / 2, -kBlockY / 2, -kBlockZ / 2), gp_Pnt(kBlockX / 2, kBlockY / 2, kBlockZ / 2))
      .Shape();
}

TopoDS_Shape ball(double radius) {
  return BRepPrimAPI_MakeSphere(gp_Ax2(gp_Pnt(0, 0, 0), gp::DX(), -gp::DY()), radius).Shape();
}

void write_step(const TopoDS_Shape& shape, const std::filesystem::path& path) {
  STEPControl_Writer step;
  Interface_Static::SetCVal("write.step.unit", "MM");
  if (step.Transfer(shape, STEPControl_AsIs) != IFSelect_RetDone || step.Write(path.c_str()) != IFSelect_RetDone)
    throw std::runtime_error("cannot write " + path.string());
}

}  // namespace surfdb::samples
