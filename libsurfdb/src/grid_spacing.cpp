#include "surfdb/libsurfdb/grid_spacing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace surfdb {
namespace {

// Polyline length of s(u(t), v(t)) for t in [0,1] along a straight line of the parameter plane.
double polyline_length(const SurfaceSource& source, double u0, double v0, double u1, double v1, int segments) {
  double length = 0;
  Eigen::Vector3d previous = source.d2(u0, v0).p;
  for (int k = 1; k <= segments; ++k) {
    const double t = static_cast<double>(k) / segments;
    const Eigen::Vector3d p = source.d2(u0 + t * (u1 - u0), v0 + t * (v1 - v0)).p;
    length += (p - previous).norm();
    previous = p;
  }
  return length;
}

std::uint64_t points_for(double length, double spacing, std::uint64_t max_points) {
  const double intervals = std::ceil(length / spacing);
  if (!(intervals + 1 < static_cast<double>(max_points))) return max_points;  // also NaN lengths
  return std::max<std::uint64_t>(2, static_cast<std::uint64_t>(intervals) + 1);
}

}  // namespace

IsoLengths iso_lengths(const SurfaceSource& source, int lines, int segments) {
  const ParamBounds b = source.bounds();
  IsoLengths l;
  for (int k = 0; k < lines; ++k) {
    const double t = lines == 1 ? 0.5 : static_cast<double>(k) / (lines - 1);
    const double u = b.u0 + t * (b.u1 - b.u0), v = b.v0 + t * (b.v1 - b.v0);
    l.along_u = std::max(l.along_u, polyline_length(source, b.u0, v, b.u1, v, segments));
    l.along_v = std::max(l.along_v, polyline_length(source, u, b.v0, u, b.v1, segments));
  }
  return l;
}

GridSize grid_for_spacing(const SurfaceSource& source, double spacing, std::uint64_t max_points) {
  if (!(spacing > 0) || !std::isfinite(spacing)) throw std::invalid_argument("the node spacing must be positive and finite");
  if (max_points < 2) throw std::invalid_argument("at least 2 points per direction are needed");
  const IsoLengths l = iso_lengths(source);
  return {points_for(l.along_u, spacing, max_points), points_for(l.along_v, spacing, max_points)};
}

}  // namespace surfdb
