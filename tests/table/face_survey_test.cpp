// The survey of a table's face against the surfaces' own geometry: a plane is flat, a cylinder
// cylindrical (its normals perpendicular to its axis), a sphere and a torus curved; the box holds
// the face's points and no more than a sample step beyond them.
#include <doctest/doctest.h>

#include <cmath>

#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/table/face_survey.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

FaceSurvey survey(const TempDir& dir, AnalyticKind kind) {
  AnalyticSpec spec;
  spec.kind = kind;
  spec.radius = 20;
  spec.minor_radius = 5;
  spec.length = 60;
  ConvertOptions o;
  o.grid = {41, 41};
  o.record = {10, 10};
  const std::filesystem::path path = dir / "face.sdb";
  std::filesystem::remove(path);
  convert_surface(*make_analytic_surface(spec), o, path);
  return survey_face(*Database::open(path));
}

}  // namespace

TEST_CASE("a face's survey: flat, cylindrical or curved from its normals, and its box") {
  // catches: a plane with a tilted or flipped normal anywhere called flat, a cylinder's axis taken
  // from two parallel normals (every cylinder then curved), a sphere called cylindrical.
  TempDir dir;
  CHECK(survey(dir, AnalyticKind::plane).shape == SurfaceShape::flat);
  CHECK(survey(dir, AnalyticKind::cylinder).shape == SurfaceShape::cylindrical);
  CHECK(survey(dir, AnalyticKind::sphere).shape == SurfaceShape::curved);
  CHECK(survey(dir, AnalyticKind::torus).shape == SurfaceShape::curved);
  CHECK(survey(dir, AnalyticKind::octant).shape == SurfaceShape::curved);
  // The largest curvature: 0 for the plane, 1/R for the cylinder and the sphere (chords of 9
  // degrees: the angle over the chord is 1/R to 0.1 %).
  // catches: the curvature taken in 1/m for a table in mm, or from the normals' chord not angle.
  CHECK(survey(dir, AnalyticKind::plane).max_curvature == doctest::Approx(0).scale(1e-12));
  CHECK(survey(dir, AnalyticKind::cylinder).max_curvature == doctest::Approx(1.0 / 20).epsilon(2e-3));
  CHECK(survey(dir, AnalyticKind::sphere).max_curvature == doctest::Approx(1.0 / 20).epsilon(2e-3));
  // The cylinder (radius 20, 60 long): its box holds the points, within one sample step (the grid's
  // 40 steps: 2 pi 20 / 40 = 3.14 mm around, 1.5 mm along) of them.
  const FaceSurvey c = survey(dir, AnalyticKind::cylinder);
  const Eigen::Vector3d size = c.high - c.low;
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(size[k] >= (k < 2 ? 40.0 : 60.0));
    CHECK(size[k] <= (k < 2 ? 40.0 : 60.0) + 2 * 3.15);
  }
}

TEST_CASE("a face's principal box holds its points and bounds it where the axis-aligned box cannot") {
  // The octant of a sphere of radius 20 (the first octant, x, y, z >= 0): its axis-aligned box is
  // [0, 20]^3 and holds the sphere's centre; along the diagonal (1, 1, 1) / sqrt(3), one of its
  // principal axes, its points lie from 20 / sqrt(3) = 11.5 (at the octant's corners) to 20, so
  // the principal box puts the centre about 11.5 mm outside (less the sample step it is grown by).
  // catches: the points taken along the axes' rows instead of their columns, a box not grown.
  TempDir dir;
  const FaceSurvey o = survey(dir, AnalyticKind::octant);
  CHECK((o.axes.transpose() * o.axes - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((Eigen::Vector3d::Zero() - Eigen::Vector3d::Zero().cwiseMax(o.low).cwiseMin(o.high)).norm() == 0);
  CHECK(o.distance_outside(Eigen::Vector3d::Zero()) > 9.0);
  for (const Eigen::Vector3d p : {Eigen::Vector3d(20, 0, 0), Eigen::Vector3d(0, 20, 0), Eigen::Vector3d(0, 0, 20),
                                  Eigen::Vector3d(Eigen::Vector3d::Constant(20 / std::sqrt(3.0)))})
    CHECK(o.distance_outside(p) == 0);
  CHECK(o.distance_outside(Eigen::Vector3d(0, 0, 25)) == doctest::Approx(5).epsilon(0.5));  // beyond both boxes
}
