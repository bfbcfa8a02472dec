// Bilinear interpolation of point and frame inside one grid cell (Machado, Flores and Ambrósio 2014, §3.2), with the cell
// derivatives of point and unit normal.
#pragma once

#include <cstdint>

#include "surfdb/table/surface_point.hpp"

namespace surfdb {

/// What the interpolation reads of one grid node, in this order.
enum CornerValue { kX, kY, kZ, kNx, kNy, kNz, kTx, kTy, kTz, kK1, kK2, kFlags, kCornerValues };

/// The four corners of cell (i, j): [0] node (i, j), [1] (i+1, j), [2] (i, j+1), [3] (i+1, j+1).
using CellValues = double[4][kCornerValues];

/// A cell in the form a query evaluates fastest: each value f(a, b) = f00 + a f_a + b (f_b + a f_ab)
/// at local coordinates (a, b) in [0, 1]^2. Built when a query enters the cell; a smooth path
/// then spends about ten queries in it. Slot kFlags of the coefficient arrays is zero.
struct BilinearCell {
  CellValues corners;  // as read; on the upper edge (a or b exactly 1) the point is taken from them
  alignas(64) double base[kCornerValues];  // f00
  alignas(64) double along_u[kCornerValues];  // f10 - f00
  alignas(64) double along_v[kCornerValues];  // f01 - f00
  alignas(64) double twist[kCornerValues];  // f11 - f10 - f01 + f00
  std::uint32_t flags_all = 0;  // point_flags set at every corner
  std::uint32_t flags_any = 0;  // point_flags set at some corner
};

/// Fills the coefficients and flags of a cell whose `corners` are set.
void make_bilinear_cell(BilinearCell& cell);

enum class Interpolation : std::uint8_t {
  bilinear,  // the paper's: point and frame bilinear in the cell; the point lies on the chords
  curved,    // point lifted along n by the sagitta the corner normals imply (below); frame as above
};

/// Fills p, n, t, b, the derivatives, k1, k2 and degenerate of `out` at local coordinates (a, b) in [0, 1]^2
/// of a cell of size du x dv (given as inverses). n is the re-normalised interpolated normal, t the
/// interpolated tangent made orthogonal to n, b = n x t: the frame is orthonormal and right-handed.
///
/// `curved` adds to the bilinear point the second-order term the bilinear form leaves out,
/// (1/2) [a(1-a) du^2 (n_u . p_u) + b(1-b) dv^2 (n_v . p_v)] n, with the edge differences of the
/// corner normals and points standing for the second fundamental form (n_u . p_u = -s_uu . n).
/// On a sphere of radius R it removes the chord error R h^2 / 8, leaving O(R h^4).
void interpolate_bilinear(const BilinearCell& cell, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfacePoint& out);

/// The same for p, dp_du, dp_dv and n alone: each equal, bit for bit, to the field of that name above.
void interpolate_bilinear(const BilinearCell& cell, double a, double b, double inv_du, double inv_dv,
                          Interpolation mode, SurfaceD1& out);

}  // namespace surfdb
