// Bilinear interpolation of point and frame inside one grid cell (paper 000 §3.2), with the cell
// derivatives of point and unit normal.
#pragma once

#include <cstdint>

#include "surfdb/runtime/surface_point.hpp"

namespace surfdb {

/// What the interpolation reads of one grid node, in this order.
enum CornerValue { kX, kY, kZ, kNx, kNy, kNz, kTx, kTy, kTz, kK1, kK2, kFlags, kCornerValues };

/// The four corners of cell (i, j): [0] node (i, j), [1] (i+1, j), [2] (i, j+1), [3] (i+1, j+1).
using CellValues = double[4][kCornerValues];

enum class Interpolation : std::uint8_t {
  bilinear,  // the paper's: point and frame bilinear in the cell; the point lies on the chords
  curved,    // point lifted along n by the sagitta the corner normals imply (below); frame as above
};

/// Fills p, n, t, b, the derivatives and k1, k2 of `out` at local coordinates (a, b) in [0, 1]^2
/// of a cell of size du x dv (given as inverses). n is the re-normalised interpolated normal, t the
/// interpolated tangent made orthogonal to n, b = n x t: the frame is orthonormal and right-handed.
///
/// `curved` adds to the bilinear point the second-order term the bilinear form leaves out,
/// (1/2) [a(1-a) du^2 (n_u . p_u) + b(1-b) dv^2 (n_v . p_v)] n, with the edge differences of the
/// corner normals and points standing for the second fundamental form (n_u . p_u = -s_uu . n).
/// On a sphere of radius R it removes the chord error R h^2 / 8, leaving O(R h^4).
void interpolate_bilinear(const CellValues& cell, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfacePoint& out);

}  // namespace surfdb
