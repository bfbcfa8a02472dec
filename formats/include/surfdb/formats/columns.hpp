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
  flags = 19,    // PointFlags bits stored as an exact small integer
};

/// Bits of the `flags` column.
namespace point_flags {
inline constexpr std::uint32_t valid = 1u;       // inside the face and not padding
inline constexpr std::uint32_t degenerate = 2u;  // frame taken as a limit (pole, collapsed edge)
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
