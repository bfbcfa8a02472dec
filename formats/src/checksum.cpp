#include "surfdb/formats/checksum.hpp"

#include <xxhash.h>

namespace surfdb {

std::uint64_t checksum(std::span<const std::uint8_t> bytes) {
  return XXH64(bytes.data(), bytes.size(), 0);
}

}  // namespace surfdb
