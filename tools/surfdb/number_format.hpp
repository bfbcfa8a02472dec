// Numbers as the commands print them: the shortest text that reads back to the same double.
#pragma once

#include <charconv>
#include <string>

namespace surfdb::cli {

inline std::string format_number(double x) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), x).ptr;
  return std::string(buffer, end);
}

}  // namespace surfdb::cli
