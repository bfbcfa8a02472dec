// Periodic seams, trimmed cells, float32 tables and damaged records at query time.
#include <doctest/doctest.h>

#include <numbers>

#include "../support/damaged_table.hpp"
#include "../support/occt_faces.hpp"
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
  const double bound = (du * du * 38 + dv * dv * 8) / 8;
  for (auto [u, v] : {std::pair{2 * pi + 0.1, 0.2}, {-0.003, 1.0}, {0.5, -0.004}, {4 * pi - 1e-9, 2 * pi + 0.01}, {-7.0, 13.0}}) {
    const SurfacePoint s = b.query(u, v);
    CAPTURE(u);
    CAPTURE(v);
    CHECK(s.status == QueryStatus::valid);
    CHECK((s.p - torus(u, v)).norm() <= bound);
    CHECK(s.u >= 0);
    CHECK(s.u <= 2 * pi);
  }
  // Continuity across the seam u = 0 = 2 pi.
  CHECK((b.query(-1e-9, 0.7).p - b.query(1e-9, 0.7).p).norm() < 1e-6);
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
  CHECK(b.query(1.5 + 0.34, 0.5 + 0.34).status == QueryStatus::invalid_cell);  // corner of the square
  const SurfacePoint trimmed = b.query(1.06, 0.06);
  CHECK(trimmed.status == QueryStatus::invalid_cell);
  CHECK(trimmed.p.allFinite());
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
  for (double u : {0.1, 0.77, 1.3}) {
    const SurfacePoint x = a.query(u, 0.4), y = b.query(u, 0.4);
    CHECK((x.p - y.p).norm() < 50 * 1e-6);
    CHECK((x.n - y.n).norm() < 1e-6);
  }
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
