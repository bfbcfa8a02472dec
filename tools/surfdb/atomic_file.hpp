// An output file written beside its destination and renamed into place by commit(), so a failed
// or interrupted command leaves no partial file and keeps the old one.
#pragma once

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace surfdb::cli {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
    std::filesystem::path dir = destination_.parent_path();
    if (dir.empty()) dir = ".";
    std::string hidden = ".";  // built in steps: GCC 12 warns falsely on "." + string
    hidden += destination_.filename().string();
    hidden += ".XXXXXX";
    std::string pattern = (dir / hidden).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for " + destination_.string());
    temporary_ = pattern;
    file_ = ::fdopen(fd, "wb");
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
    ::chmod(temporary_.c_str(), 0644);
    std::filesystem::rename(temporary_, destination_);
    committed_ = true;
  }

 private:
  std::filesystem::path destination_, temporary_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace surfdb::cli
