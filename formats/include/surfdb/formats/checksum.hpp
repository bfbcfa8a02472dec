// The one checksum of the format: XXH64 with seed 0 (xxHash, https://xxhash.com), chosen for a
// throughput far above disk speed and for readers in every common language.
#pragma once

#include <cstdint>
#include <span>

namespace surfdb {

std::uint64_t checksum(std::span<const std::uint8_t> bytes);

}  // namespace surfdb
