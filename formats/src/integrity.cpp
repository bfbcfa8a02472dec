#include "surfdb/formats/integrity.hpp"

#include <cstring>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"

namespace surfdb {

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

std::uint64_t first_damaged_record(std::span<const std::uint8_t> file, const Header& h) {
  check_checksum_table(file, h);
  for (std::uint64_t k = 1; k <= h.layout.data_records; ++k)
    if (!record_intact(file, h, k)) return k;
  return 0;
}

}  // namespace surfdb
