// A B-spline surface evaluated at the nodes of a grid block by its tensor-product structure:
// the basis functions and their first two derivatives are computed once per grid line along u and
// once per grid line along v, the poles are summed along u once per u line, and each node is then
// a sum over the q + 1 poles of its v span (The NURBS Book, 2nd ed., A2.3 for the basis
// derivatives, A4.4 for the rational quotient). The poles are summed relative to one of the block's
// own, so that the derivatives' sums, whose basis functions sum to zero, lose digits to the
// block's extent rather than to the coordinates' magnitude. OpenCASCADE's BRepAdaptor_Surface::D2
// evaluates node by node from its span cache; this gives the same values to rounding
// (tests/libsurfdb/bspline_grid_test).
#pragma once

#include <Geom_BSplineSurface.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <gp_Trsf.hxx>

#include <memory>
#include <span>
#include <vector>

#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

class BSplineGrid {
 public:
  /// What one evaluation needs besides the surface: bases and partial sums, kept between calls by
  /// the caller (one per thread) so that a block allocates nothing once they have grown.
  struct Scratch {
    std::vector<int> u_first, v_first;           // first pole index of each node's span
    std::vector<double> u_basis, v_basis;         // per grid line: 3 x (degree + 1), value, d/dt, d2/dt2
    std::vector<double> partial;                  // per v pole: 3 u derivatives x 4 homogeneous coordinates
    std::vector<double> work;                     // basis_derivatives' triangle
    double origin[3] = {};                        // the block's poles are summed relative to this one
  };

  /// Null for the surfaces this evaluator does not take (periodic ones: OpenCASCADE's adaptor
  /// evaluates them node by node). `placement` is the face's location (BRepAdaptor_Surface::Trsf);
  /// `bounds` its parameter rectangle: a node on an upper edge that lies on a knot takes the span
  /// inside the face, as the adaptor does (GeomAdaptor_Surface's local evaluation at its bounds).
  static std::shared_ptr<const BSplineGrid> make(const Handle(Geom_BSplineSurface)& surface,
                                                 const gp_Trsf& placement, const ParamBounds& bounds);

  /// out[a * v.size() + b] is the surface and its derivatives at (u[a], v[b]).
  void evaluate(std::span<const double> u, std::span<const double> v, std::span<SurfaceD2> out,
                Scratch& scratch) const;

 private:
  struct Direction {
    int degree = 0, poles = 0;
    TColStd_Array1OfReal flat_knots;  // poles + degree + 1 values, OpenCASCADE's knot sequence
    double lower = 0, upper = 0;      // the face's range along this direction
  };

  BSplineGrid() = default;
  // First pole index and basis derivatives of every parameter in `t`, into first and basis.
  static void bases(const Direction& d, std::span<const double> t, std::vector<int>& first,
                    std::vector<double>& basis, std::vector<double>& work);
  void evaluate_u_line(std::span<const double> v, int u_first, const double* u_basis, int v_lo, int v_hi,
                       std::span<SurfaceD2> out, Scratch& scratch) const;
  SurfaceD2 finish(const double (&sum)[6][4], const double (&origin)[3]) const;

  Direction u_, v_;
  std::vector<double> poles_;  // (x, y, z, w) per pole, u index outer, v inner
  bool rational_ = false;
  gp_Trsf placement_;
};

}  // namespace surfdb
