#include "surfdb/formats/integrity.hpp"

#include <cstring>
#include <string>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/scalar.hpp"

namespace surfdb {
namespace {

// Every value in `bytes` finite: its exponent bits (kExponent) not all ones, IEEE 754 binary64 or
// binary32 with Bits the integer of the same width. (~x & kExponent) - 1 has the top bit set exactly
// when those bits are all ones (kExponent is below it); or-ed over the record without a branch,
// in operations SSE2 has for 64-bit lanes, so that the compiler vectorizes it.
template <class Bits, Bits kExponent>
bool all_finite(std::span<const std::uint8_t> bytes) {
  constexpr Bits kTop = Bits{1} << (8 * sizeof(Bits) - 1);
  static_assert(kExponent < kTop);
  Bits seen = 0;
  const std::size_t n = bytes.size() / sizeof(Bits);
  for (std::size_t k = 0; k < n; ++k) {
    Bits x;
    std::memcpy(&x, bytes.data() + k * sizeof(Bits), sizeof(Bits));
    seen |= (~x & kExponent) - 1;
  }
  return (seen & kTop) == 0;
}

}  // namespace

void check_checksum_table(std::span<const std::uint8_t> file, const Header& h) {
  const RecordLayout& l = h.layout;
  const auto table = file.subspan(l.checksum_table_offset(), l.data_records * 8);
  if (checksum(table) != h.checksum_table_hash)
    throw FormatError("checksum table damaged (its hash does not match the header)");
}

bool record_intact(std::span<const std::uint8_t> file, const Header& h, std::uint64_t number) {
  const RecordLayout& l = h.layout;
  std::uint64_t stored = 0;
  std::memcpy(&stored, file.data() + l.checksum_table_offset() + (number - 1) * 8, 8);
  return checksum(file.subspan(l.record_offset(number), l.record_bytes)) == stored;
}

bool record_values_usable(std::span<const std::uint8_t> bytes, const Header& h) {
  const RecordLayout& l = h.layout;
  if (bytes.size() != l.record_bytes) throw FormatError("internal: a record of " + std::to_string(bytes.size()) +
                                                        " bytes, expected " + std::to_string(l.record_bytes));
  const std::uint8_t* record = bytes.data();
  const bool finite = l.scalar_bytes == 8 ? all_finite<std::uint64_t, 0x7ff0000000000000>(bytes)
                                          : all_finite<std::uint32_t, 0x7f800000>(bytes);
  if (!finite) return false;
  const int flags = column_offset(h, Column::flags);
  if (flags < 0) return true;  // no flags column: every node reads as valid
  const std::uint64_t node_bytes = std::uint64_t{l.column_count} * l.scalar_bytes;
  for (std::uint64_t slot = 0; slot < l.points_per_record(); ++slot)
    if (!point_flags::well_formed(load_scalar(record + slot * node_bytes, l.scalar_bytes, flags))) return false;
  return true;
}

std::uint64_t first_damaged_record(std::span<const std::uint8_t> file, const Header& h) {
  check_checksum_table(file, h);
  for (std::uint64_t k = 1; k <= h.layout.data_records; ++k)
    if (!record_intact(file, h, k)) return k;
  return 0;
}

std::uint64_t first_nonzero_unused_byte(std::span<const std::uint8_t> file, const Header& h) {
  const RecordLayout& l = h.layout;
  const auto first_nonzero = [&](std::uint64_t begin, std::uint64_t end) -> std::uint64_t {
    for (std::uint64_t k = begin; k < end && k < file.size(); ++k)
      if (file[k]) return k;
    return 0;
  };
  const std::uint64_t header_end = l.header_records * l.record_bytes;
  const std::uint64_t table = (l.header_records + l.data_records) * l.record_bytes;
  if (const std::uint64_t k = first_nonzero(kHeaderBytes, header_end)) return k;
  return first_nonzero(table + 8 * l.data_records, table + l.checksum_records * l.record_bytes);
}

}  // namespace surfdb
