// Analytic primitive contacts against hand-derived configurations (Corral et al. 2021, §3).
#include "surfdb/contact/contact_primitives.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <vector>

#include "surfdb/contact/contact_wrench.hpp"

using namespace surfdb;
using Eigen::Vector3d;

namespace {
BodyState body(const Vector3d& r = Vector3d::Zero(), const Eigen::Matrix3d& A = Eigen::Matrix3d::Identity()) {
  BodyState s;
  s.pose.r = r;
  s.pose.A = A;
  return s;
}
// The primitives are closed forms: their errors are rounding only, measured at most 5.6e-16 for
// vectors and 1.7e-16 for scalars (coordinates up to 3.7 m). Bound 5e-15, ten ulps of the largest
// coordinate so that fused multiply-adds elsewhere still pass. (It was 1e-12 for vectors and
// doctest's Approx for scalars, which below 1 is 1.2e-5 absolute: 1.2 % of a 1 mm indentation
// and 2.4 % of a 0.5 mm one.)
bool near(const Vector3d& a, const Vector3d& b, double tol = 5e-15) { return (a - b).norm() < tol; }
bool near(double a, double b, double tol = 5e-15) { return std::abs(a - b) < tol; }
const Sphere ball{Vector3d::Zero(), 0.01};
}  // namespace

TEST_CASE("sphere on a tilted plane") {
  // catches: the plane's normal not turned with its body (z instead of n: 30 degrees), point_i and
  // point_j swapped (1 mm), the rate of the tangential velocity instead of the normal one.
  const Eigen::Matrix3d tilt = Eigen::AngleAxisd(M_PI / 6, Vector3d::UnitX()).toRotationMatrix();
  const Vector3d n(0, -0.5, std::sqrt(3) / 2);
  const Vector3d c = Vector3d(0.2, 0, 0) + 0.009 * n;
  BodyState i = body(c);
  i.velocity = {0, 0, -1};
  const ContactResult r = contact_sphere_plane(i, ball, body(Vector3d::Zero(), tilt), Plane{});
  CHECK(r.status == ContactStatus::touching);
  CHECK(near(r.indentation, 0.001));
  CHECK(near(r.normal, n));
  CHECK(near(r.point_i, c - 0.01 * n));
  CHECK(near(r.point_j, c - 0.009 * n));
  CHECK(near(r.indentation_rate, std::sqrt(3) / 2));
  CHECK(near(r.tangential_velocity, Vector3d(0, 0, -1) + std::sqrt(3) / 2 * n));
  const ContactResult apart = contact_sphere_plane(body(c + 0.002 * n), ball, body(Vector3d::Zero(), tilt), Plane{});
  CHECK(apart.status == ContactStatus::separated);
  CHECK(near(apart.gap, 0.001));
}

TEST_CASE("two spheres, and a ball in a spherical cup") {
  const ContactResult r = contact_sphere_sphere(body({0, 0, 0.019}), ball, body(), Sphere{Vector3d::Zero(), 0.01});
  CHECK(near(r.indentation, 0.001));
  CHECK(near(r.normal, Vector3d::UnitZ()));
  CHECK(near(r.point_i, Vector3d(0, 0, 0.009)));
  CHECK(near(r.point_j, Vector3d(0, 0, 0.010)));
  CHECK(near(r.curvature_j, 100));

  // Ball centre (0, 0.03, -0.03) in a cup of 50 mm: delta = |d| - 40 mm, normal back to the centre.
  const Vector3d d(0, 0.03, -0.03);
  // catches: the cavity's normal pointing out of the cup (pi rad), its curvature with the convex
  // sign (+20), the indentation of external contact (|d| - 60 mm).
  const ContactResult cup = contact_sphere_in_sphere(body(d), ball, body(), Sphere{Vector3d::Zero(), 0.05});
  CHECK(cup.status == ContactStatus::touching);
  CHECK(near(cup.indentation, d.norm() - 0.04));
  CHECK(near(cup.normal, -d.normalized()));
  CHECK(near(cup.point_j, 0.05 * d.normalized()));
  CHECK(near(cup.curvature_j, -20));
  const ContactResult floating = contact_sphere_in_sphere(body({0, 0, -0.02}), ball, body(), Sphere{Vector3d::Zero(), 0.05});
  CHECK(floating.status == ContactStatus::separated);
  CHECK(near(floating.gap, 0.02));
  CHECK(contact_sphere_in_sphere(body(), ball, body(), Sphere{Vector3d::Zero(), 0.05}).status == ContactStatus::singular);
  // A ball outside the cup's sphere touches nothing (catches the wall pulling it in from outside).
  const ContactResult outside = contact_sphere_in_sphere(body({0, 0, -0.055}), ball, body(), Sphere{Vector3d::Zero(), 0.05});
  CHECK(outside.status == ContactStatus::separated);
}

TEST_CASE("a ball in a capped cavity: inside the cap as in the whole sphere, beyond the rim apart") {
  const Sphere cup{Vector3d::Zero(), 0.05};
  const CavityCap hemisphere{Vector3d::UnitZ(), 0.05};  // cup.step's: the half below the centre's plane
  // Inside the cap (the wall point 45 degrees below the rim): the same result as the whole sphere.
  const Vector3d below(0, 0.03, -0.0305);
  const ContactResult capped = contact_sphere_in_sphere(body(below), ball, body(), cup, hemisphere);
  const ContactResult whole = contact_sphere_in_sphere(body(below), ball, body(), cup);
  CHECK(capped.status == ContactStatus::touching);
  CHECK(capped.indentation == whole.indentation);
  CHECK(near(capped.normal, whole.normal));
  // The wall point above the rim's plane: no contact, though the whole sphere would be indented
  // (catches: the cap measured from the centre rather than the lowest point, the axis reversed).
  const Vector3d above(0, 0.0405, 0.012);
  CHECK(contact_sphere_in_sphere(body(above), ball, body(), cup).status == ContactStatus::touching);
  const ContactResult out = contact_sphere_in_sphere(body(above), ball, body(), cup, hemisphere);
  CHECK(out.status == ContactStatus::separated);
  CHECK(out.indentation == 0);
  // Gap to the rim circle (radius 50 mm in the plane z = 0): from (0, 0.0405, 0.012) to (0, 0.05, 0).
  CHECK(near(out.gap, std::hypot(0.05 - 0.0405, 0.012) - 0.01));
  CHECK(near(out.point_j, Vector3d(0, 0.05, 0)));
  // A shallower cap (10 mm from the bottom): the first wall point, 14.3 mm up, is beyond its rim.
  CHECK(contact_sphere_in_sphere(body(below), ball, body(), cup, {Vector3d::UnitZ(), 0.01}).status ==
        ContactStatus::separated);
  // The cup turned upside down in its body (axis -z): the ball below the centre is beyond its rim;
  // a rotated body turns the axis with it (catches the axis taken in world axes).
  CHECK(contact_sphere_in_sphere(body(below), ball, body(), cup, {-Vector3d::UnitZ(), 0.05}).status ==
        ContactStatus::separated);
  const Eigen::Matrix3d flip = Eigen::AngleAxisd(M_PI, Vector3d::UnitX()).toRotationMatrix();
  CHECK(contact_sphere_in_sphere(body(below), ball, body(Vector3d::Zero(), flip), cup, hemisphere).status ==
        ContactStatus::separated);
}

TEST_CASE("a ball in a closed cylinder touches the wall, the bases, or a wall and a base at once") {
  const CylinderCavity can{Vector3d::Zero(), Vector3d::UnitZ(), 0.05, 0.1};
  const auto touching = [](const CylinderCavityContacts& c) {
    return std::vector<bool>{c[kWall].in_contact(), c[kBottom].in_contact(), c[kTop].in_contact()};
  };
  // catches: only the deeper of a wall and a base contact reported, wall and base results in each
  // other's slots, the axis taken in world axes rather than the body's (the lying can).
  const CylinderCavityContacts corner = contact_sphere_in_cylinder(body({0.0405, 0, 0.0095}), ball, body(), can);
  CHECK(touching(corner) == std::vector<bool>{true, true, false});
  CHECK(near(corner[kWall].indentation, 0.0005));
  CHECK(near(corner[kWall].normal, -Vector3d::UnitX()));
  CHECK(near(corner[kWall].point_j, Vector3d(0.05, 0, 0.0095)));
  CHECK(near(corner[kBottom].indentation, 0.0005));
  CHECK(near(corner[kBottom].normal, Vector3d::UnitZ()));
  const CylinderCavityContacts top = contact_sphere_in_cylinder(body({0, 0, 0.095}), ball, body(), can);
  CHECK(touching(top) == std::vector<bool>{false, false, true});
  CHECK(near(top[kTop].indentation, 0.005));
  CHECK(near(top[kTop].normal, -Vector3d::UnitZ()));
  CHECK(near(top[kWall].gap, 0.04));  // on the axis: the radial clearance
  const CylinderCavityContacts free = contact_sphere_in_cylinder(body({0.01, 0, 0.05}), ball, body(), can);
  CHECK(touching(free) == std::vector<bool>{false, false, false});
  CHECK(near(free[kWall].gap, 0.03));
  CHECK(near(free[kBottom].gap, 0.04));
  // Outside the can nothing is touched: above the lid, beside the wall (catches a lid or wall that
  // pulls a ball outside it inwards).
  for (const Vector3d& outside : {Vector3d(0, 0, 0.103), Vector3d(0.052, 0, 0.05)})
    CHECK(touching(contact_sphere_in_cylinder(body(outside), ball, body(), can)) == std::vector<bool>{false, false, false});
  // The same can lying on its side (axis along x) in a body moved to (1, 2, 3).
  const Eigen::Matrix3d side = Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitY()).toRotationMatrix();
  const CylinderCavityContacts lying = contact_sphere_in_cylinder(body(Vector3d(1, 2, 3) + Vector3d(0.05, 0, -0.0405)),
                                                                  ball, body({1, 2, 3}, side), can);
  CHECK(touching(lying) == std::vector<bool>{true, false, false});
  CHECK(near(lying[kWall].indentation, 0.0005));
  CHECK(near(lying[kWall].normal, Vector3d::UnitZ()));
}

TEST_CASE("a ball against a solid cylinder: lateral surface, base, rim, and from inside") {
  // A rod of radius 20 mm, 100 mm long along z, centred at the origin; the ball's radius is 10 mm.
  // catches: the length read as a half-length, rims treated as bases (normal along the axis
  // instead of the diagonal), the inside push along the wrong normal, the body's rotation left out.
  const Cylinder rod{Vector3d::Zero(), Vector3d::UnitZ(), 0.02, 0.1};
  const ContactResult wall = contact_sphere_cylinder(body({0.029, 0, 0.03}), ball, body(), rod);
  CHECK(near(wall.indentation, 0.001));
  CHECK(near(wall.normal, Vector3d::UnitX()));
  CHECK(near(wall.point_j, Vector3d(0.02, 0, 0.03)));
  CHECK(wall.curvature_j == doctest::Approx(25.0));  // 1 / (2 R)
  const ContactResult base = contact_sphere_cylinder(body({0.01, 0.005, 0.0595}), ball, body(), rod);
  CHECK(near(base.indentation, 0.0005));
  CHECK(near(base.normal, Vector3d::UnitZ()));
  CHECK(near(base.point_j, Vector3d(0.01, 0.005, 0.05)));
  const ContactResult below = contact_sphere_cylinder(body({0, 0, -0.061}), ball, body(), rod);
  CHECK(below.status == ContactStatus::separated);
  CHECK(near(below.gap, 0.001));
  CHECK(near(below.normal, -Vector3d::UnitZ()));
  // Off the rim along the diagonal: 7 mm from the rim point (0.02, 0, 0.05), 3 mm deep.
  const Vector3d diagonal = Vector3d(1, 0, 1).normalized();
  const ContactResult rim = contact_sphere_cylinder(body(Vector3d(0.02, 0, 0.05) + 0.007 * diagonal), ball, body(), rod);
  CHECK(near(rim.indentation, 0.003));
  CHECK(near(rim.normal, diagonal));
  CHECK(near(rim.point_j, Vector3d(0.02, 0, 0.05)));
  // Centre inside, nearer the wall (4 mm) than the top (40 mm): out through the wall, 14 mm deep.
  const ContactResult inside = contact_sphere_cylinder(body({0, 0.016, 0.01}), ball, body(), rod);
  CHECK(near(inside.indentation, 0.014));
  CHECK(near(inside.normal, Vector3d::UnitY()));
  // Centre inside, nearer the bottom (2 mm) than the wall (20 mm): out through the bottom.
  const ContactResult bottom = contact_sphere_cylinder(body({0, 0, -0.048}), ball, body(), rod);
  CHECK(near(bottom.indentation, 0.012));
  CHECK(near(bottom.normal, -Vector3d::UnitZ()));
  // The rod lying along x in a body at (1, 2, 3): a ball above its middle touches the wall, normal +z.
  const Eigen::Matrix3d side = Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitY()).toRotationMatrix();
  const ContactResult lying = contact_sphere_cylinder(body({1, 2, 3.029}), ball, body({1, 2, 3}, side), rod);
  CHECK(near(lying.indentation, 0.001));
  CHECK(near(lying.normal, Vector3d::UnitZ()));
}

TEST_CASE("a ball against a box: face, edge, corner, and from inside") {
  // catches: edges and corners treated as faces (normal along an axis instead of the diagonal),
  // half-sizes read as full sizes, the box's rotation left out.
  const Box box{Vector3d::Zero(), Eigen::Matrix3d::Identity(), Vector3d(0.1, 0.05, 0.02)};
  const ContactResult face = contact_sphere_box(body({0.03, 0.01, 0.029}), ball, body(), box);
  CHECK(near(face.indentation, 0.001));
  CHECK(near(face.normal, Vector3d::UnitZ()));
  CHECK(near(face.point_j, Vector3d(0.03, 0.01, 0.02)));

  const Vector3d edge_dir = Vector3d(1, 0, 1).normalized();
  const ContactResult edge = contact_sphere_box(body(Vector3d(0.1, 0.01, 0.02) + 0.009 * edge_dir), ball, body(), box);
  CHECK(near(edge.indentation, 0.001));
  CHECK(near(edge.normal, edge_dir));
  CHECK(near(edge.point_j, Vector3d(0.1, 0.01, 0.02)));

  const Vector3d corner_dir = Vector3d(-1, 1, -1).normalized();
  const Vector3d corner(-0.1, 0.05, -0.02);
  const ContactResult c = contact_sphere_box(body(corner + 0.011 * corner_dir), ball, body(), box);
  CHECK(c.status == ContactStatus::separated);
  CHECK(near(c.gap, 0.001));
  CHECK(near(c.normal, corner_dir));
  CHECK(near(c.point_j, corner));

  const ContactResult inside = contact_sphere_box(body({0.095, 0, 0}), ball, body(), box);
  CHECK(near(inside.indentation, 0.015));  // radius + depth below the nearest face
  CHECK(near(inside.normal, Vector3d::UnitX()));

  // Turned a quarter about z, the box's x face faces world y.
  const Eigen::Matrix3d quarter = Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitZ()).toRotationMatrix();
  const ContactResult turned = contact_sphere_box(body({0, 0.109, 0}), ball, body(Vector3d::Zero(), quarter), box);
  CHECK(near(turned.indentation, 0.001));
  CHECK(near(turned.normal, Vector3d::UnitY()));
}

TEST_CASE("the contact wrench exchanges force and angular momentum exactly") {
  const ContactResult r = contact_sphere_sphere(body({0.1, 0.2, 0.019}), ball, body({0.1, 0.2, 0}), Sphere{Vector3d::Zero(), 0.01});
  const Pose pi{{0.1, 0.25, 0.019}, Eigen::Matrix3d::Identity()}, pj{{0.13, 0.2, -0.01}, Eigen::Matrix3d::Identity()};
  const ContactWrench w = contact_wrench(r, 7.5, Vector3d(0.3, -0.2, 0), pi, pj);
  CHECK(near(w.force_i, Vector3d(0.3, -0.2, 7.5)));
  CHECK(near(w.force_i + w.force_j, Vector3d::Zero()));
  const Vector3d total = pi.r.cross(w.force_i) + w.torque_i + pj.r.cross(w.force_j) + w.torque_j;
  // catches: torques about the world origin instead of each body's reference point, the friction
  // force left out of the torque.
  CHECK(total.norm() < 1e-14);
  CHECK(near(w.torque_i, (w.application_point - pi.r).cross(w.force_i)));
}

