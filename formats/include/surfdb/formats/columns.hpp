// Column identities of a surface database: what each stored value per grid point means.
// The ids are part of the on-disk format (docs/format.md); never renumber them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace surfdb {

enum class Column : std::uint16_t {
  u = 1,    // surface parameter u
  v = 2,    // surface parameter v
  x = 3,    // point, in the file's length unit
  y = 4,
  z = 5,
  nx = 6,   // unit normal, out of the material
  ny = 7,
  nz = 8,
  tx = 9,   // unit tangent t = unit(ds/du)
  ty = 10,
  tz = 11,
  bx = 12,  // unit bitangent b = n x t
  by = 13,
  bz = 14,
  su_norm = 15,  // |ds/du|, length unit per unit of u
  sv_norm = 16,  // |ds/dv|
  k1 = 17,       // larger principal curvature, 1/length unit, > 0 where convex seen from n
  k2 = 18,       // smaller principal curvature
  flags = 19,    // point_flags bits stored as a whole number in [0, 2^32)
};

/// Bits of the `flags` column. Bits 2..31 are reserved: written 0, ignored when read.
namespace point_flags {
inline constexpr std::uint32_t valid = 1u;       // inside the face and not padding
inline constexpr std::uint32_t degenerate = 2u;  // frame taken as a limit (pole, collapsed edge)
/// Stored flags values are whole numbers below this (2^32), so that they convert to std::uint32_t.
inline constexpr double limit = 4294967296.0;

/// True when a value read from the flags column is a whole number in [0, 2^32). Converting any
/// other value (negative, fractional, NaN, 2^32 or more) to std::uint32_t is undefined
/// behaviour, so a record holding one is damaged (docs/format.md, "Data records").
inline bool well_formed(double value) {
  // NaN fails the first test; in range, the conversion is defined and truncates (one instruction
  // where std::trunc is a library call without SSE4.1).
  return value >= 0 && value < limit && static_cast<double>(static_cast<std::int64_t>(value)) == value;
}
}  // namespace point_flags

/// The columns every version-1 file written by surfdb holds, in this order.
inline constexpr std::array<Column, 19> kColumnsV1 = {
    Column::u,  Column::v,  Column::x,  Column::y,  Column::z,       Column::nx,      Column::ny,
    Column::nz, Column::tx, Column::ty, Column::tz, Column::bx,      Column::by,      Column::bz,
    Column::su_norm, Column::sv_norm, Column::k1, Column::k2, Column::flags};

/// Lower-case name of a column ("nx", "k1", ...); empty for an unknown id.
std::string_view column_name(Column c);

/// The column with this id, if the id is known to this reader.
std::optional<Column> column_from_id(std::uint16_t id);

}  // namespace surfdb
