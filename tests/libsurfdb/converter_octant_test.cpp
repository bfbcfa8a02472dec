// The paper's octant (Machado, Flores and Ambrósio 2014, Eq. 3) at the paper's resolution, checked against the closed-form sphere.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/file_bytes.hpp"
#include "../support/node_values.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/libsurfdb/node_geometry.hpp"
#include "surfdb/formats/error.hpp"

using namespace surfdb;
using namespace surfdb::test;

TEST_CASE("octant 999 x 999 in 27 x 27 records: header and sphere points and normals -p/R and pole") {
  TempDir dir;
  const auto octant = make_analytic_surface(AnalyticSpec{});  // R = 50 mm
  const ConvertReport report = convert_surface(*octant, ConvertOptions{}, dir / "octant.sdb");
  const auto db = Database::open(dir / "octant.sdb");
  const Header& h = db->header();
  CHECK(h.layout.u_points == 999);
  CHECK(h.layout.v_points == 999);
  CHECK(h.layout.u_record_points == 27);
  CHECK(h.layout.u_records == 37);
  CHECK(h.layout.v_records == 37);
  CHECK(h.layout.data_records == 37 * 37);
  CHECK(h.layout.record_bytes == 27 * 27 * 19 * 8);
  CHECK(h.u0 == 0);
  CHECK(h.u1 == std::numbers::pi / 2);
  CHECK(h.du == std::numbers::pi / 2 / 998);
  CHECK(h.invalid_points == 0);
  CHECK(h.degenerate_points == 999);  // the whole row u = pi/2 collapses to the pole
  CHECK(h.meters_per_unit == 1e-3);
  CHECK(report.header.layout.file_bytes == std::filesystem::file_size(dir / "octant.sdb"));

  const double R = 50;
  double worst_radius = 0, worst_normal = 0, worst_frame = 0;
  std::uint64_t flagged_degenerate = 0;
  for (std::uint64_t i = 0; i < 999; ++i) {
    for (std::uint64_t j = 0; j < 999; ++j) {
      const auto n = node_values(*db, i, j);
      const Eigen::Vector3d p(n[X], n[Y], n[Z]), nn(n[NX], n[NY], n[NZ]);
      const Eigen::Vector3d t(n[TX], n[TY], n[TZ]), b(n[BX], n[BY], n[BZ]);
      worst_radius = std::max(worst_radius, std::abs(p.norm() - R) / R);
      worst_normal = std::max(worst_normal, (nn + p / R).norm());
      worst_frame = std::max({worst_frame, std::abs(t.dot(nn)), (nn.cross(t) - b).norm()});
      const auto flags = static_cast<std::uint32_t>(n[FLAGS]);
      CHECK((flags & point_flags::valid) != 0);
      flagged_degenerate += (flags & point_flags::degenerate) != 0;
      if (i == 998) CHECK((flags & point_flags::degenerate) != 0);
    }
  }
  CHECK(worst_radius < 1e-12);
  CHECK(worst_normal < 1e-12);
  CHECK(worst_frame < 1e-14);
  CHECK(flagged_degenerate == 999);
  // The last node is exactly the upper bound, not u0 + 998 du rounded.
  CHECK(node_values(*db, 998, 0)[U] == std::numbers::pi / 2);
}

TEST_CASE("conversion is deterministic whatever the number of threads") {
  TempDir dir;
  AnalyticSpec spec;
  spec.kind = AnalyticKind::torus;
  spec.radius = 30;
  spec.minor_radius = 8;
  const auto torus = make_analytic_surface(spec);
  ConvertOptions o;
  o.grid = {101, 77};
  o.record = {10, 9};
  o.threads = 1;
  convert_surface(*torus, o, dir / "one.sdb");
  o.threads = 3;
  convert_surface(*torus, o, dir / "three.sdb");
  CHECK(read_bytes(dir / "one.sdb") == read_bytes(dir / "three.sdb"));
  const auto db = Database::open(dir / "one.sdb");
  CHECK(db->header().periodic_u);
  CHECK(db->header().periodic_v);
  CHECK(db->header().u_period == doctest::Approx(2 * std::numbers::pi));
}

TEST_CASE("padding nodes of edge records are invalid and float32 halves the record") {
  TempDir dir;
  AnalyticSpec spec;
  spec.kind = AnalyticKind::plane;
  const auto plane = make_analytic_surface(spec);
  ConvertOptions o;
  o.grid = {10, 10};
  o.record = {4, 4};  // 3 x 3 records, the last row and column of records half padding
  o.scalar = ScalarType::f32;
  convert_surface(*plane, o, dir / "p.sdb");
  const auto db = Database::open(dir / "p.sdb");
  CHECK(db->layout().record_bytes == 4 * 4 * 19 * 4);
  CHECK(db->header().scalar == ScalarType::f32);
  // Node (9, 9) is real, the record's slot after it along v is padding.
  CHECK(node_values(*db, 9, 9)[FLAGS] == 1);
  CHECK(node_values(*db, 9, 9)[X] == doctest::Approx(100.0));
  const RecordLayout& l = db->layout();
  const std::uint8_t* last = db->record(l.data_records);
  float flags_of_padding;
  std::memcpy(&flags_of_padding, last + (l.points_per_record() - 1) * 19 * 4 + 18 * 4, 4);
  CHECK(flags_of_padding == 0.0f);
}

namespace {

// The octant converted at `grid` nodes in records of 8 x 7: the file's bytes and its header.
struct OctantFile {
  std::vector<std::uint8_t> bytes;
  Header header;
};
OctantFile octant_file(const std::filesystem::path& file, GridSize grid) {
  ConvertOptions o;
  o.grid = grid;
  o.record = {8, 7};
  convert_surface(*make_analytic_surface(AnalyticSpec{}), o, file);
  OctantFile f{read_bytes(file), {}};
  f.header = decode_header(f.bytes, f.bytes.size());
  return f;
}

// The first damaged record `Database` finds in `good` with a byte flipped in each of `records`.
std::uint64_t first_damaged_of(const OctantFile& good, std::initializer_list<std::uint64_t> records,
                               const std::filesystem::path& file) {
  auto bad = good.bytes;
  const RecordLayout& l = good.header.layout;
  for (const std::uint64_t k : records) bad[l.record_offset(k) + (k * 37) % l.record_bytes] ^= 0x40;
  write_bytes(file, bad);
  return Database::open(file)->first_damaged_record();
}

}  // namespace

TEST_CASE("a flipped byte in any record is found and a truncated file is refused") {
  TempDir dir;
  const OctantFile f = octant_file(dir / "o.sdb", {40, 30});
  const auto& good = f.bytes;
  const Header& h = f.header;
  for (std::uint64_t k = 1; k <= h.layout.data_records; ++k) {
    CAPTURE(k);
    CHECK(first_damaged_of(f, {k}, dir / "bad.sdb") == k);
  }
  auto truncated = good;
  truncated.resize(good.size() - 1);
  write_bytes(dir / "short.sdb", truncated);
  CHECK_THROWS_WITH_AS(Database::open(dir / "short.sdb"), doctest::Contains("truncated"), FormatError);

  // Damage in the checksum table is caught at open.
  auto table = good;
  table[h.layout.checksum_table_offset() + 3] ^= 1;
  write_bytes(dir / "table.sdb", table);
  CHECK_THROWS_WITH_AS(Database::open(dir / "table.sdb"), doctest::Contains("checksum table"), FormatError);
}

TEST_CASE("a large table's check, shared among threads, still names the first damaged record") {
  // catches: the threads' runs of records leaving one out or overlapping at their ends, and a
  // result taken from whichever thread finished last rather than from the earliest run.
  TempDir dir;
  const OctantFile f = octant_file(dir / "o.sdb", {200, 200});
  const std::uint64_t n = f.header.layout.data_records;
  REQUIRE(n >= 256);  // enough records for every core to take a run (64 each at least)
  const auto first_damaged = [&](std::initializer_list<std::uint64_t> records) {
    return first_damaged_of(f, records, dir / "bad.sdb");
  };
  CHECK(first_damaged({}) == 0);
  for (const std::uint64_t k : {std::uint64_t{1}, n / 4, n / 2 - 1, n / 2, n / 2 + 1, n / 2 + 2, 3 * n / 4, n - 1, n}) {
    CAPTURE(k);
    CHECK(first_damaged({k}) == k);
  }
  CHECK(first_damaged({n - 1, n / 2, n / 3}) == n / 3);  // the first, whichever run holds it
  CHECK(first_damaged({n, 2}) == 2);
}

TEST_CASE("a face with an empty parameter range is refused before anything is written") {
  // A damaged file's zero-area face (v range 0 .. 0) once became a table every reader refused,
  // and the conversion exited 0. Catches a converter that samples such a face.
  struct Flat : SurfaceSource {
    std::unique_ptr<SurfaceSource> octant = make_analytic_surface(AnalyticSpec{});
    ParamBounds bounds() const override {
      ParamBounds b = octant->bounds();
      b.v1 = b.v0;
      return b;
    }
    SurfaceD2 d2(double u, double v) const override { return octant->d2(u, v); }
    bool inside(double u, double v) const override { return octant->inside(u, v); }
    SourceInfo info() const override { return octant->info(); }
    std::unique_ptr<SurfaceSource> clone() const override { return std::make_unique<Flat>(); }
  };
  TempDir dir;
  ConvertOptions o;
  o.grid = {20, 20};
  o.record = {5, 5};
  CHECK_THROWS_WITH_AS(convert_surface(Flat{}, o, dir / "flat.sdb"), doctest::Contains("empty parameter range"),
                       DegenerateGeometry);
  CHECK_FALSE(std::filesystem::exists(dir / "flat.sdb"));
}

TEST_CASE("float32 is refused where it would merge grid lines of parameters far from zero") {
  // Knots near 1.4e6 stored in float32 rounded 101 grid lines to 53 distinct values, all marked
  // valid. Catches a converter that stores such parameters in float32 anyway.
  TempDir dir;
  AnalyticSpec plane;
  plane.kind = AnalyticKind::plane;
  plane.u_range = std::pair{1.4e6, 1.4e6 + 10};
  ConvertOptions o;
  o.grid = {101, 11};
  o.record = {10, 11};
  o.scalar = ScalarType::f32;
  CHECK_THROWS_WITH_AS(convert_surface(*make_analytic_surface(plane), o, dir / "far.sdb"),
                       doctest::Contains("float32 cannot store u"), std::invalid_argument);
  CHECK_FALSE(std::filesystem::exists(dir / "far.sdb"));
  plane.u_range = std::pair{0.0, 10.0};  // near zero float32 is fine
  CHECK_NOTHROW(convert_surface(*make_analytic_surface(plane), o, dir / "near.sdb"));
}

TEST_CASE("float32 is refused where a value would overflow it, and nothing is written") {
  // A sphere of radius 1e39 mm: every coordinate finite in double, beyond float32's 3.4e38. A
  // converter that wrote the narrowed values would leave a file `verify` calls damaged (infinities).
  TempDir dir;
  AnalyticSpec sphere;
  sphere.kind = AnalyticKind::sphere;
  sphere.radius = 1e39;
  ConvertOptions o;
  o.grid = {9, 9};
  o.record = {9, 9};
  o.scalar = ScalarType::f32;
  CHECK_THROWS_WITH_AS(convert_surface(*make_analytic_surface(sphere), o, dir / "big.sdb"),
                       doctest::Contains("beyond the range of 32-bit floats"), DegenerateGeometry);
  CHECK(std::filesystem::is_empty(dir.path()));  // no table, no temporary
  o.scalar = ScalarType::f64;  // in float64 the same sphere is fine
  CHECK_NOTHROW(convert_surface(*make_analytic_surface(sphere), o, dir / "big.sdb"));
}
