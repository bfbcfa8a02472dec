#include "surfdb/formats/header.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "byte_fields.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"

static_assert(std::endian::native == std::endian::little,
              "surfdb v1 files are little-endian; this reader copies values as they lie in memory");

namespace surfdb {
namespace {

// Byte offsets of the header fields (docs/format.md, "Header record").
namespace off {
constexpr std::size_t magic = 0, version = 8, bom = 12, header_bytes = 16, scalar_type = 20,
                      scalar_bytes = 24, column_count = 28, u_points = 32, v_points = 40,
                      u_record_points = 48, v_record_points = 52, u_records = 56, v_records = 64,
                      data_records = 72, record_bytes = 80, header_records = 88,
                      checksum_records = 96, file_bytes = 104, u0 = 112, v0 = 120, du = 128,
                      dv = 136, u1 = 144, v1 = 152, u_period = 160, v_period = 168, periodic = 176,
                      length_unit = 180, meters_per_unit = 184, invalid_points = 192,
                      degenerate_points = 200, face_index = 208, orientation = 212,
                      source_flags = 216, column_ids = 224, source_kind = 288, surface_type = 320,
                      source_name = 352, checksum_table_hash = 608, header_hash = 616;
}  // namespace off

constexpr std::size_t kShortString = 32, kLongString = 256;  // char[] field sizes, NUL included
constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'S', 'D', 'B', '\r', '\n', 0x1a, '\n'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kColumnIdBytes = sizeof(std::uint16_t);  // one u16 per column id
constexpr std::size_t kRequiredColumns = 14;                    // ids 1..14: u, v, point, frame
constexpr std::uint32_t kPeriodicU = 1u, kPeriodicV = 2u;      // bits of the `periodic` field
constexpr std::uint32_t kNormalsFlipped = 1u;                   // bit of the `source_flags` field
// Relative tolerance of the grid-end check (docs/format.md, "Reading and validating"): the stored
// du is rounded, and u0 + (u_points - 1) du then misses u1 by a few units in the last place.
constexpr double kGridEndTolerance = 1e-9;

using bytes::get;
using bytes::put;
using bytes::put_string;

std::string get_string(const std::uint8_t* b, std::size_t at, std::size_t field, const char* what) {
  return bytes::get_string(b, at, field, what, "header ");
}

std::uint64_t header_hash(const std::uint8_t* b) {
  std::array<std::uint8_t, kHeaderBytes> copy;
  std::memcpy(copy.data(), b, kHeaderBytes);
  put<std::uint64_t>(copy.data(), off::header_hash, 0);
  return checksum(copy);
}

[[noreturn]] void bad(const std::string& what) { throw FormatError("bad header: " + what); }

void expect_equal(std::uint64_t stored, std::uint64_t expected, const char* field) {
  if (stored != expected)
    bad(std::string(field) + " is " + std::to_string(stored) + " but the grid implies " +
        std::to_string(expected));
}

void expect_finite(double x, const char* field) {
  if (!std::isfinite(x)) bad(std::string(field) + " is not a finite number");
}

}  // namespace

std::uint32_t scalar_bytes(ScalarType t) { return t == ScalarType::f32 ? 4 : 8; }
const char* scalar_name(ScalarType t) { return t == ScalarType::f32 ? "f32" : "f64"; }
const char* length_unit_name(LengthUnit u) { return u == LengthUnit::metre ? "m" : "mm"; }
double meters_per(LengthUnit u) { return u == LengthUnit::metre ? 1.0 : 1e-3; }

std::array<std::uint8_t, kHeaderBytes> encode_header(const Header& h) {
  std::array<std::uint8_t, kHeaderBytes> bytes{};
  std::uint8_t* b = bytes.data();
  const RecordLayout& l = h.layout;
  std::memcpy(b + off::magic, kMagic.data(), kMagic.size());
  put<std::uint32_t>(b, off::version, h.format_version);
  put<std::uint32_t>(b, off::bom, kByteOrderMark);
  put<std::uint32_t>(b, off::header_bytes, kHeaderBytes);
  put<std::uint32_t>(b, off::scalar_type, static_cast<std::uint32_t>(h.scalar));
  put<std::uint32_t>(b, off::scalar_bytes, l.scalar_bytes);
  put<std::uint32_t>(b, off::column_count, l.column_count);
  put<std::uint64_t>(b, off::u_points, l.u_points);
  put<std::uint64_t>(b, off::v_points, l.v_points);
  put<std::uint32_t>(b, off::u_record_points, l.u_record_points);
  put<std::uint32_t>(b, off::v_record_points, l.v_record_points);
  put<std::uint64_t>(b, off::u_records, l.u_records);
  put<std::uint64_t>(b, off::v_records, l.v_records);
  put<std::uint64_t>(b, off::data_records, l.data_records);
  put<std::uint64_t>(b, off::record_bytes, l.record_bytes);
  put<std::uint64_t>(b, off::header_records, l.header_records);
  put<std::uint64_t>(b, off::checksum_records, l.checksum_records);
  put<std::uint64_t>(b, off::file_bytes, l.file_bytes);
  put<double>(b, off::u0, h.u0);
  put<double>(b, off::v0, h.v0);
  put<double>(b, off::du, h.du);
  put<double>(b, off::dv, h.dv);
  put<double>(b, off::u1, h.u1);
  put<double>(b, off::v1, h.v1);
  put<double>(b, off::u_period, h.u_period);
  put<double>(b, off::v_period, h.v_period);
  put<std::uint32_t>(b, off::periodic, (h.periodic_u ? kPeriodicU : 0u) | (h.periodic_v ? kPeriodicV : 0u));
  put<std::uint32_t>(b, off::length_unit, static_cast<std::uint32_t>(h.length_unit));
  put<double>(b, off::meters_per_unit, h.meters_per_unit);
  put<std::uint64_t>(b, off::invalid_points, h.invalid_points);
  put<std::uint64_t>(b, off::degenerate_points, h.degenerate_points);
  put<std::uint32_t>(b, off::face_index, h.source.face_index);
  put<std::uint32_t>(b, off::orientation, static_cast<std::uint32_t>(h.source.orientation));
  put<std::uint32_t>(b, off::source_flags, h.source.normals_flipped ? kNormalsFlipped : 0u);
  for (std::size_t c = 0; c < h.columns.size() && c < kMaxColumns; ++c)
    put<std::uint16_t>(b, off::column_ids + kColumnIdBytes * c, static_cast<std::uint16_t>(h.columns[c]));
  put_string(b, off::source_kind, kShortString, h.source.kind);
  put_string(b, off::surface_type, kShortString, h.source.surface_type);
  put_string(b, off::source_name, kLongString, h.source.name);
  put<std::uint64_t>(b, off::checksum_table_hash, h.checksum_table_hash);
  put<std::uint64_t>(b, off::header_hash, header_hash(b));
  return bytes;
}

namespace {

// The checks of decode_header: steps 1 to 14 of docs/format.md's "Reading and validating", in the
// order that list gives (step 15, the checksum table, is check_checksum_table in integrity.cpp).
// Each throws FormatError naming the first problem it finds.

// Steps 1 and 2: a surface database at all, in this reader's byte order.
void check_identity(std::span<const std::uint8_t> bytes, std::uint64_t file_bytes) {
  if (bytes.size() < kHeaderBytes || file_bytes < kHeaderBytes)
    throw FormatError("not a surface database: " + std::to_string(file_bytes) +
                      " bytes is shorter than a header (" + std::to_string(kHeaderBytes) + ")");
  const std::uint8_t* b = bytes.data();
  if (std::memcmp(b + off::magic, kMagic.data(), kMagic.size()) != 0)
    throw FormatError("not a surface database (wrong magic bytes)");
  const auto bom = get<std::uint32_t>(b, off::bom);
  if (bom == __builtin_bswap32(kByteOrderMark))
    throw FormatError("written with the other byte order (big-endian); this reader needs little-endian");
  if (bom != kByteOrderMark) bad("byte-order mark damaged");
}

// Steps 3 and 4: the version first (a newer file need not hash the same way), then the header's
// own hash, then the header length. Returns the version.
std::uint32_t check_version_and_hash(const std::uint8_t* b) {
  const auto version = get<std::uint32_t>(b, off::version);
  const bool hash_ok = get<std::uint64_t>(b, off::header_hash) == header_hash(b);
  if (version != kFormatVersion) {
    throw FormatError("format version " + std::to_string(version) +
                      (hash_ok ? " is not supported by this reader (it reads version 1)"
                               : " is unknown to this reader (version 1), or the header is damaged"));
  }
  if (!hash_ok) bad("checksum mismatch (the header record is damaged)");
  if (get<std::uint32_t>(b, off::header_bytes) != kHeaderBytes) bad("header length is not 1024");
  return version;
}

// Step 5: the scalar type and its size.
ScalarType decode_scalar(const std::uint8_t* b) {
  const auto scalar = get<std::uint32_t>(b, off::scalar_type);
  if (scalar != static_cast<std::uint32_t>(ScalarType::f64) &&
      scalar != static_cast<std::uint32_t>(ScalarType::f32))
    bad("unknown scalar type " + std::to_string(scalar));
  const auto type = static_cast<ScalarType>(scalar);
  expect_equal(get<std::uint32_t>(b, off::scalar_bytes), scalar_bytes(type), "scalar size");
  return type;
}

// Step 6: the column count, then each listed id (known, not repeated), then the required ids.
std::vector<Column> decode_columns(const std::uint8_t* b) {
  const auto column_count = get<std::uint32_t>(b, off::column_count);
  if (column_count < 1 || column_count > kMaxColumns)
    bad("column count " + std::to_string(column_count) + " is outside 1..32");
  std::vector<Column> columns;
  for (std::uint32_t c = 0; c < column_count; ++c) {
    const auto id = get<std::uint16_t>(b, off::column_ids + kColumnIdBytes * c);
    const auto column = column_from_id(id);
    if (!column) bad("unknown column id " + std::to_string(id));
    if (std::find(columns.begin(), columns.end(), *column) != columns.end())
      bad("column '" + std::string(column_name(*column)) + "' appears twice");
    columns.push_back(*column);
  }
  for (std::size_t c = 0; c < kRequiredColumns; ++c)
    if (std::find(columns.begin(), columns.end(), kColumnsV1[c]) == columns.end())
      bad("required column '" + std::string(column_name(kColumnsV1[c])) + "' is missing");
  return columns;
}

// Steps 7 and 8: the record layout recomputed from the grid and record points, each stored size
// against it, then the file's real length.
RecordLayout decode_layout(const std::uint8_t* b, std::uint32_t column_count, ScalarType scalar,
                           std::uint64_t file_bytes) {
  RecordLayout l;
  try {
    l = RecordLayout::make(get<std::uint64_t>(b, off::u_points), get<std::uint64_t>(b, off::v_points),
                           get<std::uint32_t>(b, off::u_record_points),
                           get<std::uint32_t>(b, off::v_record_points), column_count,
                           scalar_bytes(scalar));
  } catch (const FormatError& e) {
    bad(e.what());
  }
  expect_equal(get<std::uint64_t>(b, off::u_records), l.u_records, "u record count");
  expect_equal(get<std::uint64_t>(b, off::v_records), l.v_records, "v record count");
  expect_equal(get<std::uint64_t>(b, off::data_records), l.data_records, "data record count");
  expect_equal(get<std::uint64_t>(b, off::record_bytes), l.record_bytes, "record length");
  expect_equal(get<std::uint64_t>(b, off::header_records), l.header_records, "header record count");
  expect_equal(get<std::uint64_t>(b, off::checksum_records), l.checksum_records,
               "checksum record count");
  expect_equal(get<std::uint64_t>(b, off::file_bytes), l.file_bytes, "file length");
  if (file_bytes != l.file_bytes)
    throw FormatError("file is " + std::to_string(file_bytes) + " bytes but its header describes " +
                      std::to_string(l.file_bytes) +
                      (file_bytes < l.file_bytes ? " (truncated)" : " (trailing data)"));
  return l;
}

// True when the last node a + (n - 1) step lands on `last` within the grid-end tolerance.
bool grid_ends_at(double a, double step, std::uint64_t n, double last) {
  const double end = a + step * static_cast<double>(n - 1);
  return std::abs(end - last) <= kGridEndTolerance * (std::abs(last) + std::abs(end - a));
}

// Step 9: the parameter grid: every float finite, positive spacing, the last nodes where the
// spacing puts them.
void decode_grid(const std::uint8_t* b, Header& h) {
  h.u0 = get<double>(b, off::u0);
  h.v0 = get<double>(b, off::v0);
  h.du = get<double>(b, off::du);
  h.dv = get<double>(b, off::dv);
  h.u1 = get<double>(b, off::u1);
  h.v1 = get<double>(b, off::v1);
  h.u_period = get<double>(b, off::u_period);
  h.v_period = get<double>(b, off::v_period);
  for (auto [x, name] : {std::pair{h.u0, "u0"}, {h.v0, "v0"}, {h.du, "du"}, {h.dv, "dv"},
                         {h.u1, "u1"}, {h.v1, "v1"}, {h.u_period, "u period"},
                         {h.v_period, "v period"}})
    expect_finite(x, name);
  if (!(h.du > 0) || !(h.dv > 0)) bad("grid spacing du, dv must be positive");
  if (!grid_ends_at(h.u0, h.du, h.layout.u_points, h.u1)) bad("u0 + (u_points - 1) du differs from u1");
  if (!grid_ends_at(h.v0, h.dv, h.layout.v_points, h.v1)) bad("v0 + (v_points - 1) dv differs from v1");
}

// A period agrees with its bit when it is positive where the bit is set and 0 where it is clear.
bool period_agrees(bool periodic, double period) { return periodic ? period > 0 : period == 0; }

// Step 10: the periodicity bits, known and agreeing with the periods.
void decode_periodicity(const std::uint8_t* b, Header& h) {
  const auto periodic = get<std::uint32_t>(b, off::periodic);
  if (periodic & ~(kPeriodicU | kPeriodicV)) bad("unknown periodicity bits");
  h.periodic_u = periodic & kPeriodicU;
  h.periodic_v = periodic & kPeriodicV;
  if (!period_agrees(h.periodic_u, h.u_period) || !period_agrees(h.periodic_v, h.v_period))
    bad("periodicity flags and periods disagree");
}

// Step 11: the length unit, and its size in metres exactly the unit's (contact forces scale by it).
void decode_unit(const std::uint8_t* b, Header& h) {
  const auto unit = get<std::uint32_t>(b, off::length_unit);
  if (unit != static_cast<std::uint32_t>(LengthUnit::millimetre) &&
      unit != static_cast<std::uint32_t>(LengthUnit::metre))
    bad("unknown length unit " + std::to_string(unit));
  h.length_unit = static_cast<LengthUnit>(unit);
  h.meters_per_unit = get<double>(b, off::meters_per_unit);
  if (h.meters_per_unit != meters_per(h.length_unit)) {
    char text[96];
    std::snprintf(text, sizeof text, "metres per length unit is %.17g but a %s is %g", h.meters_per_unit,
                  h.length_unit == LengthUnit::metre ? "metre" : "millimetre", meters_per(h.length_unit));
    bad(text);
  }
}

// Step 12: the node counts, at most the grid's nodes.
void decode_counts(const std::uint8_t* b, Header& h) {
  h.invalid_points = get<std::uint64_t>(b, off::invalid_points);
  h.degenerate_points = get<std::uint64_t>(b, off::degenerate_points);
  const std::uint64_t nodes = h.layout.u_points * h.layout.v_points;  // cannot overflow: make() bounded it
  if (h.invalid_points > nodes || h.degenerate_points > nodes)
    bad("more invalid or degenerate points than grid nodes");
}

// Steps 13 and 14: where the surface came from: a known orientation, then NUL-terminated strings.
void decode_source(const std::uint8_t* b, Header& h) {
  h.source.face_index = get<std::uint32_t>(b, off::face_index);
  const auto orientation = get<std::uint32_t>(b, off::orientation);
  if (orientation != static_cast<std::uint32_t>(FaceOrientation::forward) &&
      orientation != static_cast<std::uint32_t>(FaceOrientation::reversed))
    bad("unknown face orientation " + std::to_string(orientation));
  h.source.orientation = static_cast<FaceOrientation>(orientation);
  h.source.normals_flipped = get<std::uint32_t>(b, off::source_flags) & kNormalsFlipped;
  h.source.kind = get_string(b, off::source_kind, kShortString, "source kind");
  h.source.surface_type = get_string(b, off::surface_type, kShortString, "surface type");
  h.source.name = get_string(b, off::source_name, kLongString, "source name");
}

}  // namespace

Header decode_header(std::span<const std::uint8_t> bytes, std::uint64_t file_bytes) {
  check_identity(bytes, file_bytes);
  const std::uint8_t* b = bytes.data();
  Header h;
  h.format_version = check_version_and_hash(b);
  h.scalar = decode_scalar(b);
  h.columns = decode_columns(b);
  h.layout = decode_layout(b, static_cast<std::uint32_t>(h.columns.size()), h.scalar, file_bytes);
  decode_grid(b, h);
  decode_periodicity(b, h);
  decode_unit(b, h);
  decode_counts(b, h);
  decode_source(b, h);
  h.checksum_table_hash = get<std::uint64_t>(b, off::checksum_table_hash);
  return h;
}

int column_offset(const Header& h, Column c) {
  const auto it = std::find(h.columns.begin(), h.columns.end(), c);
  return it == h.columns.end() ? -1 : static_cast<int>(it - h.columns.begin());
}

}  // namespace surfdb
