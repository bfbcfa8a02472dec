// Numbers as the commands print them: the shortest text that reads back to the same double.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

namespace surfdb::cli {

inline std::string format_number(double x) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), x).ptr;
  return std::string(buffer, end);
}

/// "1 face", "2 faces": a count with its noun in the right number.
inline std::string count_of(std::uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace surfdb::cli
