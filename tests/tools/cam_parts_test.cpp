// The cam-follower benchmark's parts (tools/samples/cam_parts.hpp) against the motion law, through
// OpenCASCADE's exact evaluation of the faces it builds: the flat-follower cam's support function
// is R_b + s(theta), the spherical follower's centre lies r_f from the other cam and outside it; the
// checks are shown to catch a profile built with the wrong sign of e' or offset the wrong way.
#include "cam_parts.hpp"

#include <doctest/doctest.h>

#include <BRepAdaptor_Surface.hxx>
#include <BRepClass3d_SolidClassifier.hxx>
#include <BRep_Tool.hxx>
#include <GeomAPI_Interpolate.hxx>
#include <TColgp_HArray1OfPnt.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>

#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "cam_law.hpp"

using namespace surfdb::samples::cam;

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// A closed plane curve as the checks see it: d2(u) gives the point and two derivatives (x, y only).
struct Profile {
  std::function<void(double, gp_Pnt&, gp_Vec&, gp_Vec&)> d2;
  double u0, u1;
  std::vector<double> u;    // coarse samples over a period, for the global search
  std::vector<gp_Pnt> at;

  Profile(std::function<void(double, gp_Pnt&, gp_Vec&, gp_Vec&)> f, double first, double last, int samples)
      : d2(std::move(f)), u0(first), u1(last) {
    for (int k = 0; k < samples; ++k) {
      u.push_back(u0 + (u1 - u0) * k / samples);
      gp_Pnt p;
      gp_Vec d, dd;
      d2(u.back(), p, d, dd);
      at.push_back(p);
    }
  }
};

double dot_xy(const gp_Vec& a, double ex, double ey) { return a.X() * ex + a.Y() * ey; }

// max over the profile of x . e: the best coarse sample, then Newton on (S_u . e) = 0.
double support(const Profile& c, double theta) {
  const double ex = std::sin(theta), ey = std::cos(theta);
  std::size_t best = 0;
  for (std::size_t k = 1; k < c.at.size(); ++k)
    if (c.at[k].X() * ex + c.at[k].Y() * ey > c.at[best].X() * ex + c.at[best].Y() * ey) best = k;
  double u = c.u[best];
  gp_Pnt p;
  gp_Vec d, dd;
  for (int it = 0; it < 30; ++it) {
    c.d2(u, p, d, dd);
    const double step = dot_xy(d, ex, ey) / dot_xy(dd, ex, ey);
    u -= step;
    if (std::abs(step) < 1e-15 * (c.u1 - c.u0)) break;
  }
  c.d2(u, p, d, dd);
  return p.X() * ex + p.Y() * ey;
}

// The profile's nearest point to q (in the plane): the best coarse sample, then Newton on (S - q) . S_u = 0.
gp_Pnt nearest(const Profile& c, const gp_Pnt& q) {
  const auto dist2 = [&](const gp_Pnt& p) { return std::pow(p.X() - q.X(), 2) + std::pow(p.Y() - q.Y(), 2); };
  std::size_t best = 0;
  for (std::size_t k = 1; k < c.at.size(); ++k)
    if (dist2(c.at[k]) < dist2(c.at[best])) best = k;
  double u = c.u[best];
  gp_Pnt p;
  gp_Vec d, dd;
  for (int it = 0; it < 30; ++it) {
    c.d2(u, p, d, dd);
    const double rx = p.X() - q.X(), ry = p.Y() - q.Y();
    const double g = rx * d.X() + ry * d.Y(), dg = d.X() * d.X() + d.Y() * d.Y() + rx * dd.X() + ry * dd.Y();
    u -= g / dg;
    if (std::abs(g / dg) < 1e-15 * (c.u1 - c.u0)) break;
  }
  c.d2(u, p, d, dd);
  return p;
}

double radius(const gp_Pnt& p) { return std::hypot(p.X(), p.Y()); }

// The checks over `count` cam angles; returns the worst error of each.
struct Worst {
  double flat = 0, sphere = 0, sphere_inside = -1e300;  // the last: max of |nearest| - |pitch|, must be < 0
};

Worst check_flat(const Profile& c, int count) {
  Worst w;
  for (int k = 0; k < count; ++k) {
    const double theta = kTwoPi * (k + 0.37) / count;  // off the nodes
    w.flat = std::max(w.flat, std::abs(support(c, theta) - (kBaseRadius + lift(theta).s)));
  }
  return w;
}

Worst check_sphere(const Profile& c, int count) {
  Worst w;
  for (int k = 0; k < count; ++k) {
    const double theta = kTwoPi * (k + 0.37) / count;
    const double rho = kBaseRadius + kFollowerRadius + lift(theta).s;
    const gp_Pnt q(rho * std::sin(theta), rho * std::cos(theta), 0);  // the follower's centre, from the law
    const gp_Pnt p = nearest(c, q);
    w.sphere = std::max(w.sphere, std::abs(std::hypot(p.X() - q.X(), p.Y() - q.Y()) - kFollowerRadius));
    w.sphere_inside = std::max(w.sphere_inside, radius(p) - radius(q));
  }
  return w;
}

TopoDS_Face lateral_face(const TopoDS_Shape& cam, int& faces) {
  TopoDS_Face lateral;
  faces = 0;
  for (TopExp_Explorer e(cam, TopAbs_FACE); e.More(); e.Next(), ++faces)
    if (BRepAdaptor_Surface(TopoDS::Face(e.Current())).GetType() == GeomAbs_SurfaceOfExtrusion) lateral = TopoDS::Face(e.Current());
  return lateral;
}

// The lateral face at mid-thickness as a plane curve, its outward normal checked at the same time.
Profile face_profile(const TopoDS_Face& face, double& worst_normal) {
  auto surface = std::make_shared<BRepAdaptor_Surface>(face);
  const double v = 0.5 * (surface->FirstVParameter() + surface->LastVParameter());
  const bool reversed = face.Orientation() == TopAbs_REVERSED;
  worst_normal = 0;
  auto d2 = [surface, v](double u, gp_Pnt& p, gp_Vec& d, gp_Vec& dd) {
    gp_Vec dv, duv, dvv;
    surface->D2(u, v, p, d, dv, dd, dvv, duv);
  };
  Profile c(d2, surface->FirstUParameter(), surface->LastUParameter(), 2880);
  // The face's normal out of the material is the cam's outward radial side: (S_u x S_v) flipped
  // for a reversed face, pointing away from the axis.
  for (std::size_t k = 0; k < c.u.size(); k += 7) {
    gp_Pnt p;
    gp_Vec du, dv;
    surface->D1(c.u[k], v, p, du, dv);
    gp_Vec n = du.Crossed(dv).Normalized();
    if (reversed) n.Reverse();
    worst_normal = std::max(worst_normal, std::abs(p.Z()));
    CHECK(n.X() * p.X() + n.Y() * p.Y() > 0);
  }
  return c;
}

// A curve through `points` by OpenCASCADE's periodic cubic interpolation (a profile made otherwise
// than cam_parts does, to show the checks catch a wrong one).
Profile interpolated(const std::function<gp_Pnt(double)>& point, int nodes) {
  Handle(TColgp_HArray1OfPnt) pts = new TColgp_HArray1OfPnt(1, nodes);
  for (int k = 0; k < nodes; ++k) pts->SetValue(k + 1, point(kTwoPi * k / nodes));
  GeomAPI_Interpolate interpolate(pts, true, 1e-9);
  interpolate.Perform();
  REQUIRE(interpolate.IsDone());
  Handle(Geom_BSplineCurve) curve = interpolate.Curve();
  return Profile([curve](double u, gp_Pnt& p, gp_Vec& d, gp_Vec& dd) { curve->D2(u, p, d, dd); }, curve->FirstParameter(),
                 curve->LastParameter(), 2880);
}

gp_Pnt in_plane(double r_e, double r_de, double theta) {
  return {r_e * std::sin(theta) + r_de * std::cos(theta), r_e * std::cos(theta) - r_de * std::sin(theta), 0};
}

}  // namespace

TEST_CASE("cam law: periodic, continuous to s'', its derivatives those of s") {
  constexpr double pi = std::numbers::pi, h = 1e-5;
  for (double a : {0.0, 2 * pi / 3, pi, 5 * pi / 3}) {  // the segments' ends: s, s', s'' continuous
    const Lift before = lift(a - 1e-12), after = lift(a + 1e-12);
    CHECK(std::abs(before.s - after.s) < 1e-9);
    CHECK(std::abs(before.ds - after.ds) < 1e-9);
    CHECK(std::abs(before.dds - after.dds) < 1e-9);
  }
  CHECK(lift(2 * pi / 3).s == doctest::Approx(kLift));
  CHECK(lift(pi / 3).s == doctest::Approx(kLift / 2));                    // the cycloid's midpoint
  CHECK(lift(pi / 3).ds == doctest::Approx(2 * kLift / kRiseAngle));      // and its largest speed
  CHECK(lift(4 * pi / 3).ds == doctest::Approx(-2 * kLift / kRiseAngle));
  for (int k = 0; k < 360; ++k) {  // central differences, away from the jumps of s'''
    const double t = kTwoPi * (k + 0.5) / 360;
    CHECK(lift(t).s == doctest::Approx(lift(t + kTwoPi).s).epsilon(1e-12));
    CHECK(lift(t).ds == doctest::Approx((lift(t + h).s - lift(t - h).s) / (2 * h)).scale(1).epsilon(1e-8));
    CHECK(lift(t).dds == doctest::Approx((lift(t + h).ds - lift(t - h).ds) / (2 * h)).scale(1).epsilon(1e-7));
    CHECK(lift(t).ddds == doctest::Approx((lift(t + h).dds - lift(t - h).dds) / (2 * h)).scale(1).epsilon(1e-6));
  }
  CHECK(smallest_flat_radius(100000) > 30);  // convex
  CHECK(smallest_sphere_radius(100000) > 30);  // no undercut
}

TEST_CASE("flat-follower cam: support function R_b + s(theta) on OpenCASCADE's lateral face") {
  const TopoDS_Shape shape = cam(Follower::flat, kProfileNodes);
  int faces = 0;
  const TopoDS_Face face = lateral_face(shape, faces);
  CHECK(faces == 3);
  REQUIRE(!face.IsNull());
  double off_plane = 0;
  const Profile c = face_profile(face, off_plane);
  CHECK(off_plane < 1e-12);  // v at mid-thickness is z = 0
  const Worst w = check_flat(c, 10 * kProfileNodes);
  MESSAGE("flat cam: worst |support - (R_b + s)| over " << 10 * kProfileNodes << " angles: " << w.flat << " mm");
  CHECK(w.flat < 1e-7);
  // The solid is the right way out: the axis inside, a point beyond the largest radius outside.
  CHECK(BRepClass3d_SolidClassifier(shape, gp_Pnt(0, 0, 0), 1e-7).State() == TopAbs_IN);
  CHECK(BRepClass3d_SolidClassifier(shape, gp_Pnt(0, kBaseRadius + kLift + 1, 0), 1e-7).State() == TopAbs_OUT);
  CHECK(BRepClass3d_SolidClassifier(shape, gp_Pnt(0, kBaseRadius - 1, 0), 1e-7).State() == TopAbs_IN);
}

TEST_CASE("spherical-follower cam: the follower's centre r_f from the profile, outside it") {
  const TopoDS_Shape shape = cam(Follower::sphere, kProfileNodes);
  int faces = 0;
  const TopoDS_Face face = lateral_face(shape, faces);
  CHECK(faces == 3);
  REQUIRE(!face.IsNull());
  double off_plane = 0;
  const Worst w = check_sphere(face_profile(face, off_plane), 10 * kProfileNodes);
  MESSAGE("sphere cam: worst |distance - r_f| over " << 10 * kProfileNodes << " angles: " << w.sphere << " mm");
  CHECK(w.sphere < 1e-7);
  CHECK(w.sphere_inside < -kFollowerRadius / 2);  // the nearest profile point lies between the axis and the centre
}

TEST_CASE("cam profiles: the spline's interpolation error between the nodes, across and along the profile") {
  for (const Follower kind : {Follower::flat, Follower::sphere}) {
    const std::string name = kind == Follower::flat ? "flat" : "sphere";
    const Handle(Geom_BSplineCurve) curve = profile_curve(kind, kProfileNodes);
    CHECK(curve->IsPeriodic());
    CHECK(curve->Degree() == 5);
    // The spline at parameter theta against the closed form at theta: the error's component along
    // the profile's normal is the shape's; the one along its tangent is only a shift of the
    // parameter (largest next to the jumps of s''', where the closed form's second derivative
    // jumps along the tangent).
    const auto exact = [&](double a) { return kind == Follower::flat ? flat_profile(a) : sphere_profile(a); };
    double across = 0, along = 0, at = 0;
    for (int k = 0; k < 10 * kProfileNodes; ++k) {
      const double theta = kTwoPi * (k + 0.5) / (10 * kProfileNodes), dt = 1e-6;
      const gp_Vec tangent = gp_Vec(exact(theta - dt), exact(theta + dt)).Normalized();
      const gp_Vec error(exact(theta), curve->Value(theta));
      if (const double normal = std::abs(error.X() * tangent.Y() - error.Y() * tangent.X()); normal > across)
        across = normal, at = theta;
      along = std::max(along, std::abs(error.Dot(tangent)));
    }
    MESSAGE(name << " cam, " << kProfileNodes << " nodes: worst interpolation error across the profile " << across
                 << " mm (at theta " << at << "), along it " << along << " mm");
    CHECK(across < 1e-7);
    CHECK(along < 1e-4);
  }
}

TEST_CASE("cam checks catch a wrong profile: e' with the wrong sign, the offset outwards") {
  constexpr int nodes = 1440;
  const Profile flipped = interpolated(
      [](double theta) { return in_plane(kBaseRadius + lift(theta).s, -lift(theta).ds, theta); }, nodes);
  const double flat = check_flat(flipped, 720).flat;
  MESSAGE("flat cam with -s' e': worst support error " << flat << " mm");
  CHECK(flat > 0.1);
  const Profile outwards = interpolated(
      [](double theta) {
        const Lift l = lift(theta);
        const double rho = kBaseRadius + kFollowerRadius + l.s, norm = std::hypot(rho, l.ds);
        return in_plane(rho + kFollowerRadius * rho / norm, -kFollowerRadius * l.ds / norm, theta);
      },
      nodes);
  const Worst w = check_sphere(outwards, 720);
  CHECK((w.sphere > 0.1 || w.sphere_inside > 0));
  const Profile wrong_normal = interpolated(
      [](double theta) {
        const Lift l = lift(theta);
        const double rho = kBaseRadius + kFollowerRadius + l.s, norm = std::hypot(rho, l.ds);
        return in_plane(rho - kFollowerRadius * rho / norm, -kFollowerRadius * l.ds / norm, theta);
      },
      nodes);
  MESSAGE("sphere cam offset along rho e + rho' e': worst distance error " << check_sphere(wrong_normal, 720).sphere << " mm");
  CHECK(check_sphere(wrong_normal, 720).sphere > 0.1);
  // The plate covers the contact's travel along x, +-max|s'| = 2 h / beta, with margin.
  CHECK(kPlateHalfWidth > 2 * kLift / kRiseAngle + 5);
}

TEST_CASE("cam parts: the face numbers cam_parts.hpp gives, and the follower's crowned face touches y = 0 along x") {
  // surfdb numbers faces in OpenCASCADE's exploration order, from 1.
  const auto first_face = [](const TopoDS_Shape& shape) { return TopoDS::Face(TopExp_Explorer(shape, TopAbs_FACE).Current()); };
  CHECK(BRepAdaptor_Surface(first_face(cam(Follower::flat, 360))).GetType() == GeomAbs_SurfaceOfExtrusion);
  const TopoDS_Face face = first_face(follower_plate());
  const BRepAdaptor_Surface crown(face);
  REQUIRE(crown.GetType() == GeomAbs_Cylinder);
  CHECK(crown.Cylinder().Radius() == doctest::Approx(kCrownRadius));
  // The lowest line: at mid-u, along v, the points (x, 0, 0), x over [-20, 20], the normal out of the plate -y.
  const double u = 0.5 * (crown.FirstUParameter() + crown.LastUParameter());
  double x_min = 1e9, x_max = -1e9;
  for (const double v : {crown.FirstVParameter(), crown.LastVParameter()}) {
    gp_Pnt p;
    gp_Vec du, dv;
    crown.D1(u, v, p, du, dv);
    gp_Vec n = du.Crossed(dv).Normalized();
    if (face.Orientation() == TopAbs_REVERSED) n.Reverse();
    CHECK(std::abs(p.Y()) < 1e-12);
    CHECK(std::abs(p.Z()) < 1e-12);
    CHECK(n.Y() == doctest::Approx(-1).epsilon(1e-12));
    x_min = std::min(x_min, p.X()), x_max = std::max(x_max, p.X());
  }
  CHECK(x_min == doctest::Approx(-kPlateHalfWidth));
  CHECK(x_max == doctest::Approx(kPlateHalfWidth));
  // Its edges across z rise kCrownRadius - sqrt(kCrownRadius^2 - 7^2).
  gp_Pnt edge = crown.Value(crown.FirstUParameter(), crown.FirstVParameter());
  CHECK(edge.Y() == doctest::Approx(kCrownRadius - std::sqrt(kCrownRadius * kCrownRadius - 49)).epsilon(1e-9));
  CHECK(std::abs(edge.Z()) == doctest::Approx(kPlateHalfDepth));
}
