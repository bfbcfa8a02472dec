// An output file written beside its destination and renamed into place by commit(), so a failed
// or interrupted command leaves no partial file and keeps the old one. A destination that is a
// symbolic link is written through (the link stays); one that exists and is not a regular file is
// refused (create_temporary_beside).
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
    temporary_ = create_temporary_beside(destination_);
    file_ = ::fdopen(temporary_.fd, "wb");
  }
  ~AtomicFile() {
    if (file_) std::fclose(file_);
    std::error_code ec;
    if (!committed_) std::filesystem::remove(temporary_.path, ec);
    release_temporary(temporary_);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* get() { return file_; }

  void commit() {
    errno = 0;
    const bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && ::fsync(::fileno(file_)) == 0;
    const int error = errno ? errno : EIO;
    std::fclose(file_);
    file_ = nullptr;
    if (!ok) throw std::runtime_error("cannot write " + destination_.string() + ": " + std::strerror(error));
    std::filesystem::rename(temporary_.path, temporary_.target);
    committed_ = true;
    release_temporary(temporary_);
  }

 private:
  std::filesystem::path destination_;
  TemporaryFile temporary_;  // its target is the destination with links followed
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace surfdb::cli
