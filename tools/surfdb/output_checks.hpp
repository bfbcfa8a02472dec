// Checks on an output path before anything is written: never the same file as an input, never
// larger than the free space of its file system or a size limit.
#pragma once

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {

/// Throws when `output` exists and is the same file as one of `inputs` (same device and inode,
/// symbolic and hard links included), which writing the output would destroy.
inline void refuse_input_as_output(const std::filesystem::path& output,
                                   const std::vector<std::filesystem::path>& inputs) {
  struct stat out {};
  if (::stat(output.c_str(), &out) != 0) return;  // does not exist yet
  for (const auto& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      throw std::runtime_error("cannot write " + output.string() + ": it is the input " + input.string() +
                               (input == output ? "" : " (the same file)") + "; writing it would destroy it");
  }
}

/// "1.38 GiB": three significant digits in binary units.
inline std::string format_size(std::uint64_t bytes) {
  static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double x = static_cast<double>(bytes);
  int u = 0;
  while (x >= 1024 && u < 6) x /= 1024, ++u;
  char text[32];
  if (u == 0) std::snprintf(text, sizeof(text), "%llu bytes", static_cast<unsigned long long>(bytes));
  else std::snprintf(text, sizeof(text), "%.3g %s", x, units[u]);
  return text;
}

/// "500M", "2G", "64GiB", "1T", "4096": a size in bytes (K, M, G, T, P are powers of 1024).
inline std::uint64_t parse_size(const std::string& text, const char* option) {
  static const std::regex pattern(R"((\d+(?:\.\d+)?)\s*(?:([kKmMgGtTpP])(?:i?B)?|B)?)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    throw std::invalid_argument(std::string(option) + " '" + text + "' is not a size such as 500M or 2G");
  double bytes = std::stod(m[1]);
  if (m[2].matched)
    for (const char c : std::string("KMGTP")) {
      bytes *= 1024;
      if (std::toupper(static_cast<unsigned char>(m[2].str()[0])) == c) break;
    }
  if (bytes >= 18446744073709551615.0)
    throw std::invalid_argument(std::string(option) + " '" + text + "' is too large");
  return static_cast<std::uint64_t>(bytes);
}

/// "1368000000 bytes (1.27 GiB)".
inline std::string size_text(std::uint64_t bytes) {
  return std::to_string(bytes) + " bytes (" + format_size(bytes) + ")";
}

/// Bytes free for this process on the file system that will hold `output` (symbolic links
/// followed; the nearest existing folder when the output's folder does not exist yet).
inline std::uint64_t free_bytes_in(std::filesystem::path dir) {
  struct statvfs fs {};
  while (::statvfs(dir.c_str(), &fs) != 0) {
    if (!dir.has_relative_path()) return std::numeric_limits<std::uint64_t>::max();
    dir = dir.parent_path();
  }
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;  // what df shows as available
}

inline std::uint64_t free_bytes_for(const std::filesystem::path& output) {
  return free_bytes_in(std::filesystem::absolute(resolve_output(output)).parent_path());
}

/// Throws "SUBJECT would take N bytes (...), more than the F free on its file system" when
/// `bytes` do not fit beside `output`. SUBJECT is e.g. "cannot write OUT: it".
/// With `in_directory`, `output` is the directory the bytes go to rather than a file in it.
inline void check_free_space(const std::filesystem::path& output, std::uint64_t bytes, const std::string& subject,
                             bool in_directory = false) {
  const std::uint64_t free =
      in_directory ? free_bytes_in(std::filesystem::absolute(output)) : free_bytes_for(output);
  if (bytes > free)
    throw std::runtime_error(subject + " would take " + size_text(bytes) + ", more than the " + format_size(free) +
                             " free on its file system (No space left on device)");
}

}  // namespace surfdb::cli
