// Periodic seams, trimmed cells, float32 tables and damaged records at query time.
#include <doctest/doctest.h>

#include <numbers>

#include "../support/damaged_table.hpp"
#include "../support/node_values.hpp"
#include "../support/occt_faces.hpp"
#include "../support/octant_fixture.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/table/surface_binding.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;
constexpr double pi = std::numbers::pi;

namespace {
Vector3d torus(double u, double v) {
  const double w = 30 + 8 * std::cos(v);
  return {w * std::cos(u), w * std::sin(u), 8 * std::sin(v)};
}
}  // namespace

TEST_CASE("queries wrap across the seams of a torus") {
  TempDir dir;
  AnalyticSpec spec;
  spec.kind = AnalyticKind::torus;
  spec.radius = 30;
  spec.minor_radius = 8;
  ConvertOptions o;
  o.grid = {361, 181};
  o.record = {20, 20};
  convert_surface(*make_analytic_surface(spec), o, dir / "torus.sdb");
  SurfaceBinding b(Database::open(dir / "torus.sdb"), {3, 3});
  const double du = 2 * pi / 360, dv = 2 * pi / 180;
  const double bound = (du * du * 38 + dv * dv * 8) / 8;  // chord bound, |s_uu| <= 38, |s_vv| = 8
  // catches: a query past the period not wrapped (outside_domain), wrapped by the wrong period,
  // u and v periods swapped (2 pi both here, but the grids differ: 361 vs 181 points).
  for (auto [u, v] : {std::pair{2 * pi + 0.1, 0.2}, {-0.003, 1.0}, {0.5, -0.004}, {4 * pi - 1e-9, 2 * pi + 0.01}, {-7.0, 13.0}}) {
    const SurfacePoint s = b.query(u, v);
    CAPTURE(u);
    CAPTURE(v);
    CHECK(s.status == QueryStatus::valid);
    CHECK((s.p - torus(u, v)).norm() <= bound);
    CHECK(s.u >= 0);
    CHECK(s.u <= 2 * pi);
  }
  // Continuity across the seam u = 0 = 2 pi: 2e-9 rad apart on the circle of radius
  // 30 + 8 cos 0.7 = 36.1 mm is 7.2e-8 mm, measured 7.2e-8 mm. Bound 1.5e-7 mm, twice the arc
  // (was 1e-6 mm, 14 times).
  const double seam = (b.query(-1e-9, 0.7).p - b.query(1e-9, 0.7).p).norm();
  MESSAGE("torus: across the seam " << seam << " mm");
  // catches: the seam's cell taken from the first column twice (a jump of a cell, 0.66 mm), a
  // period of 2 pi - du.
  CHECK(seam < 1.5e-7);
}

TEST_CASE("a cell with a trimmed-away corner reports invalid_cell") {
  TempDir dir;
  const gp_Pnt2d centre(1.5, 0.5);
  write_brep(disk_face(make_bspline(false), centre, 0.45), dir / "disk.brep");
  ConvertOptions o;
  o.grid = {91, 91};
  o.record = {10, 10};
  convert_surface(*CadModel::load(dir / "disk.brep").face(1), o, dir / "disk.sdb");
  SurfaceBinding b(Database::open(dir / "disk.sdb"));
  CHECK(b.query(1.5, 0.5).status == QueryStatus::valid);
  // catches: the corners' valid flags ignored at query time (the point is 0.48 from the centre,
  // outside the 0.45 disk, yet the untrimmed surface has values there).
  CHECK(b.query(1.5 + 0.34, 0.5 + 0.34).status == QueryStatus::invalid_cell);  // corner of the square
  const SurfacePoint trimmed = b.query(1.06, 0.06);
  CHECK(trimmed.status == QueryStatus::invalid_cell);
  CHECK(trimmed.p.allFinite());
}

// catches: a cell of a record whose nodes are not all alike given the record's flags (a cell of
// valid corners in a record cut by the trim reported invalid, or the other way); a record's flags
// taken for a cell straddling two records; the record numbered along the wrong axis (the grid is
// not square). The copied window has a database of its own, so its records are checked from
// their copies, not through the mapping.
TEST_CASE("query_d1 reports each cell's status from its four corners' flags, mapped or copied") {
  TempDir dir;
  write_brep(disk_face(make_bspline(false), gp_Pnt2d(1.5, 0.5), 0.45), dir / "disk.brep");
  ConvertOptions o;
  o.grid = {91, 71};
  o.record = {10, 10};  // records cut by the trim, inside it and outside it; cells straddling records
  convert_surface(*CadModel::load(dir / "disk.brep").face(1), o, dir / "disk.sdb");
  const auto truth = Database::open(dir / "disk.sdb");  // the corners' flags, from the file's bytes
  const Header& h = truth->header();
  SurfaceBinding mapped(Database::open(dir / "disk.sdb"), {10, 8}, Residency::direct_mapping);
  SurfaceBinding copied(Database::open(dir / "disk.sdb"), {3, 3}, Residency::window_copy);
  int valid = 0, invalid = 0;
  for (std::uint64_t i = 0; i + 1 < 91; ++i) {
    for (std::uint64_t j = 0; j + 1 < 71; ++j) {
      bool corners_valid = true;
      for (int k = 0; k < 4; ++k)
        corners_valid &= (static_cast<std::uint32_t>(node_values(*truth, i + (k & 1), j + (k >> 1))[FLAGS]) & 1u) != 0;
      const double u = h.u0 + (static_cast<double>(i) + 0.3) * h.du, v = h.v0 + (static_cast<double>(j) + 0.6) * h.dv;
      const QueryStatus expected = corners_valid ? QueryStatus::valid : QueryStatus::invalid_cell;
      CAPTURE(i);
      CAPTURE(j);
      REQUIRE(mapped.query_d1(u, v).status == expected);
      REQUIRE(copied.query_d1(u, v).status == expected);
      (corners_valid ? valid : invalid)++;
    }
  }
  CHECK(valid > 4000);  // the disk covers pi/4 of the square the grid spans, 6300 cells
  CHECK(invalid > 800);
}

TEST_CASE("float32 tables answer within float precision of float64 ones") {
  TempDir dir;
  ConvertOptions o;
  o.grid = {200, 200};
  o.record = {16, 16};
  const auto octant = make_analytic_surface(AnalyticSpec{});
  convert_surface(*octant, o, dir / "f64.sdb");
  o.scalar = ScalarType::f32;
  convert_surface(*octant, o, dir / "f32.sdb");
  SurfaceBinding a(Database::open(dir / "f64.sdb")), b(Database::open(dir / "f32.sdb"));
  // float32 against float64 is a comparison of surfdb with itself; both are also held to the
  // closed form (chord bound of the 200 x 200 grid, 7.8e-4 mm, plus float rounding for f32).
  const double h = std::numbers::pi / 2 / 199, chord = 50 * h * h / 4;
  double worst_p = 0, worst_n = 0, worst_exact = 0;
  for (double u : {0.1, 0.77, 1.3}) {
    const SurfacePoint x = a.query(u, 0.4), y = b.query(u, 0.4);
    worst_p = std::max(worst_p, (x.p - y.p).norm());
    worst_n = std::max(worst_n, (x.n - y.n).norm());
    for (const SurfacePoint* s : {&x, &y}) worst_exact = std::max(worst_exact, (s->p - octant_point(u, 0.4)).norm());
  }
  MESSAGE("float32 - float64: point " << worst_p << " mm, normal " << worst_n << "; from the closed form "
                                      << worst_exact << " mm, chord bound " << chord << " mm");
  // Rounding to float costs half an ulp: up to 2^-19 = 1.9e-6 mm per coordinate below 64 mm, 2^-25
  // = 3e-8 per unit-vector component; over 3 components sqrt(3) times that, 3.3e-6 mm and 5.2e-8.
  // Measured 1.7e-6 mm and 1.2e-8: bounds 4e-6 mm and 5e-8 (were 5e-5 mm and 1e-6, 29 and 86
  // times the error).
  // catches: float32 read as float64 (garbage), a float column offset by one (x read as y).
  CHECK(worst_p < 4e-6);
  CHECK(worst_n < 5e-8);
  CHECK(worst_exact < chord + 50 * 1e-6);
}

TEST_CASE("a damaged record is an error at query time, never used") {
  TempDir dir;
  const Header h = write_damaged_table(dir / "o.sdb");
  SurfaceBinding b(Database::open(dir / "o.sdb"), {1, 1});
  CHECK(b.query(0.05, 0.05).status == QueryStatus::valid);  // record (0, 0) is intact
  const double du = h.du;
  const WindowStats before = b.window().stats();
  CHECK_NOTHROW(b.prefetch(25 * du, 35 * du));  // a hint reads nothing: outside the window it is ignored
  CHECK(b.window().stats().records_read == before.records_read);
  CHECK(b.window().stats().outside_reads == before.outside_reads);
  CHECK_THROWS_WITH_AS(b.query(25 * du, 35 * du), doctest::Contains("data record 14 is damaged"), FormatError);
}
