#include "surfdb/formats/columns.hpp"

namespace surfdb {

std::string_view column_name(Column c) {
  switch (c) {
    case Column::u: return "u";
    case Column::v: return "v";
    case Column::x: return "x";
    case Column::y: return "y";
    case Column::z: return "z";
    case Column::nx: return "nx";
    case Column::ny: return "ny";
    case Column::nz: return "nz";
    case Column::tx: return "tx";
    case Column::ty: return "ty";
    case Column::tz: return "tz";
    case Column::bx: return "bx";
    case Column::by: return "by";
    case Column::bz: return "bz";
    case Column::su_norm: return "su_norm";
    case Column::sv_norm: return "sv_norm";
    case Column::k1: return "k1";
    case Column::k2: return "k2";
    case Column::flags: return "flags";
  }
  return {};
}

std::optional<Column> column_from_id(std::uint16_t id) {
  if (id < 1 || id > 19) return std::nullopt;
  return static_cast<Column>(id);
}

}  // namespace surfdb
