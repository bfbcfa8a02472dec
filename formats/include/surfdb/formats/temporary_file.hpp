// A hidden temporary file beside a destination (".NAME.XXXXXX" in the same directory), so that a
// finished file can be renamed over the destination atomically. Shared by every writer.
#pragma once

#include <filesystem>

namespace surfdb {

struct TemporaryFile {
  int fd = -1;  // open for writing, mode 0666 less the umask
  std::filesystem::path path;
};

/// Throws FormatError naming the destination when the directory is missing or not writable,
/// or when the destination is a directory.
TemporaryFile create_temporary_beside(const std::filesystem::path& destination);

}  // namespace surfdb
