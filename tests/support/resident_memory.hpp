// Resident bytes of this process's mapping of one file, from /proc/self/smaps (Linux).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace surfdb::test {

inline std::uint64_t mapped_rss_bytes(const std::filesystem::path& file) {
  const std::string name = std::filesystem::canonical(file).string();
  std::ifstream smaps("/proc/self/smaps");
  std::uint64_t total = 0;
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    if (line.find('-') < line.find(' ') && line.find(':') != std::string::npos && line[0] != ' ' &&
        !line.starts_with("Rss") && std::isxdigit(static_cast<unsigned char>(line[0]))) {
      inside = line.size() >= name.size() && line.compare(line.size() - name.size(), name.size(), name) == 0;
    } else if (inside && line.starts_with("Rss:")) {
      total += std::stoull(line.substr(4)) * 1024;  // "Rss:   123 kB"
    }
  }
  return total;
}

}  // namespace surfdb::test
