// Fixed-offset fields of the formats' little-endian headers: values copied in and out by memcpy,
// strings NUL-padded in fields of fixed size. Private to formats/src.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "surfdb/formats/error.hpp"

namespace surfdb::bytes {

template <class T>
void put(std::uint8_t* b, std::size_t at, T value) {
  std::memcpy(b + at, &value, sizeof(T));
}

template <class T>
T get(const std::uint8_t* b, std::size_t at) {
  T value;
  std::memcpy(&value, b + at, sizeof(T));
  return value;
}

inline void put_string(std::uint8_t* b, std::size_t at, std::size_t field, const std::string& s) {
  std::memcpy(b + at, s.data(), std::min(s.size(), field - 1));  // always NUL-terminated
}

/// The string in a field of `field` bytes; throws FormatError "<context>field '<what>' is not
/// terminated" when no NUL ends it.
inline std::string get_string(const std::uint8_t* b, std::size_t at, std::size_t field, const char* what,
                              const std::string& context) {
  const auto* begin = reinterpret_cast<const char*>(b + at);
  const std::size_t n = strnlen(begin, field);
  if (n == field) throw FormatError(context + "field '" + what + "' is not terminated");
  return std::string(begin, n);
}

}  // namespace surfdb::bytes
