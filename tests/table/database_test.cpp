// Round trip through the format: records written by RecordFileWriter read back bit-identical
// from the mapping; the header as written. The record check on first use: a record whose flags
// are not whole numbers in [0, 2^32) is refused even when its checksum is right.
#include "surfdb/table/database.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "../support/temp_dir.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/record_file_writer.hpp"
#include "surfdb/table/node_tree.hpp"
#include "surfdb/table/surface_binding.hpp"

using namespace surfdb;

namespace {

constexpr int kFlagsColumn = 18;  // index of `flags` in kColumnsV1, the order the writer stores

// A 30 x 20 table in records of 7 x 6 nodes, all 19 columns, float64 or float32.
Header test_header(std::uint32_t scalar_bytes) {
  Header h;
  h.scalar = scalar_bytes == 4 ? ScalarType::f32 : ScalarType::f64;
  h.layout = RecordLayout::make(30, 20, 7, 6, kColumnsV1.size(), scalar_bytes);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u0 = -1;
  h.u1 = 2;
  h.du = 3.0 / 29;
  h.v1 = 1;
  h.dv = 1.0 / 19;
  h.source = {"analytic", "random", "Test", 0, FaceOrientation::forward, false};
  return h;
}

// Writes the table, record k (1-based) holding value(k, slot, column) at each place, in the
// header's scalar type, through the writer (so every checksum is right). Returns the records.
std::vector<std::vector<std::uint8_t>> write_table(
    const std::filesystem::path& path, const Header& h,
    const std::function<double(std::uint64_t, std::uint64_t, int)>& value) {
  const RecordLayout& l = h.layout;
  std::vector<std::vector<std::uint8_t>> records;
  RecordFileWriter writer(path, l);
  for (std::uint64_t k = 1; k <= l.data_records; ++k) {
    std::vector<std::uint8_t> bytes(l.record_bytes);
    for (std::uint64_t slot = 0; slot < l.points_per_record(); ++slot) {
      for (int c = 0; c < static_cast<int>(l.column_count); ++c) {
        std::uint8_t* at = bytes.data() + (slot * l.column_count + c) * l.scalar_bytes;
        const double x = value(k, slot, c);
        if (l.scalar_bytes == 8) {
          std::memcpy(at, &x, 8);
        } else {
          const auto f = static_cast<float>(x);
          std::memcpy(at, &f, 4);
        }
      }
    }
    writer.write_record(bytes);
    records.push_back(std::move(bytes));
  }
  writer.commit(h);
  return records;
}

}  // namespace

TEST_CASE("records written then mapped read back bit-identical") {
  test::TempDir dir;
  const Header h = test_header(8);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  std::uniform_int_distribution<int> flags(0, 3);
  const auto records = write_table(dir / "r.sdb", h, [&](std::uint64_t, std::uint64_t, int c) {
    return c == kFlagsColumn ? flags(rng) : value(rng);
  });
  const auto db = Database::open(dir / "r.sdb");
  CHECK(db->first_damaged_record() == 0);
  for (std::uint64_t k = 1; k <= h.layout.data_records; ++k)
    CHECK(std::memcmp(db->record(k), records[k - 1].data(), h.layout.record_bytes) == 0);
  CHECK(db->header().u0 == -1);
  CHECK(db->header().dv == 1.0 / 19);
  CHECK(db->header().source.name == "random");
  CHECK(db->layout().data_records == 5 * 4);
}

// catches: a record check that looks only at the checksum and at finiteness (the check before
// issue 16, which let -1, 0.5 and 1e300 through to static_cast<std::uint32_t> in
// interp_bilinear.cpp and node_tree.cpp: undefined behaviour); a range test written
// `value <= 2^32` (2^32 itself gets through); an integrality test left out (0.5, 7.25 get
// through); a check that looks only at a record's first node or only at float64 tables.
TEST_CASE("a record whose flags are not whole numbers below 2^32 is refused though its checksum is right") {
  const double bad_values[] = {-1, 0.5, 1e300, 4294967296.0, 7.25, -0.5};
  const std::uint64_t bad_record = 6, bad_slot = 29;  // the last slot of a 7 x 6 record
  for (const std::uint32_t scalar : {8u, 4u}) {
    for (const double bad : bad_values) {
      if (scalar == 4 && bad == 1e300) continue;  // not a float32: it would be infinite, refused as such
      CAPTURE(scalar);
      CAPTURE(bad);
      test::TempDir dir;
      const Header h = test_header(scalar);
      write_table(dir / "f.sdb", h, [&](std::uint64_t k, std::uint64_t slot, int c) {
        if (c != kFlagsColumn) return 0.25 * c;
        return k == bad_record && slot == bad_slot ? bad : 1.0;
      });
      const auto db = Database::open(dir / "f.sdb");  // the header and checksum table are fine
      CHECK_NOTHROW(db->record(bad_record - 1));
      CHECK_THROWS_WITH_AS(db->record(bad_record), doctest::Contains("malformed flags"), FormatError);
      CHECK(db->first_damaged_record() == bad_record);
      // Nor does any reader reach the casts: a search of the node tree and a query into the
      // record refuse (every node is at one point, so a search reads every record).
      const auto fresh = Database::open(dir / "f.sdb");
      CHECK_THROWS_AS(fresh->node_tree().nearest(fresh->node_tree().bounding_centre()), FormatError);
      SurfaceBinding binding(Database::open(dir / "f.sdb"), {1, 1});
      const RecordIndex tile = h.layout.record_index(bad_record);
      const double u = h.u0 + (static_cast<double>(tile.ti * 7) + 0.5) * h.du;
      const double v = h.v0 + (static_cast<double>(tile.tj * 6) + 0.5) * h.dv;
      CHECK_THROWS_AS(binding.query(u, v), FormatError);
    }
  }
}

// catches: a finiteness check that misses the record's last node, reads float32 records as
// float64 (or the other way), tests the wrong bits (a mantissa bit, the sign), or takes the
// largest finite value or a subnormal for infinite.
TEST_CASE("a record holding NaN or an infinity is refused, copied or mapped, and the largest finite and subnormal values are not") {
  const std::uint64_t bad_record = 6, last_slot = 29;
  const int last_value_column = kFlagsColumn - 1;  // k2, the last value before the flags
  for (const std::uint32_t scalar : {8u, 4u}) {
    const double big = scalar == 8 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
    const double tiny = scalar == 8 ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min();
    for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()}) {
      CAPTURE(scalar);
      CAPTURE(bad);
      test::TempDir dir;
      const Header h = test_header(scalar);
      write_table(dir / "n.sdb", h, [&](std::uint64_t k, std::uint64_t slot, int c) {
        if (c == kFlagsColumn) return 1.0;
        if (k == bad_record && slot == last_slot && c == last_value_column) return bad;
        return c % 2 ? big : -tiny;
      });
      const auto db = Database::open(dir / "n.sdb");
      CHECK(db->first_damaged_record() == bad_record);
      CHECK_THROWS_WITH_AS(db->record(bad_record), doctest::Contains("non-finite values"), FormatError);
      // A copy checks what it copied on the record's first use (a copied window's way in).
      const auto fresh = Database::open(dir / "n.sdb");
      std::vector<std::uint8_t> copy(h.layout.record_bytes);
      CHECK_THROWS_WITH_AS(fresh->read_record(bad_record, copy.data()), doctest::Contains("non-finite values"), FormatError);
      fresh->read_record(bad_record - 1, copy.data());
      CHECK(std::memcmp(copy.data(), fresh->record(bad_record - 1), copy.size()) == 0);
    }
  }
}

// catches: a check that reads through the mapping (a file cut short after opening it then kills
// the process with SIGBUS), that swallows a failed read and calls the record intact or damaged,
// or whose threads let an error escape (std::terminate) or report it before an earlier damaged
// record. 16 x 10 records, so that the check runs on two threads where two cores exist (the
// second taking records 81-160).
TEST_CASE("a file cut short after it was opened fails the whole-file check, after any damaged record before the cut") {
  test::TempDir dir;
  Header h = test_header(8);
  h.layout = RecordLayout::make(7 * 16, 6 * 10, 7, 6, kColumnsV1.size(), 8);
  h.du = 3.0 / (7 * 16 - 1);
  h.dv = 1.0 / (6 * 10 - 1);
  const std::uint64_t cut = 120, damaged_record = 10;
  for (const bool damaged : {false, true}) {
    CAPTURE(damaged);
    write_table(dir / "s.sdb", h, [&](std::uint64_t k, std::uint64_t, int c) {
      if (c == kFlagsColumn) return damaged && k == damaged_record ? 0.5 : 1.0;
      return 0.5;
    });
    const auto db = Database::open(dir / "s.sdb");
    std::filesystem::resize_file(dir / "s.sdb", h.layout.record_offset(cut));
    if (damaged)
      CHECK(db->first_damaged_record() == damaged_record);
    else
      CHECK_THROWS_WITH_AS(db->first_damaged_record(), doctest::Contains("the file shrank"), FormatError);
  }
}

TEST_CASE("flags at the ends of the range and every reserved bit are accepted") {
  // catches: a range test that refuses the top of the range (2^32 - 1) or -0, which are whole
  // numbers in [0, 2^32); readers ignore the reserved bits 2..31.
  test::TempDir dir;
  const Header h = test_header(8);
  const double good[] = {0, -0.0, 1, 2, 3, 4294967295.0, 4294967292.0};
  write_table(dir / "g.sdb", h, [&](std::uint64_t, std::uint64_t slot, int c) {
    return c == kFlagsColumn ? good[slot % std::size(good)] : 0.5;
  });
  CHECK(Database::open(dir / "g.sdb")->first_damaged_record() == 0);
}

// catches: padding nodes counted (the last records' padding holds flags 0, which would clear
// `all`); `all` and `any` swapped; only the record's first node or first row looked at; the flags
// combined only for records read through the mapping, or only for records copied by read calls.
TEST_CASE("a record's combined flags are those of its grid nodes, its padding left out") {
  test::TempDir dir;
  const Header h = test_header(8);  // 30 x 20 nodes in 7 x 6 records: the last row and column padded
  const RecordLayout& l = h.layout;
  const auto real = [&](std::uint64_t k, std::uint64_t slot) {
    const RecordIndex t = l.record_index(k);
    return t.ti * 7 + slot / 6 < 30 && t.tj * 6 + slot % 6 < 20;
  };
  // Record 1 all valid; 2 valid and degenerate; 3 one invalid node in its last slot; 4 one node
  // with a reserved bit; the others valid, padding 0 (records 4, 8, 12 and 16 to 20 are padded).
  const auto flags = [&](std::uint64_t k, std::uint64_t slot) -> double {
    if (!real(k, slot)) return 0;
    if (k == 2) return 3;
    if (k == 3 && slot == 41) return 0;
    if (k == 4 && slot == 13) return 5;  // record 4 holds 2 grid columns: slot 13 is node (2, 19)
    return 1;
  };
  write_table(dir / "c.sdb", h, [&](std::uint64_t k, std::uint64_t slot, int c) {
    return c == kFlagsColumn ? flags(k, slot) : 0.5;
  });
  const auto mapped = Database::open(dir / "c.sdb"), copied = Database::open(dir / "c.sdb");
  // Before its check a record reads as one whose nodes differ, so that no reader takes it as
  // uniform (catches: zero-initialised, which reads as every node's flags 0, uniform).
  CHECK(mapped->record_flags(1).all == 0);
  CHECK(mapped->record_flags(1).any == ~0u);
  std::vector<std::uint8_t> buffer(l.record_bytes);
  for (std::uint64_t k = 1; k <= l.data_records; ++k) {
    CAPTURE(k);
    mapped->record(k);
    copied->read_record(k, buffer.data());
    std::uint32_t all = ~0u, any = 0;  // over the grid nodes, from the generator
    for (std::uint64_t slot = 0; slot < l.points_per_record(); ++slot)
      if (real(k, slot)) {
        all &= static_cast<std::uint32_t>(flags(k, slot));
        any |= static_cast<std::uint32_t>(flags(k, slot));
      }
    for (const auto& db : {mapped, copied}) {
      CHECK(db->record_flags(k).all == all);
      CHECK(db->record_flags(k).any == any);
    }
  }
  CHECK(mapped->record_flags(2).all == 3);
  CHECK(mapped->record_flags(3).all == 0);
  CHECK(mapped->record_flags(3).any == 1);
  CHECK(mapped->record_flags(4).all == 1);
  CHECK(mapped->record_flags(4).any == 5);
  CHECK(mapped->record_flags(20).all == 1);  // 2 x 2 grid nodes, 38 padding slots
}
