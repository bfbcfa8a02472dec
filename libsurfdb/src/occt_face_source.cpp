#include "occt_face_source.hpp"

#include <BRepClass_FaceClassifier.hxx>
#include <BRepTools.hxx>
#include <BRep_Tool.hxx>
#include <Geom2dAdaptor_Curve.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <gp_Pnt2d.hxx>

#include <algorithm>
#include <cmath>

namespace surfdb {
namespace {

Eigen::Vector3d vec(const gp_Vec& v) { return {v.X(), v.Y(), v.Z()}; }
Eigen::Vector3d vec(const gp_Pnt& p) { return {p.X(), p.Y(), p.Z()}; }

// True when every boundary edge is a straight iso-line on the rectangle's border (or a degenerate
// edge at a pole): the face is the whole rectangle and classifying each node is unnecessary.
bool has_natural_bounds(const TopoDS_Face& face, const ParamBounds& b) {
  int wires = 0;
  for (TopExp_Explorer w(face, TopAbs_WIRE); w.More(); w.Next()) ++wires;
  if (wires != 1) return false;
  const double tol_u = 1e-9 * (b.u1 - b.u0), tol_v = 1e-9 * (b.v1 - b.v0);
  const auto on_border = [&](const gp_Pnt2d& p, int side) {
    switch (side) {
      case 0: return std::abs(p.X() - b.u0) <= tol_u;
      case 1: return std::abs(p.X() - b.u1) <= tol_u;
      case 2: return std::abs(p.Y() - b.v0) <= tol_v;
      default: return std::abs(p.Y() - b.v1) <= tol_v;
    }
  };
  for (TopExp_Explorer e(face, TopAbs_EDGE); e.More(); e.Next()) {
    const TopoDS_Edge& edge = TopoDS::Edge(e.Current());
    if (BRep_Tool::Degenerated(edge)) continue;
    double first = 0, last = 0;
    const Handle(Geom2d_Curve) pcurve = BRep_Tool::CurveOnSurface(edge, face, first, last);
    if (pcurve.IsNull()) return false;
    if (Geom2dAdaptor_Curve(pcurve).GetType() != GeomAbs_Line) return false;
    const gp_Pnt2d a = pcurve->Value(first), z = pcurve->Value(last);
    bool found = false;
    for (int side = 0; side < 4 && !found; ++side) found = on_border(a, side) && on_border(z, side);
    if (!found) return false;
  }
  return true;
}

}  // namespace

ParamBounds face_bounds(const TopoDS_Face& face, const BRepAdaptor_Surface& surface) {
  ParamBounds b;
  BRepTools::UVBounds(face, b.u0, b.u1, b.v0, b.v1);
  const auto closes = [](double lo, double hi, double period) {
    return std::abs(hi - lo - period) <= 1e-9 * period;
  };
  if (surface.IsUPeriodic() && closes(b.u0, b.u1, surface.UPeriod())) b.u_period = surface.UPeriod();
  if (surface.IsVPeriodic() && closes(b.v0, b.v1, surface.VPeriod())) b.v_period = surface.VPeriod();
  return b;
}

std::string surface_type_name(const BRepAdaptor_Surface& surface) {
  switch (surface.GetType()) {
    case GeomAbs_Plane: return "Plane";
    case GeomAbs_Cylinder: return "Cylinder";
    case GeomAbs_Cone: return "Cone";
    case GeomAbs_Sphere: return "Sphere";
    case GeomAbs_Torus: return "Torus";
    case GeomAbs_BezierSurface: return "BezierSurface";
    case GeomAbs_BSplineSurface: return "BSplineSurface";
    case GeomAbs_SurfaceOfRevolution: return "SurfaceOfRevolution";
    case GeomAbs_SurfaceOfExtrusion: return "SurfaceOfExtrusion";
    case GeomAbs_OffsetSurface: return "OffsetSurface";
    default: return "OtherSurface";
  }
}

OcctFaceSource::OcctFaceSource(const TopoDS_Face& face, SourceInfo info, LengthUnit unit)
    : face_(face), surface_(face, true), info_(std::move(info)), unit_(unit) {
  bounds_ = face_bounds(face_, surface_);
  tolerance_ = BRep_Tool::Tolerance(face_);
  natural_bounds_ = has_natural_bounds(face_, bounds_);
  if (!natural_bounds_) scanline_ = TrimScanline::build(face_, surface_, tolerance_);
  if (surface_.GetType() == GeomAbs_BSplineSurface)
    grid_ = BSplineGrid::make(surface_.Surface().BSpline(), surface_.Trsf(), bounds_);
}

OcctFaceSource::OcctFaceSource(const OcctFaceSource& other)
    : face_(other.face_), surface_(other.face_, true), info_(other.info_), unit_(other.unit_), bounds_(other.bounds_),
      tolerance_(other.tolerance_), natural_bounds_(other.natural_bounds_), scanline_(other.scanline_),
      grid_(other.grid_) {}

SurfaceD2 OcctFaceSource::d2(double u, double v) const {
  gp_Pnt p;
  gp_Vec su, sv, suu, svv, suv;
  surface_.D2(u, v, p, su, sv, suu, svv, suv);
  return {vec(p), vec(su), vec(sv), vec(suu), vec(suv), vec(svv)};
}

void OcctFaceSource::d2_block(std::span<const double> u, std::span<const double> v,
                              std::span<SurfaceD2> out) const {
  if (grid_) {
    grid_->evaluate(u, v, out, grid_scratch_);
  } else {
    SurfaceSource::d2_block(u, v, out);
  }
}

bool OcctFaceSource::inside(double u, double v) const {
  if (natural_bounds_) return true;
  BRepClass_FaceClassifier classifier(face_, gp_Pnt2d(u, v), tolerance_);
  const TopAbs_State state = classifier.State();
  return state == TopAbs_IN || state == TopAbs_ON;
}

void OcctFaceSource::inside_line(double u, std::span<const double> v, std::span<std::uint8_t> out) const {
  if (natural_bounds_) {
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(v.size()), 1);
  } else if (scanline_) {
    scanline_->classify_line(u, v, out, [this](double uu, double vv) { return inside(uu, vv); });
  } else {
    SurfaceSource::inside_line(u, v, out);
  }
}

std::unique_ptr<SurfaceSource> OcctFaceSource::clone() const {
  return std::unique_ptr<SurfaceSource>(new OcctFaceSource(*this));
}

}  // namespace surfdb
