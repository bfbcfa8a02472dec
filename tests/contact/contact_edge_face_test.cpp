// An edge against a face (contact_edge_face.hpp) at fixed states, against its closed forms: a
// circle of radius rho touching a plane by delta0 carries the point law, K delta0^n (the
// indentation reported is delta0), under its lowest point along the plane's normal; a straight edge
// lying flat at depth delta carries K sqrt(L) delta^(n - 1/2) / B(1/2, n + 1/2); the normal turns
// with the side the face is on; points deeper than the reach are no contact.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/temp_dir.hpp"
#include "surfdb/contact/contact_edge_face.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

constexpr double pi = std::numbers::pi;

// The plane z = 0 over x, y in [0, 60] mm, its normal +z.
std::shared_ptr<const Database> plane(const TempDir& dir) {
  AnalyticSpec spec;
  spec.kind = AnalyticKind::plane;
  spec.length = 60;
  ConvertOptions o;
  o.grid = {61, 61};
  o.record = {10, 10};
  convert_surface(*make_analytic_surface(spec), o, dir / "plane.sdb");
  return Database::open(dir / "plane.sdb");
}

// A circle of radius rho (mm) in the x-z plane, centred at (30, 30, z0), points 1 degree apart.
SetEdge rim(double rho, double z0) {
  SetEdge e;
  for (int k = 0; k <= 360; ++k) {
    const double a = k * pi / 180;
    e.points.push_back({30 + rho * std::cos(a), 30, z0 + rho * std::sin(a)});
  }
  return e;
}

ContactResult touch(const TempDir& dir, const SetEdge& edge, bool edge_on_i) {
  const std::shared_ptr<const Database> face = plane(dir);
  ContactOptions o;  // Hertz's n = 3/2, reach 1 mm
  EdgeFaceContact c(edge, 1e-3, {}, face, {}, {}, survey_face(*face), edge_on_i, o);
  return c.evaluate(BodyState{}, BodyState{});
}

}  // namespace

TEST_CASE("an edge on a face: a rim carries the point law, a straight edge K sqrt(L) delta / B, the normal the face's") {
  TempDir dir;
  const double delta0 = 2e-4;  // mm
  SUBCASE("a circle of radius 5 mm pressed 0.2 um into the plane: the point law at its lowest point") {
    // catches: k' from the edge's length (a full circle's 31 mm: delta 1.5 times off), the depth
    // linear between the points (the polygon's corner 0.19 um lower than the circle).
    const ContactResult r = touch(dir, rim(5, 5 - delta0), true);
    REQUIRE(r.in_contact());
    CHECK(r.indentation == doctest::Approx(delta0 * 1e-3).epsilon(1e-3));
    CHECK((r.normal - Eigen::Vector3d::UnitZ()).norm() < 1e-12);
    // The load's centroid on the rim: under the lowest point, at the mean depth the load weighs,
    // the integral of delta^2 over that of delta for delta = delta0 (1 - u^2): 0.8 delta0 deep.
    CHECK(r.point_i.x() == doctest::Approx(0.030).epsilon(1e-6));
    CHECK(r.point_i.z() == doctest::Approx(-0.8 * delta0 * 1e-3).epsilon(1e-3));
    CHECK(r.point_j.z() == doctest::Approx(0).scale(1e-12));  // its foot on the plane
  }
  SUBCASE("a straight edge 40 mm long lying 0.2 um deep: K sqrt(L) delta^(n - 1/2) / B") {
    SetEdge line;
    for (int k = 0; k <= 80; ++k) line.points.push_back({10 + 0.5 * k, 30, -delta0});
    const ContactResult r = touch(dir, line, true);
    REQUIRE(r.in_contact());
    const double L = 0.04, delta = delta0 * 1e-3, B = 4.0 / 3;
    CHECK(std::pow(r.indentation, 1.5) == doctest::Approx(std::sqrt(L) * delta / B).epsilon(1e-9));
    CHECK(r.point_i.x() == doctest::Approx(0.030).epsilon(1e-12));  // the uniform load's middle
  }
  SUBCASE("the face on body i: the normal out of body j's material is the face's reversed") {
    // catches: the normal left as the face's when the face is body i's (the force pulling the
    // bodies together).
    const ContactResult r = touch(dir, rim(5, 5 - delta0), false);
    REQUIRE(r.in_contact());
    CHECK((r.normal + Eigen::Vector3d::UnitZ()).norm() < 1e-12);
    CHECK(r.point_j.z() == doctest::Approx(-0.8 * delta0 * 1e-3).epsilon(1e-3));  // the edge is j's
  }
  SUBCASE("a rim wholly 5 to 15 mm behind the plane, beyond the 1 mm reach: nothing, as a far face's") {
    // catches: points behind a face counted at any depth (a rim on a plate's top against its bottom).
    CHECK_FALSE(touch(dir, rim(5, -10), true).in_contact());
  }
  SUBCASE("a rim 10 um above the plane: apart") {
    const ContactResult r = touch(dir, rim(5, 5 + 0.01), true);
    CHECK_FALSE(r.in_contact());
    CHECK(r.gap >= 0);
  }
}
