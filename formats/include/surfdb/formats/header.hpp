// The header record of a surface database (record 0) and its byte-exact encoding.
// docs/format.md is the specification; this file is its reference implementation.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "surfdb/formats/columns.hpp"
#include "surfdb/formats/record_layout.hpp"

namespace surfdb {

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::size_t kMaxColumns = 32;

enum class ScalarType : std::uint32_t { f64 = 1, f32 = 2 };
enum class LengthUnit : std::uint32_t { millimetre = 1, metre = 2 };
enum class FaceOrientation : std::uint32_t { forward = 0, reversed = 1 };

std::uint32_t scalar_bytes(ScalarType t);
const char* scalar_name(ScalarType t);       // "f64" | "f32"
const char* length_unit_name(LengthUnit u);  // "mm" | "m"
double meters_per(LengthUnit u);             // 0.001 | 1: the only meters_per_unit a header may hold

/// Where the sampled surface came from. Strings are stored NUL-padded; longer ones are cut.
struct SourceInfo {
  std::string kind;          // "step", "iges", "brep", "nurbs" or "analytic" (max 31 bytes)
  std::string name;          // input file name without directories, or the analytic surface name (max 255)
  std::string surface_type;  // e.g. "BSplineSurface", "Sphere", "Octant" (max 31)
  std::uint32_t face_index = 0;  // 1-based face number in the input; 0 when there are no faces
  FaceOrientation orientation = FaceOrientation::forward;
  bool normals_flipped = false;  // the user asked for the opposite normals (--flip-normals)
};

/// Everything the header record holds, decoded.
struct Header {
  std::uint32_t format_version = kFormatVersion;
  ScalarType scalar = ScalarType::f64;
  RecordLayout layout;
  std::vector<Column> columns;  // identity and order of the values stored per point

  // Parameter grid: node i along u is u0 + i*du, except the last, which is exactly u1 (same for v).
  double u0 = 0, v0 = 0, u1 = 0, v1 = 0, du = 0, dv = 0;
  bool periodic_u = false, periodic_v = false;
  double u_period = 0, v_period = 0;  // 0 where not periodic

  LengthUnit length_unit = LengthUnit::millimetre;
  double meters_per_unit = 1e-3;

  std::uint64_t invalid_points = 0;     // grid nodes flagged not valid (trimmed away; padding excluded)
  std::uint64_t degenerate_points = 0;  // grid nodes whose frame is a limit
  SourceInfo source;

  std::uint64_t checksum_table_hash = 0;  // XXH64 of the checksum table (data_records * 8 bytes)

  /// Parameters of grid node i along u and j along v.
  double u_at(std::uint64_t i) const { return i + 1 == layout.u_points ? u1 : u0 + static_cast<double>(i) * du; }
  double v_at(std::uint64_t j) const { return j + 1 == layout.v_points ? v1 : v0 + static_cast<double>(j) * dv; }
};

/// Encodes the header into its kHeaderBytes bytes, with the header checksum filled in.
std::array<std::uint8_t, kHeaderBytes> encode_header(const Header& h);

/// Decodes and validates a header read from a file of `file_bytes` bytes.
/// Throws FormatError naming the first problem, in the order of docs/format.md ("Reading and
/// validating", steps 1 to 14): wrong magic, other byte order, unknown version, bad checksum,
/// unknown scalar type or columns, inconsistent or overflowing sizes, a file length that does not
/// match, a grid that does not close, disagreeing periods or units, impossible counts, an unknown
/// orientation, unterminated strings.
Header decode_header(std::span<const std::uint8_t> bytes, std::uint64_t file_bytes);

/// Index of `c` in h.columns, or -1 when the file does not hold that column.
int column_offset(const Header& h, Column c);

}  // namespace surfdb
