#include "surfdb/formats/header.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <limits>

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
