// Reading one stored value, float64 or float32, from a node's bytes (records need not be aligned
// for doubles when the file holds float32, so values are copied, never dereferenced in place).
#pragma once

#include <cstdint>
#include <cstring>

namespace surfdb {

/// Value `column` of the node starting at `node`, for scalars of `scalar_bytes` (8 or 4) bytes.
inline double load_scalar(const std::uint8_t* node, std::uint32_t scalar_bytes, int column) {
  if (scalar_bytes == 8) {
    double x;
    std::memcpy(&x, node + 8 * column, 8);
    return x;
  }
  float f;
  std::memcpy(&f, node + 4 * column, 4);
  return f;
}

}  // namespace surfdb
