// A sphere against a tabulated edge (contact_sphere_edge.hpp), against closed forms: on a straight
// convex edge the contact is the sphere's overlap of the edge line, at the nearest point, along
// the line from it to the centre, with the elastic energy of a point contact of that depth; no
// load where a face holds the sphere (outside the normal cone); on a ring (a hole's rim) the
// resultant is along the axis, from the load per length integrated around it.
#include "surfdb/contact/contact_sphere_edge.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

using namespace surfdb;
using Eigen::Vector3d;

namespace {

constexpr double R = 0.005;  // m

BodyState at(const Vector3d& r) {
  BodyState s;
  s.pose.r = r;
  return s;
}

// A box's edge along y at x = 0, z = 0 (mm): the top face (normal +z) lies at x < 0, the side
// face (normal +x) at z < 0. Points 0.5 mm apart from y = -10 to 10.
SetEdge box_edge() {
  SetEdge e;
  e.index = 1;
  e.kind = EdgeKind::convex;
  e.sides = {{1, {}, {}}, {2, {}, {}}};
  for (int k = 0; k <= 40; ++k) {
    e.points.push_back({0, -10 + 0.5 * k, 0});
    e.sides[0].normal.push_back({0, 0, 1});
    e.sides[0].inward.push_back({-1, 0, 0});
    e.sides[1].normal.push_back({1, 0, 0});
    e.sides[1].inward.push_back({0, 0, -1});
  }
  return e;
}

// A hole's rim: a circle of radius r (mm) about the z axis at z = 0, 0.25 degrees apart, the top face
// (normal +z) outside it and the hole's wall (normal towards the axis) below.
SetEdge rim(double r) {
  SetEdge e;
  e.index = 1;
  e.kind = EdgeKind::convex;
  e.sides = {{1, {}, {}}, {2, {}, {}}};
  for (int k = 0; k <= 1440; ++k) {
    const double a = 2 * std::numbers::pi * k / 1440, c = std::cos(a), s = std::sin(a);
    e.points.push_back({r * c, r * s, 0});
    e.sides[0].normal.push_back({0, 0, 1});
    e.sides[0].inward.push_back({c, s, 0});
    e.sides[1].normal.push_back({-c, -s, 0});
    e.sides[1].inward.push_back({0, 0, -1});
  }
  return e;
}

}  // namespace

TEST_CASE("a sphere over a straight convex edge: its overlap of the line, at the nearest point") {
  // catches: the load's exponent n instead of n - 1/2 (depth off by a power), the chord's scale
  // without sqrt(2R) B(1/2, n + 1/2) (a constant factor), the normal from the edge not to the centre.
  SphereEdgeContact edge(Sphere{Vector3d::Zero(), R}, box_edge(), 1e-3, SurfaceMount{}, 1.5);
  const double angle = 0.6, delta = 2e-6;  // rad from the vertical, m
  const Vector3d n(std::sin(angle), 0, std::cos(angle));
  const ContactResult r = edge.evaluate(at(Vector3d(0, 1e-3, 0) + (R - delta) * n), at(Vector3d::Zero()));
  REQUIRE(r.in_contact());
  CHECK(r.indentation == doctest::Approx(delta).epsilon(1e-3));
  CHECK((r.normal - n).norm() < 1e-9);
  CHECK((r.point_j - Vector3d(0, 1e-3, 0)).norm() < 1e-3 * delta);
  // The elastic energy of the load along the chord is a point contact's, K delta^(5/2) / (5/2).
  CHECK(r.energy_indentation == doctest::Approx(delta).epsilon(1e-3));
}

TEST_CASE("a sphere over a face next to the edge: no load on the edge, the face holds it") {
  SphereEdgeContact edge(Sphere{Vector3d::Zero(), R}, box_edge(), 1e-3, SurfaceMount{}, 1.5);
  // Centre above the top face (x < 0), overlapping the edge line by 1 um: outside the cone.
  const ContactResult r = edge.evaluate(at(Vector3d(-1e-5, 0, R - 1e-6)), at(Vector3d::Zero()));
  CHECK_FALSE(r.in_contact());
  // Beside the side face (z < 0), likewise.
  CHECK_FALSE(edge.evaluate(at(Vector3d(R - 1e-6, 0, -1e-5)), at(Vector3d::Zero())).in_contact());
  // Past the edge's end the nearest point is its end: apart, by the distance beyond R.
  const ContactResult far = edge.evaluate(at(Vector3d(0, 0.0112, 0.0049)), at(Vector3d::Zero()));
  CHECK_FALSE(far.in_contact());
}

TEST_CASE("a sphere on a ring: the resultant along the axis, from the load around the ring") {
  // catches: one point of the ring taken for the whole (a tilted normal), the cone of a rim point
  // tested with the wrong face's direction (no load at all).
  const double r = 3.0;  // mm
  SphereEdgeContact edge(Sphere{Vector3d::Zero(), R}, rim(r), 1e-3, SurfaceMount{}, 1.5);
  const double overlap = 1e-6;
  const double d = R - overlap, height = std::sqrt(d * d - 9e-6);  // the centre's height at that overlap
  const ContactResult c = edge.evaluate(at(Vector3d(0, 0, height)), at(Vector3d::Zero()));
  REQUIRE(c.in_contact());
  CHECK((c.normal - Vector3d::UnitZ()).norm() < 1e-9);
  // The ring's load, k' delta^(1) per length along (c - x)/|c - x|, summed vertically: 2 pi r k'
  // delta h/R; the point law gives K delta_eq^(3/2) with K = k' sqrt(2R) B(1/2, 2), B(1/2, 2) = 4/3.
  // The rim's points form a polygon inscribed in the circle, its sides' middles r (1 - cos 0.125 deg)
  // = 7 nm closer to the axis: 0.4 % more overlap there.
  const double load = 2 * std::numbers::pi * 3e-3 * overlap * (height / d);
  const double depth = std::pow(load / (std::sqrt(2 * R) * 4.0 / 3), 2.0 / 3);
  CHECK(c.indentation == doctest::Approx(depth).epsilon(0.01));
}
