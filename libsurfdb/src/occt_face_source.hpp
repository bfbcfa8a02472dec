// SurfaceSource over an OpenCASCADE face: exact evaluation through BRepAdaptor_Surface (the
// face's location applied), by blocks of grid nodes through BSplineGrid for non-periodic B-spline
// faces; inside/outside from BRepClass_FaceClassifier, node by node or, for a grid line, from the
// line's crossings with the trimming curves (trim_scanline.hpp).
#pragma once

#include <BRepAdaptor_Surface.hxx>
#include <TopoDS_Face.hxx>

#include "bspline_grid.hpp"
#include "surfdb/libsurfdb/surface_source.hpp"
#include "trim_scanline.hpp"

namespace surfdb {

class OcctFaceSource final : public SurfaceSource {
 public:
  OcctFaceSource(const TopoDS_Face& face, SourceInfo info, LengthUnit unit);

  ParamBounds bounds() const override { return bounds_; }
  SurfaceD2 d2(double u, double v) const override;
  void d2_block(std::span<const double> u, std::span<const double> v, std::span<SurfaceD2> out) const override;
  bool inside(double u, double v) const override;
  void inside_line(double u, std::span<const double> v, std::span<std::uint8_t> out) const override;
  SourceInfo info() const override { return info_; }
  LengthUnit unit() const override { return unit_; }
  std::unique_ptr<SurfaceSource> clone() const override;

 private:
  OcctFaceSource(const OcctFaceSource& other);  // clone(): its own evaluator, the same trimming curves

  TopoDS_Face face_;
  BRepAdaptor_Surface surface_;
  SourceInfo info_;
  LengthUnit unit_;
  ParamBounds bounds_;
  double tolerance_ = 0;
  bool natural_bounds_ = false;  // untrimmed: every (u,v) of the rectangle is inside
  std::shared_ptr<const TrimScanline> scanline_;  // trimmed faces whose edges all have pcurves
  std::shared_ptr<const BSplineGrid> grid_;       // non-periodic B-spline surfaces
  mutable BSplineGrid::Scratch grid_scratch_;     // this copy's (one per thread, as surface_)
};

/// Parameter rectangle of a face (BRepTools::UVBounds) with the periods of closed directions.
ParamBounds face_bounds(const TopoDS_Face& face, const BRepAdaptor_Surface& surface);

/// OpenCASCADE's name of the face's surface type, without the GeomAbs_ prefix.
std::string surface_type_name(const BRepAdaptor_Surface& surface);

}  // namespace surfdb
