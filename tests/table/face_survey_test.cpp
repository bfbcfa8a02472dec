// The survey of a table's face against the surfaces' own geometry: a plane is flat, a cylinder
// cylindrical (its normals perpendicular to its axis), a sphere and a torus curved; the box holds
// the face's points and no more than a sample step beyond them.
#include <doctest/doctest.h>

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
