// Bilinear interpolation of point and frame inside one grid cell (paper 000 §3.2), with the cell
// derivatives of point and unit normal.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "surfdb/runtime/surface_point.hpp"

namespace surfdb {

/// What the interpolation reads of one grid node.
struct NodeFrame {
  Eigen::Vector3d p, n, t;
  double k1 = 0, k2 = 0;
  std::uint32_t flags = 0;
};

/// The four corners of cell (i, j): c00 = node (i, j), c10 = (i+1, j), c01 = (i, j+1), c11 = (i+1, j+1).
struct Cell {
  NodeFrame c00, c10, c01, c11;
};

/// Fills p, n, t, b, the derivatives and k1, k2 of `out` at local coordinates (a, b) in [0, 1]^2 of
/// a cell of size du x dv. n is the re-normalised interpolated normal, t the interpolated tangent
/// made orthogonal to n, b = n x t, so the frame is orthonormal and right-handed.
void interpolate_bilinear(const Cell& cell, double a, double b, double du, double dv, SurfacePoint& out);

}  // namespace surfdb
