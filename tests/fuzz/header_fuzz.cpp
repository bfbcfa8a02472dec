// libFuzzer target: any bytes as a whole .sdb file. The header decoder, the checksum table and
// the per-record checks must refuse or accept without reading outside the bytes, crashing,
// hanging or allocating from an unchecked field (AddressSanitizer and UndefinedBehaviorSanitizer
// watch). Run: scripts/fuzz.sh.
#include <cstdint>
#include <span>

#include "surfdb/formats/error.hpp"
#include "surfdb/formats/header.hpp"
#include "surfdb/formats/integrity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> file(data, size);
  try {
    const surfdb::Header h = surfdb::decode_header(file, size);
    surfdb::check_checksum_table(file, h);
    surfdb::first_damaged_record(file, h);
  } catch (const surfdb::FormatError&) {
  }
  return 0;
}
