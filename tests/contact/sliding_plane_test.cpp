// The sliding plane's equation, gradient, velocity terms and contact-point slides against exact
// closed forms: an ellipsoid on a plane (either on body i), two spheres, a ball in a spherical
// cavity, each with both bodies moving and turning and the surfaces off their centres of mass.
// The signed distance Phi(t) is exact along each motion (constant velocities and angular
// velocities: zero accelerations, so Phi_ddot = -gamma), and differentiated by central differences.
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <functional>

#include "surfdb/contact/shape_operator.hpp"
#include "surfdb/contact/sliding_plane.hpp"

namespace surfdb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// A body moving with constant velocity v and constant world angular velocity w from (r0, A0).
struct Motion {
  Vector3d r0, v, w;
  Matrix3d A0;

  Pose at(double t) const {
    Pose p;
    p.r = r0 + v * t;
    const double angle = w.norm() * t;
    p.A = (angle == 0 ? Matrix3d::Identity() : Eigen::AngleAxisd(angle, w.normalized()).toRotationMatrix()) * A0;
    return p;
  }
  BodyState state(double t) const { return {at(t), v, w}; }
};

Matrix3d rotation(double angle, const Vector3d& axis) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

// A contact's geometry at time t: the detector's answer and the shape operators.
struct Geometry {
  ContactResult contact;
  ContactShapes shapes;
  Vector3d surface_point_i, surface_point_j;  // the points in their bodies' axes (for the slides)
};

using Scene = std::function<Geometry(const Pose& i, const Pose& j)>;

// An ellipsoid of semi-axes `axes` centred at `centre` in body axes of the body it is on, against a
// plane through `point` with outward normal `normal` (the other body's axes). ellipsoid_on_i:
// the ellipsoid is surface i (the plane j, its normal the contact's); else the other way round.
Scene ellipsoid_and_plane(Vector3d axes, Vector3d centre, Vector3d point, Vector3d normal, bool ellipsoid_on_i) {
  return [=](const Pose& i, const Pose& j) {
    const Pose& pe = ellipsoid_on_i ? i : j;
    const Pose& pp = ellipsoid_on_i ? j : i;
    const Vector3d m = pp.A * normal;  // the plane's outward normal, world
    const Vector3d mb = pe.A.transpose() * m;
    const Matrix3d M = axes.cwiseProduct(axes).asDiagonal();
    const double h = std::sqrt(mb.dot(M * mb));  // support function
    const Vector3d y = -M * mb / h;             // the point nearest the plane, from the centre, body axes
    const Vector3d x_e = pe.r + pe.A * (centre + y);
    const Vector3d x_p = x_e - (x_e - (pp.r + pp.A * point)).dot(m) * m;  // its foot on the plane
    const Vector3d mu = mb;  // |Q y| = 1/h; W = P Q P h in body axes, with outward normal -mb
    const Matrix3d P = Matrix3d::Identity() - mu * mu.transpose();
    const Matrix3d W = pe.A * (P * axes.cwiseProduct(axes).cwiseInverse().asDiagonal() * P * h) * pe.A.transpose();
    Geometry g;
    g.contact.normal = ellipsoid_on_i ? m : Vector3d(-m);
    g.contact.point_i = ellipsoid_on_i ? x_e : x_p;
    g.contact.point_j = ellipsoid_on_i ? x_p : x_e;
    g.shapes.i = ellipsoid_on_i ? W : Matrix3d::Zero();
    g.shapes.j = ellipsoid_on_i ? Matrix3d::Zero() : W;
    g.surface_point_i = i.A.transpose() * (g.contact.point_i - i.r);
    g.surface_point_j = j.A.transpose() * (g.contact.point_j - j.r);
    return g;
  };
}

// Sphere i (radius ri, centre ci in body axes) against sphere j (radius rj > 0) or inside a
// spherical cavity (rj < 0, radius |rj|).
Scene two_spheres(double ri, Vector3d ci, double rj, Vector3d cj) {
  return [=](const Pose& i, const Pose& j) {
    const Vector3d a = i.r + i.A * ci, b = j.r + j.A * cj;
    const Vector3d u = (a - b).normalized();  // from j's centre to i's
    Geometry g;
    g.contact.normal = rj > 0 ? u : Vector3d(-u);
    g.contact.point_i = a - ri * g.contact.normal;
    g.contact.point_j = b + std::abs(rj) * u;
    g.shapes.i = sphere_shape_operator(g.contact.normal, ri);
    g.shapes.j = sphere_shape_operator(g.contact.normal, rj);
    g.surface_point_i = i.A.transpose() * (g.contact.point_i - i.r);
    g.surface_point_j = j.A.transpose() * (g.contact.point_j - j.r);
    return g;
  };
}

double phi(const Geometry& g) { return g.contact.normal.dot(g.contact.point_i - g.contact.point_j); }

// Every output of sliding_plane() against differences of the exact geometry along the motions.
void check_against_differences(const Scene& scene, const Motion& mi, const Motion& mj) {
  const Geometry g0 = scene(mi.at(0), mj.at(0));
  const SlidingPlane s = sliding_plane(g0.contact, g0.shapes, mi.state(0), mj.state(0));
  const auto phi_at = [&](double t) { return phi(scene(mi.at(t), mj.at(t))); };
  CHECK(s.phi == doctest::Approx(phi(g0)).epsilon(1e-12));
  const double h = 1e-4, k = 1e-5;
  const double rate = (phi_at(k) - phi_at(-k)) / (2 * k);
  const double acceleration = (phi_at(h) - 2 * phi_at(0) + phi_at(-h)) / (h * h);
  CHECK(s.rate == doctest::Approx(rate).epsilon(1e-7));
  REQUIRE(std::abs(acceleration) > 1e-2);  // the test exercises the velocity terms
  CHECK(-s.gamma == doctest::Approx(acceleration).epsilon(1e-5));
  CHECK_FALSE(s.singular);

  // The slides: the points' velocities over their surfaces, body axes turned to the world.
  const Geometry gp = scene(mi.at(h), mj.at(h)), gm = scene(mi.at(-h), mj.at(-h));
  const Vector3d slide_i = mi.at(0).A * (gp.surface_point_i - gm.surface_point_i) / (2 * h);
  const Vector3d slide_j = mj.at(0).A * (gp.surface_point_j - gm.surface_point_j) / (2 * h);
  CHECK((s.slide_i - slide_i).norm() < 1e-6 * (1 + slide_i.norm()));
  CHECK((s.slide_j - slide_j).norm() < 1e-6 * (1 + slide_j.norm()));

  // The gradient: translations and small turns of each body, one at a time.
  const double d = 1e-6;
  for (int axis = 0; axis < 3; ++axis) {
    const Vector3d e = Vector3d::Unit(axis);
    const auto moved = [&](const Pose& p, bool turn, double sign) {
      Pose q = p;
      if (turn) q.A = rotation(sign * d, e) * p.A;
      else q.r = p.r + sign * d * e;
      return q;
    };
    for (bool turn : {false, true}) {
      const double di = (phi(scene(moved(mi.at(0), turn, 1), mj.at(0))) - phi(scene(moved(mi.at(0), turn, -1), mj.at(0)))) / (2 * d);
      const double dj = (phi(scene(mi.at(0), moved(mj.at(0), turn, 1))) - phi(scene(mi.at(0), moved(mj.at(0), turn, -1)))) / (2 * d);
      CHECK((turn ? s.dth_i : s.dr_i)[axis] == doctest::Approx(di).epsilon(1e-6).scale(1e-3));
      CHECK((turn ? s.dth_j : s.dr_j)[axis] == doctest::Approx(dj).epsilon(1e-6).scale(1e-3));
    }
  }
}

const Motion kBodyI{{0.01, 0.02, 0.30}, {0.4, -0.3, 0.2}, {2.0, -3.0, 1.5}, rotation(0.3, {1, 2, 3})};
const Motion kBodyJ{{-0.02, 0.01, 0.0}, {-0.1, 0.25, 0.05}, {-1.0, 0.5, 2.5}, rotation(-0.2, {3, -1, 2})};

}  // namespace

TEST_CASE("sliding plane: an ellipsoid on a plane, both moving and turning") {
  // The ellipsoid's lowest point sits on the plane at t = 0: the plane goes through it.
  const Vector3d axes(0.08, 0.05, 0.12), centre(0.01, -0.02, 0.03);
  const Scene probe = ellipsoid_and_plane(axes, centre, Vector3d::Zero(), Vector3d(0.2, 0.1, 1).normalized(), true);
  const Geometry g = probe(kBodyI.at(0), kBodyJ.at(0));
  const Vector3d point = kBodyJ.at(0).A.transpose() * (g.contact.point_i - kBodyJ.at(0).r);
  SUBCASE("ellipsoid i, plane j") {
    check_against_differences(ellipsoid_and_plane(axes, centre, point, Vector3d(0.2, 0.1, 1).normalized(), true), kBodyI, kBodyJ);
  }
  SUBCASE("plane i, ellipsoid j") {
    // The plane on body j's motion now belongs to i: place it under the ellipsoid carried by j.
    const Scene swapped = ellipsoid_and_plane(axes, centre, Vector3d::Zero(), Vector3d(0.2, 0.1, 1).normalized(), false);
    const Geometry gs = swapped(kBodyJ.at(0), kBodyI.at(0));
    const Vector3d point_i = kBodyJ.at(0).A.transpose() * (gs.contact.point_j - kBodyJ.at(0).r);
    check_against_differences(ellipsoid_and_plane(axes, centre, point_i, Vector3d(0.2, 0.1, 1).normalized(), false), kBodyJ,
                              kBodyI);
  }
}

TEST_CASE("sliding plane: two spheres of different radii, and a ball in a spherical cavity") {
  SUBCASE("convex on convex") {
    check_against_differences(two_spheres(0.03, {0.01, 0.0, -0.02}, 0.07, {0.0, 0.02, 0.01}), kBodyI, kBodyJ);
  }
  SUBCASE("ball in a cavity") {
    check_against_differences(two_spheres(0.02, {0.01, 0.0, -0.02}, -0.09, {0.0, 0.02, 0.01}), kBodyI, kBodyJ);
  }
}

TEST_CASE("sliding plane: a ball rolling on a fixed plane has no velocity terms") {
  // Radius 0.05 at height 0.05, rolling along x at 2 m/s: omega = v / R about y.
  const double R = 0.05, v = 2;
  ContactResult c;
  c.normal = Vector3d::UnitZ();
  c.point_i = Vector3d(0, 0, 0);
  c.point_j = Vector3d(0, 0, 0);
  const ContactShapes shapes{sphere_shape_operator(c.normal, R), Matrix3d::Zero()};
  const BodyState ball{{Vector3d(0, 0, R), Matrix3d::Identity()}, Vector3d(v, 0, 0), Vector3d(0, v / R, 0)};
  const SlidingPlane s = sliding_plane(c, shapes, ball, BodyState{});
  CHECK(s.gamma == doctest::Approx(0).scale(1e-12));
  CHECK((s.slide_i - Vector3d(v, 0, 0)).norm() < 1e-12);  // the point runs over the ball at v
  CHECK((s.slide_j - Vector3d(v, 0, 0)).norm() < 1e-12);  // and over the plane
}

TEST_CASE("sliding plane: parallel flat faces are a singular (areal) contact") {
  ContactResult c;
  const SlidingPlane s = sliding_plane(c, ContactShapes{}, BodyState{}, BodyState{});
  CHECK(s.singular);
}

TEST_CASE("shape operator: principal curvatures and directions of a surface from any parameterisation") {
  // z = -(k1 x'^2 + k2 y'^2) / 2 with (x', y') turned by phi, normal +z at the origin: convex.
  const double k1 = 3, k2 = -0.5, angle = 0.4;
  const Eigen::Matrix2d R = Eigen::Rotation2Dd(angle).toRotationMatrix();
  const Eigen::Matrix2d H = R * Eigen::Vector2d(k1, k2).asDiagonal() * R.transpose();  // Hessian of -z
  const Vector3d n = Vector3d::UnitZ(), p_u = Vector3d::UnitX(), p_v = Vector3d::UnitY();
  const Vector3d n_u(H(0, 0), H(0, 1), 0), n_v(H(1, 0), H(1, 1), 0);  // d/du of (-z_u, -z_v, 1) normalised at 0
  // Skewed parameters s = u - t/4, t = v / 2: p_s = p_u, p_t = p_u / 4 + 2 p_v.
  for (const auto& [a, b] : {std::pair{Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1)},
                             std::pair{Eigen::Vector2d(1, 0), Eigen::Vector2d(0.25, 2)}}) {
    const Matrix3d W = shape_operator(a.x() * p_u + a.y() * p_v, b.x() * p_u + b.y() * p_v, a.x() * n_u + a.y() * n_v,
                                      b.x() * n_u + b.y() * n_v, n);
    CHECK((W - W.transpose()).norm() < 1e-12);
    CHECK((W * n).norm() < 1e-12);
    const Vector3d e1(std::cos(angle), std::sin(angle), 0), e2(-std::sin(angle), std::cos(angle), 0);
    CHECK((W * e1 - k1 * e1).norm() < 1e-12);
    CHECK((W * e2 - k2 * e2).norm() < 1e-12);
  }
  CHECK(shape_operator(p_u, Vector3d::Zero(), n_u, Vector3d::Zero(), n).norm() == 0);  // a pole
}

}  // namespace surfdb
