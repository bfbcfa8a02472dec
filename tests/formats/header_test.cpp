#include "surfdb/formats/header.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "../support/file_bytes.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"

using namespace surfdb;

namespace {

Header sample_header() {
  Header h;
  h.layout = RecordLayout::make(999, 999, 27, 27, kColumnsV1.size(), 8);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u0 = 0;
  h.u1 = 1.5;
  h.du = 1.5 / 998;
  h.v0 = -1;
  h.v1 = 1;
  h.dv = 2.0 / 998;
  h.periodic_v = true;
  h.v_period = 2;
  h.invalid_points = 12;
  h.degenerate_points = 999;
  h.source = {"step", "cup.step", "Sphere", 3, FaceOrientation::reversed, true};
  h.checksum_table_hash = 0x0123456789abcdefULL;
  return h;
}

}  // namespace

TEST_CASE("a header survives encoding and decoding field by field") {
  const Header h = sample_header();
  const auto bytes = encode_header(h);
  const Header d = decode_header(bytes, h.layout.file_bytes);
  CHECK(d.format_version == 1);
  CHECK(d.layout.u_points == 999);
  CHECK(d.layout.data_records == 1369);
  CHECK(d.columns == h.columns);
  CHECK(d.u1 == h.u1);
  CHECK(d.dv == h.dv);
  CHECK(d.periodic_v);
  CHECK_FALSE(d.periodic_u);
  CHECK(d.v_period == 2);
  CHECK(d.invalid_points == 12);
  CHECK(d.degenerate_points == 999);
  CHECK(d.source.kind == "step");
  CHECK(d.source.name == "cup.step");
  CHECK(d.source.surface_type == "Sphere");
  CHECK(d.source.face_index == 3);
  CHECK(d.source.orientation == FaceOrientation::reversed);
  CHECK(d.source.normals_flipped);
  CHECK(d.checksum_table_hash == h.checksum_table_hash);
  CHECK(encode_header(d) == bytes);
}

TEST_CASE("the magic and the byte-order mark sit where the specification says") {
  const auto bytes = encode_header(sample_header());
  const unsigned char magic[8] = {0x89, 'S', 'D', 'B', '\r', '\n', 0x1a, '\n'};
  CHECK(std::memcmp(bytes.data(), magic, 8) == 0);
  CHECK(bytes[12] == 0x04);  // 0x01020304 little-endian
  CHECK(bytes[15] == 0x01);
}

TEST_CASE("every single flipped header byte is refused") {
  const Header h = sample_header();
  const auto good = encode_header(h);
  for (std::size_t at = 0; at < good.size(); ++at) {
    auto bad = good;
    bad[at] ^= 0x10;
    CAPTURE(at);
    CHECK_THROWS_AS(decode_header(bad, h.layout.file_bytes), FormatError);
  }
}

TEST_CASE("wrong magic or byte order or version or length each say so") {
  const Header h = sample_header();
  const auto good = encode_header(h);
  auto bytes = good;
  bytes[1] = 'X';
  CHECK_THROWS_WITH(decode_header(bytes, h.layout.file_bytes), doctest::Contains("magic"));

  bytes = good;
  std::swap(bytes[12], bytes[15]);
  std::swap(bytes[13], bytes[14]);
  CHECK_THROWS_WITH(decode_header(bytes, h.layout.file_bytes), doctest::Contains("byte order"));

  Header future = h;
  future.format_version = 2;
  CHECK_THROWS_WITH(decode_header(encode_header(future), h.layout.file_bytes),
                    doctest::Contains("version 2 is not supported"));

  CHECK_THROWS_WITH(decode_header(good, h.layout.file_bytes - 1), doctest::Contains("truncated"));
  CHECK_THROWS_WITH(decode_header(good, h.layout.file_bytes + 8), doctest::Contains("trailing"));
  CHECK_THROWS_WITH(decode_header(std::span(good.data(), 100), 100), doctest::Contains("shorter than a header"));
}

TEST_CASE("a header with consistent checksum but absurd sizes is refused without allocating") {
  Header h = sample_header();
  h.layout.u_points = std::uint64_t{1} << 40;  // grid of 2^80 points, re-hashed to look intact
  h.layout.v_points = std::uint64_t{1} << 40;
  CHECK_THROWS_AS(decode_header(encode_header(h), 1 << 20), FormatError);

  h = sample_header();
  h.layout.u_points = 0;
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes), doctest::Contains("at least 2 x 2"));

  h = sample_header();
  h.du = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes), doctest::Contains("finite"));
}

TEST_CASE("the grid's last node may miss u1 by rounding, not by more") {
  // docs/format.md, step 9: |u0 + (u_points - 1) du - u1| <= 1e-9 (|u1| + |(u_points - 1) du|).
  // catches: an exact comparison (the octant at 101 points misses pi/2 by one unit in the last
  // place: such files would be refused) and a check left out.
  Header h = sample_header();
  h.u1 = std::nextafter(h.u0 + 998 * h.du, 2.0);
  CHECK_NOTHROW(decode_header(encode_header(h), h.layout.file_bytes));
  h.u1 = 1.5 * (1 + 1e-7);
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes), doctest::Contains("differs from u1"));
}

TEST_CASE("periods and units that disagree with their fields are refused") {
  Header h = sample_header();
  h.u_period = -1;  // not periodic along u, so the period must be 0
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes), doctest::Contains("periods disagree"));
  h = sample_header();
  h.v_period = 0;  // periodic along v without a period
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes), doctest::Contains("periods disagree"));
  h = sample_header();
  h.meters_per_unit = 1;  // millimetres said to be metres
  CHECK_THROWS_WITH(decode_header(encode_header(h), h.layout.file_bytes),
                    doctest::Contains("metres per length unit"));
  h.length_unit = LengthUnit::metre;
  CHECK_NOTHROW(decode_header(encode_header(h), h.layout.file_bytes));
}

TEST_CASE("of two problems the earlier step of docs/format.md is the one reported") {
  // catches: checks reordered against the text (the text once put the sizes before the columns).
  const auto decode = [](const Header& h, std::uint64_t file_bytes) { decode_header(encode_header(h), file_bytes); };
  Header h = sample_header();  // step 6 (a repeated column) before step 7 (a grid below 2 x 2)
  h.columns[1] = Column::u;
  h.layout.u_points = 1;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("appears twice"));
  h = sample_header();  // step 7 (a stored size) before step 8 (the file's length)
  h.layout.u_records += 1;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes + 1), doctest::Contains("u record count"));
  h = sample_header();  // step 8 before step 9 (a float that is not finite)
  h.du = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes + 1), doctest::Contains("trailing"));
  h = sample_header();  // step 9 (the grid's end) before step 10 (periods)
  h.u1 = 1.6;
  h.v_period = 0;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("differs from u1"));
  h = sample_header();  // step 10 before step 11 (units)
  h.v_period = 0;
  h.meters_per_unit = 1;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("periods disagree"));
  h = sample_header();  // step 11 before step 12 (counts)
  h.meters_per_unit = 1;
  h.invalid_points = std::uint64_t{1} << 40;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("metres per length unit"));
  h = sample_header();  // step 12 before step 13 (orientation)
  h.invalid_points = std::uint64_t{1} << 40;
  h.source.orientation = static_cast<FaceOrientation>(7);
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("more invalid"));
  h.invalid_points = 0;
  CHECK_THROWS_WITH(decode(h, h.layout.file_bytes), doctest::Contains("orientation 7"));
}

// Golden files: two small tables written once by `surfdb convert` and committed, read here at the
// byte offsets docs/format.md gives, written out as numbers (not through off:: or RecordLayout), so
// that the text, the files and the code must agree:
//   octant_f64.sdb  --analytic octant --v-range 0.25 1.25 --grid 5x4 --record 3x2
//   sphere_f32.sdb  --analytic sphere --grid 5x4 --record 3x2 --float32
// catches: the u1 and v1 offsets swapped in formats/src/header.cpp, encoder and decoder alike
// (tried: the round-trip tests above still pass, but decode_header refuses both golden files,
// u0 + (u_points - 1) du no longer reaching the u1 it reads); swapped in the encoder alone (tried:
// the re-encoded header differs from the file's bytes); u_period and v_period swapped (tried: the
// sphere's periods then disagree with its periodic bits); a record or slot formula in
// record_layout.hpp that runs along u first (node (4, 0) then lies elsewhere); a checksum over
// other bytes than the text's.
namespace {

std::vector<std::uint8_t> golden(const char* name) {
  return test::read_bytes(std::filesystem::path(SURFDB_TEST_DATA) / name);
}

template <class T>
T at(const std::vector<std::uint8_t>& f, std::size_t offset) {
  REQUIRE(offset + sizeof(T) <= f.size());
  T value;
  std::memcpy(&value, f.data() + offset, sizeof(T));
  return value;
}

std::string text_at(const std::vector<std::uint8_t>& f, std::size_t offset, std::size_t size) {
  const auto* begin = reinterpret_cast<const char*>(f.data() + offset);
  return std::string(begin, strnlen(begin, size));
}

std::uint64_t hash_of(const std::vector<std::uint8_t>& f, std::size_t offset, std::size_t size) {
  return checksum(std::span(f.data() + offset, size));
}

}  // namespace

TEST_CASE("golden float64 table: header fields at the documented offsets") {
  const auto f = golden("octant_f64.sdb");
  REQUIRE(f.size() == 6384);  // (2 header + 4 data + 1 checksum records) * 912 bytes
  const unsigned char magic[8] = {0x89, 'S', 'D', 'B', '\r', '\n', 0x1a, '\n'};
  CHECK(std::memcmp(f.data(), magic, 8) == 0);
  CHECK(at<std::uint32_t>(f, 8) == 1);            // format_version
  CHECK(at<std::uint32_t>(f, 12) == 0x01020304);  // byte_order_mark
  CHECK(at<std::uint32_t>(f, 16) == 1024);        // header_bytes
  CHECK(at<std::uint32_t>(f, 20) == 1);           // scalar_type float64
  CHECK(at<std::uint32_t>(f, 24) == 8);           // scalar_bytes
  CHECK(at<std::uint32_t>(f, 28) == 19);          // column_count
  CHECK(at<std::uint64_t>(f, 32) == 5);           // u_points
  CHECK(at<std::uint64_t>(f, 40) == 4);           // v_points
  CHECK(at<std::uint32_t>(f, 48) == 3);           // u_record_points
  CHECK(at<std::uint32_t>(f, 52) == 2);           // v_record_points
  CHECK(at<std::uint64_t>(f, 56) == 2);           // u_records = ceil(5 / 3)
  CHECK(at<std::uint64_t>(f, 64) == 2);           // v_records = ceil(4 / 2)
  CHECK(at<std::uint64_t>(f, 72) == 4);           // data_records
  CHECK(at<std::uint64_t>(f, 80) == 912);         // record_bytes = 3 * 2 * 19 * 8
  CHECK(at<std::uint64_t>(f, 88) == 2);           // header_records = ceil(1024 / 912)
  CHECK(at<std::uint64_t>(f, 96) == 1);           // checksum_records = ceil(8 * 4 / 912)
  CHECK(at<std::uint64_t>(f, 104) == 6384);       // file_bytes
  CHECK(at<double>(f, 112) == 0);                 // u0
  CHECK(at<double>(f, 120) == 0.25);              // v0
  CHECK(at<double>(f, 128) == 1.5707963267948966 / 4);  // du
  CHECK(at<double>(f, 136) == 1.0 / 3);           // dv
  CHECK(at<double>(f, 144) == 1.5707963267948966);  // u1
  CHECK(at<double>(f, 152) == 1.25);              // v1
  CHECK(at<double>(f, 160) == 0);                 // u_period
  CHECK(at<double>(f, 168) == 0);                 // v_period
  CHECK(at<std::uint32_t>(f, 176) == 0);          // periodic
  CHECK(at<std::uint32_t>(f, 180) == 1);          // length_unit millimetre
  CHECK(at<double>(f, 184) == 0.001);             // meters_per_unit
  CHECK(at<std::uint64_t>(f, 192) == 0);          // invalid_points
  CHECK(at<std::uint64_t>(f, 200) == 4);          // degenerate_points: the pole u = pi/2
  CHECK(at<std::uint32_t>(f, 208) == 0);          // face_index
  CHECK(at<std::uint32_t>(f, 212) == 0);          // face_orientation
  CHECK(at<std::uint32_t>(f, 216) == 0);          // source_flags
  CHECK(at<std::uint32_t>(f, 220) == 0);          // reserved
  for (std::uint16_t c = 0; c < 32; ++c) CHECK(at<std::uint16_t>(f, 224 + 2 * c) == (c < 19 ? c + 1 : 0));
  CHECK(text_at(f, 288, 32) == "analytic");
  CHECK(text_at(f, 320, 32) == "Octant");
  CHECK(text_at(f, 352, 256) == "octant");
  CHECK(at<std::uint64_t>(f, 608) == hash_of(f, 5472, 4 * 8));  // checksum table at (2 + 4) * 912
  std::vector<std::uint8_t> header(f.begin(), f.begin() + 1024);
  std::fill(header.begin() + 616, header.begin() + 624, 0);
  CHECK(at<std::uint64_t>(f, 616) == hash_of(header, 0, 1024));
  for (std::size_t k = 624; k < 2 * 912; ++k) CHECK(f[k] == 0);  // the rest of the header records

  // The decoder reads each field where the text puts it, and the encoder writes it back there.
  const Header h = decode_header(f, f.size());
  CHECK(h.u0 == at<double>(f, 112));
  CHECK(h.v0 == at<double>(f, 120));
  CHECK(h.du == at<double>(f, 128));
  CHECK(h.dv == at<double>(f, 136));
  CHECK(h.u1 == at<double>(f, 144));
  CHECK(h.v1 == at<double>(f, 152));
  CHECK(h.degenerate_points == at<std::uint64_t>(f, 200));
  CHECK(h.checksum_table_hash == at<std::uint64_t>(f, 608));
  const auto encoded = encode_header(h);
  CHECK(std::equal(encoded.begin(), encoded.end(), f.begin()));
}

TEST_CASE("golden float64 table: nodes, padding and checksums where the text puts them") {
  const auto f = golden("octant_f64.sdb");
  // Node (i, j): record k = 1 + (i div 3) * 2 + (j div 2) at byte (2 + k - 1) * 912, slot
  // s = (i mod 3) * 2 + (j mod 2) at s * 19 * 8 into it, column c at 8 c into the node.
  const auto value = [&](std::size_t node, int column) { return at<double>(f, node + 8 * column); };
  const std::size_t node_00 = 1824, node_21 = 1824 + 5 * 152, node_40 = 3648 + 2 * 152, node_43 = 4560 + 3 * 152;
  const double r = 50, du = 1.5707963267948966 / 4, dv = 1.0 / 3;
  CHECK(value(node_00, 0) == 0);     // u
  CHECK(value(node_00, 1) == 0.25);  // v
  CHECK(value(node_00, 2) == doctest::Approx(r * std::cos(0.25)).epsilon(1e-14));  // x = R cos u cos v
  CHECK(value(node_00, 3) == doctest::Approx(r * std::sin(0.25)).epsilon(1e-14));  // y = R cos u sin v
  CHECK(value(node_00, 4) == 0);     // z = R sin u
  CHECK(value(node_00, 18) == 1);    // flags: valid
  CHECK(value(node_21, 0) == 0 + 2 * du);     // u_i = u0 + i du below the last node
  CHECK(value(node_21, 1) == 0.25 + 1 * dv);
  CHECK(value(node_21, 4) == doctest::Approx(r * std::sin(2 * du)).epsilon(1e-14));
  // nx = -cos u cos v: the octant's normal points to the centre
  CHECK(value(node_21, 5) == doctest::Approx(-std::cos(2 * du) * std::cos(0.25 + dv)).epsilon(1e-14));
  CHECK(value(node_43, 0) == 1.5707963267948966);  // the last node is exactly u1, v1
  CHECK(value(node_43, 1) == 1.25);
  CHECK(value(node_43, 4) == r);                   // the pole
  CHECK(value(node_43, 7) == -1);                  // nz
  CHECK(value(node_43, 18) == 3);                  // flags: valid and degenerate
  CHECK(value(node_40, 0) == 1.5707963267948966);  // tile (1, 0) is record 3: records run along v
  CHECK(value(node_40, 1) == 0.25);                // first, and so do slots (slot 2, not 1)
  CHECK(value(node_40, 18) == 3);
  // RecordLayout, which every reader in this project uses, puts the nodes at the same bytes.
  const RecordLayout& l = decode_header(f, f.size()).layout;
  const auto offset_of = [&](NodeIndex n) {
    return l.record_offset(l.record_number(l.record_of_node(n))) + l.slot_of_node(n) * 19 * 8;
  };
  CHECK(offset_of({0, 0}) == node_00);
  CHECK(offset_of({2, 1}) == node_21);
  CHECK(offset_of({4, 0}) == node_40);
  CHECK(offset_of({4, 3}) == node_43);
  // Node slot 4 of record 3 (tile (1, 0)) would be node (5, 0), past the grid: padding, all zero.
  for (std::size_t k = 3648 + 4 * 152; k < 3648 + 5 * 152; ++k) CHECK(f[k] == 0);
  // Checksum table entry k - 1 is XXH64 of record k; the rest of its record is zero.
  for (std::size_t k = 1; k <= 4; ++k)
    CHECK(at<std::uint64_t>(f, 5472 + 8 * (k - 1)) == hash_of(f, (1 + k) * 912, 912));
  for (std::size_t k = 5472 + 32; k < 6384; ++k) CHECK(f[k] == 0);
}

TEST_CASE("golden float32 table: periodic header fields and float32 nodes") {
  const auto f = golden("sphere_f32.sdb");
  REQUIRE(f.size() == 3648);  // (3 header + 4 data + 1 checksum records) * 456 bytes
  CHECK(at<std::uint32_t>(f, 20) == 2);    // scalar_type float32
  CHECK(at<std::uint32_t>(f, 24) == 4);    // scalar_bytes
  CHECK(at<std::uint64_t>(f, 80) == 456);  // record_bytes = 3 * 2 * 19 * 4
  CHECK(at<std::uint64_t>(f, 88) == 3);    // header_records = ceil(1024 / 456)
  CHECK(at<double>(f, 112) == 0);                    // u0
  CHECK(at<double>(f, 120) == -1.5707963267948966);  // v0
  CHECK(at<double>(f, 144) == 6.283185307179586);    // u1
  CHECK(at<double>(f, 152) == 1.5707963267948966);   // v1
  CHECK(at<double>(f, 160) == 6.283185307179586);    // u_period
  CHECK(at<double>(f, 168) == 0);                    // v_period
  CHECK(at<std::uint32_t>(f, 176) == 1);             // periodic: u only
  CHECK(at<std::uint64_t>(f, 200) == 10);            // degenerate_points: both poles
  const Header h = decode_header(f, f.size());
  CHECK(h.periodic_u);
  CHECK_FALSE(h.periodic_v);
  CHECK(h.u_period == at<double>(f, 160));
  CHECK(h.v_period == at<double>(f, 168));
  const auto encoded = encode_header(h);
  CHECK(std::equal(encoded.begin(), encoded.end(), f.begin()));
  // Node (4, 3), the last: record 4 at (3 + 3) * 456, slot 3 at 3 * 19 * 4; node (4, 1) and
  // (0, 1): record 3 slot 3 and record 1 slot 1. Values are float32.
  const auto value = [&](std::size_t node, int column) { return at<float>(f, node + 4 * column); };
  const std::size_t node_43 = 2736 + 228, node_41 = 2280 + 228, node_01 = 1368 + 76;
  CHECK(value(node_43, 0) == static_cast<float>(6.283185307179586));   // u = u1
  CHECK(value(node_43, 1) == static_cast<float>(1.5707963267948966));  // v = v1
  CHECK(value(node_43, 4) == 50);   // z at the north pole
  CHECK(value(node_43, 18) == 3);   // valid and degenerate
  // Periodic along u: the last node repeats the first.
  CHECK(value(node_41, 2) == value(node_01, 2));
  CHECK(value(node_41, 4) == value(node_01, 4));
  CHECK(value(node_41, 18) == 1);
}
