// Writes a surface database record by record, crash-safely: everything goes to a hidden temporary
// file beside the destination, which is flushed to disk and renamed into place only by commit().
// A writer destroyed before commit() (error, exception, interruption) removes its temporary file,
// so the destination is either the old file, untouched, or the complete new one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "surfdb/formats/header.hpp"
#include "surfdb/formats/temporary_file.hpp"

namespace surfdb {

class RecordFileWriter {
 public:
  /// Creates the temporary file. Throws FormatError when the directory is not writable.
  RecordFileWriter(std::filesystem::path destination, const RecordLayout& layout);
  ~RecordFileWriter();
  RecordFileWriter(const RecordFileWriter&) = delete;
  RecordFileWriter& operator=(const RecordFileWriter&) = delete;

  /// Appends the next data record (records are written in order 1..N); `bytes` is one record long.
  void write_record(std::span<const std::uint8_t> bytes);

  /// Writes the checksum table and the header, flushes, and renames the file into place.
  /// `header.layout` must be the layout given to the constructor; all records must be written.
  /// Returns the header as written (with its checksum table hash filled in).
  Header commit(Header header);

 private:
  void write_all(std::span<const std::uint8_t> bytes, std::uint64_t offset);

  std::filesystem::path destination_;
  TemporaryFile temporary_;  // its target is the destination with links followed
  RecordLayout layout_;
  int fd_ = -1;
  std::vector<std::uint64_t> checksums_;
  bool committed_ = false;
};

}  // namespace surfdb
