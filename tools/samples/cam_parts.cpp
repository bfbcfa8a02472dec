#include "cam_parts.hpp"

#include <BRepBuilderAPI_MakeEdge.hxx>
#include <GC_MakeArcOfCircle.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepBuilderAPI_MakeWire.hxx>
#include <BRepPrimAPI_MakePrism.hxx>
#include <TColStd_Array1OfInteger.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TColgp_Array1OfPnt.hxx>
#include <TopoDS_Face.hxx>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "cam_law.hpp"

namespace surfdb::samples::cam {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

gp_Pnt in_plane(double r_e, double r_de, double theta) {  // r_e e(theta) + r_de e'(theta)
  const double c = std::cos(theta), s = std::sin(theta);
  return {r_e * s + r_de * c, r_e * c - r_de * s, 0};
}

// A periodic degree-5 B-spline on uniform knots 0, d, ..., 2 pi (d = 2 pi / n), all of
// multiplicity 1, with the given n poles.
Handle(Geom_BSplineCurve) periodic_quintic(const TColgp_Array1OfPnt& poles) {
  const int n = poles.Length();
  TColStd_Array1OfReal knots(1, n + 1);
  TColStd_Array1OfInteger mults(1, n + 1);
  for (int k = 0; k <= n; ++k) knots(k + 1) = kTwoPi * k / n, mults(k + 1) = 1;
  return new Geom_BSplineCurve(poles, knots, mults, 5, true);
}

// b[k]: the value at node k (theta = 2 pi k / n) of pole 0's basis function. The knots are uniform,
// so pole j's basis takes b[(k - j) mod n] at node k: read from OpenCASCADE's own evaluation of a
// curve whose only non-zero pole is pole 0, so no assumption about its pole numbering enters.
std::vector<double> basis_at_nodes(int n) {
  TColgp_Array1OfPnt poles(1, n);
  for (int j = 1; j <= n; ++j) poles(j) = gp_Pnt(j == 1 ? 1 : 0, 0, 0);
  const Handle(Geom_BSplineCurve) probe = periodic_quintic(poles);
  std::vector<double> b(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) b[static_cast<std::size_t>(k)] = probe->Value(kTwoPi * k / n).X();
  return b;
}

}  // namespace

gp_Pnt flat_profile(double theta) {
  const Lift l = lift(theta);
  return in_plane(kBaseRadius + l.s, l.ds, theta);
}

gp_Pnt pitch_point(double theta) { return in_plane(kBaseRadius + kFollowerRadius + lift(theta).s, 0, theta); }

gp_Pnt sphere_profile(double theta) {
  const Lift l = lift(theta);
  const double rho = kBaseRadius + kFollowerRadius + l.s, norm = std::hypot(rho, l.ds);
  // q - r_f n with n = (rho e - rho' e') / |.|
  return in_plane(rho - kFollowerRadius * rho / norm, kFollowerRadius * l.ds / norm, theta);
}

double smallest_flat_radius(int samples) {
  double smallest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < samples; ++k) {
    const Lift l = lift(kTwoPi * k / samples);
    smallest = std::min(smallest, kBaseRadius + l.s + l.dds);
  }
  return smallest;
}

double smallest_sphere_radius(int samples) {
  double smallest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < samples; ++k) {
    const Lift l = lift(kTwoPi * k / samples);
    const double r = kBaseRadius + kFollowerRadius + l.s;
    // The polar curve's curvature (r^2 + 2 r'^2 - r r'') / (r^2 + r'^2)^1.5; where it is convex the
    // cam's radius is the pitch curve's less r_f.
    const double curvature = (r * r + 2 * l.ds * l.ds - r * l.dds) / std::pow(r * r + l.ds * l.ds, 1.5);
    if (curvature > 0) smallest = std::min(smallest, 1 / curvature - kFollowerRadius);
  }
  return smallest;
}

Handle(Geom_BSplineCurve) profile_curve(Follower kind, int nodes, double z0) {
  if (nodes < 12) throw std::runtime_error("profile_curve: at least 12 nodes");
  const std::vector<double> b = basis_at_nodes(nodes);
  std::vector<Eigen::Triplet<double>> entries;
  for (int k = 0; k < nodes; ++k)
    for (int j = 0; j < nodes; ++j)  // only the few poles whose support holds node k
      if (const double v = b[static_cast<std::size_t>(((k - j) % nodes + nodes) % nodes)]; v != 0) entries.emplace_back(k, j, v);
  Eigen::SparseMatrix<double> A(nodes, nodes);
  A.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
  if (lu.info() != Eigen::Success) throw std::runtime_error("profile_curve: the collocation matrix is singular");
  Eigen::MatrixXd points(nodes, 2);
  for (int k = 0; k < nodes; ++k) {
    const double theta = kTwoPi * k / nodes;
    const gp_Pnt p = kind == Follower::flat ? flat_profile(theta) : sphere_profile(theta);
    points(k, 0) = p.X(), points(k, 1) = p.Y();
  }
  const Eigen::MatrixXd poles_xy = lu.solve(points);
  TColgp_Array1OfPnt poles(1, nodes);
  for (int j = 0; j < nodes; ++j) poles(j + 1) = gp_Pnt(poles_xy(j, 0), poles_xy(j, 1), z0);
  return periodic_quintic(poles);
}

TopoDS_Shape cam(Follower kind, int nodes) {
  const double smallest = kind == Follower::flat ? smallest_flat_radius(100 * nodes) : smallest_sphere_radius(100 * nodes);
  if (!(smallest > 0)) throw std::runtime_error("cam: the law gives a profile that is not convex (or undercut)");
  const TopoDS_Edge edge = BRepBuilderAPI_MakeEdge(profile_curve(kind, nodes, -kThickness / 2));
  const TopoDS_Wire wire = BRepBuilderAPI_MakeWire(edge);
  BRepBuilderAPI_MakeFace face(wire, true);
  if (!face.IsDone()) throw std::runtime_error("cam: the profile does not bound a planar face");
  return BRepPrimAPI_MakePrism(face.Face(), gp_Vec(0, 0, kThickness)).Shape();
}

TopoDS_Shape follower_plate() {
  // The section in the plane x = -20: the crown's arc from z = -7 to 7 through the origin, closed
  // by the sides and the top y = 5; extruded 40 mm along +x.
  const double w = kPlateHalfDepth, rise = kCrownRadius - std::sqrt(kCrownRadius * kCrownRadius - w * w), x0 = -kPlateHalfWidth;
  const gp_Pnt a(x0, rise, -w), bottom(x0, 0, 0), b(x0, rise, w), c(x0, 5, w), d(x0, 5, -w);
  BRepBuilderAPI_MakeWire wire;
  wire.Add(BRepBuilderAPI_MakeEdge(GC_MakeArcOfCircle(a, bottom, b).Value()).Edge());
  wire.Add(BRepBuilderAPI_MakeEdge(b, c).Edge());
  wire.Add(BRepBuilderAPI_MakeEdge(c, d).Edge());
  wire.Add(BRepBuilderAPI_MakeEdge(d, a).Edge());
  BRepBuilderAPI_MakeFace face(wire.Wire(), true);
  if (!face.IsDone()) throw std::runtime_error("follower_plate: the section is not a planar face");
  return BRepPrimAPI_MakePrism(face.Face(), gp_Vec(2 * kPlateHalfWidth, 0, 0)).Shape();
}

}  // namespace surfdb::samples::cam
