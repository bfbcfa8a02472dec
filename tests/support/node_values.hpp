// Reads the stored values of one grid node straight from a mapped database, by the format's
// index formulas (independent of the runtime's interpolation code).
#pragma once

#include <array>
#include <cstring>

#include "surfdb/formats/scalar.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::test {

inline std::array<double, kColumnsV1.size()> node_values(const Database& db, std::uint64_t i,
                                                         std::uint64_t j) {
  const RecordLayout& l = db.layout();
  const NodeIndex n{i, j};
  const std::uint8_t* record = db.record(l.record_number(l.record_of_node(n)));
  const std::uint8_t* p = record + l.slot_of_node(n) * l.column_count * l.scalar_bytes;
  std::array<double, kColumnsV1.size()> out{};
  for (std::size_t c = 0; c < out.size(); ++c) out[c] = load_scalar(p, l.scalar_bytes, static_cast<int>(c));
  return out;
}

// Column positions in a version-1 record (kColumnsV1 order).
enum Col { U, V, X, Y, Z, NX, NY, NZ, TX, TY, TZ, BX, BY, BZ, SU, SV, K1, K2, FLAGS };

}  // namespace surfdb::test
