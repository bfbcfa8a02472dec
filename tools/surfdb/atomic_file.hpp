// An output file written beside its destination and renamed into place by commit(), so a failed
// or interrupted command leaves no partial file and keeps the old one.
#pragma once

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
    const TemporaryFile t = create_temporary_beside(destination_);
    temporary_ = t.path;
    file_ = ::fdopen(t.fd, "wb");
  }
  ~AtomicFile() {
    if (file_) std::fclose(file_);
    if (!committed_) std::filesystem::remove(temporary_);
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* get() { return file_; }

  void commit() {
    const bool ok = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0 && !std::ferror(file_);
    std::fclose(file_);
    file_ = nullptr;
    if (!ok) throw std::runtime_error("cannot write " + destination_.string());
    std::filesystem::rename(temporary_, destination_);
    committed_ = true;
  }

 private:
  std::filesystem::path destination_, temporary_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace surfdb::cli
