// A parametric surface the converter can sample: exact evaluation up to second derivatives, the
// parameter bounds of the face, and which (u,v) lie inside it. CAD faces, NURBS surfaces and the
// built-in analytic surfaces all implement it; so can a caller's own closed-form surface.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <span>

#include "surfdb/formats/header.hpp"

namespace surfdb {

/// Point and partial derivatives of s(u,v), in the source's length unit.
struct SurfaceD2 {
  Eigen::Vector3d p, su, sv, suu, suv, svv;
};

/// Parameter rectangle of a face in the surface's own (u,v), and its periodicity.
struct ParamBounds {
  double u0 = 0, u1 = 1, v0 = 0, v1 = 1;
  double u_period = 0, v_period = 0;  // > 0 when the face closes on itself along that direction
};

class SurfaceSource {
 public:
  virtual ~SurfaceSource() = default;

  virtual ParamBounds bounds() const = 0;
  virtual SurfaceD2 d2(double u, double v) const = 0;
  /// out[a * v.size() + b] = d2(u[a], v[b]) for a block of grid nodes, to rounding: the same
  /// nodes in the same block give the same bits. The converter asks this way, a record at a time.
  /// Non-periodic B-spline CAD faces evaluate a block from basis functions computed once per grid
  /// line, several times faster than node by node.
  virtual void d2_block(std::span<const double> u, std::span<const double> v, std::span<SurfaceD2> out) const {
    for (std::size_t a = 0; a < u.size(); ++a) {
      for (std::size_t b = 0; b < v.size(); ++b) out[a * v.size() + b] = d2(u[a], v[b]);
    }
  }
  /// True when (u,v) is inside the face or on its boundary (trimmed faces say false outside).
  virtual bool inside(double u, double v) const = 0;
  /// out[k] = inside(u, v[k]) for the nodes of one grid line, v ascending; the converter asks
  /// this way. Trimmed CAD faces answer a whole line from its crossings with the trimming curves.
  virtual void inside_line(double u, std::span<const double> v, std::span<std::uint8_t> out) const {
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = inside(u, v[k]);
  }
  /// Where the surface came from; orientation says whether the face is reversed.
  virtual SourceInfo info() const = 0;
  virtual LengthUnit unit() const { return LengthUnit::millimetre; }
  /// An independent copy for another thread (evaluators may cache internally).
  virtual std::unique_ptr<SurfaceSource> clone() const = 0;
};

}  // namespace surfdb
