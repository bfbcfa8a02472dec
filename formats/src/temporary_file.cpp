#include "surfdb/formats/temporary_file.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "surfdb/formats/error.hpp"

namespace surfdb {

TemporaryFile create_temporary_beside(const std::filesystem::path& destination) {
  if (std::filesystem::is_directory(destination))
    throw FormatError("cannot write " + destination.string() + ": it is a directory");
  std::filesystem::path dir = destination.parent_path();
  if (dir.empty()) dir = ".";
  std::string hidden = ".";  // built in steps: GCC 12 warns falsely on "." + string
  hidden += destination.filename().string();
  hidden += ".XXXXXX";
  std::string pattern = (dir / hidden).string();
  TemporaryFile t;
  t.fd = ::mkstemp(pattern.data());
  if (t.fd < 0)
    throw FormatError("cannot create a temporary file for " + destination.string() + ": " + std::strerror(errno));
  t.path = pattern;
  const mode_t mask = ::umask(0);  // umask can only be read by setting it
  ::umask(mask);
  ::fchmod(t.fd, 0666 & ~mask);
  return t;
}

}  // namespace surfdb
