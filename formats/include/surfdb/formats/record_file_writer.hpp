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

  /// Writes data record `number` (1..N) and keeps its checksum, in any order: several threads may
  /// write distinct records at once (the converter's workers each write the records they sample).
  /// Not to be mixed with write_record().
  void write_record_at(std::uint64_t number, std::span<const std::uint8_t> bytes);

  /// Asks the system to start writing data records first .. first + count - 1 to disk now,
  /// without waiting (Linux: sync_file_range), so that commit()'s flush has less left to wait for.
  /// A hint only: durability still comes from commit()'s fsync; elsewhere it does nothing.
  void start_writeback(std::uint64_t first, std::uint64_t count);

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
  std::vector<std::uint64_t> checksums_;  // one per data record, by number - 1
  std::vector<std::uint8_t> written_;     // likewise: 1 once the record is written
  std::uint64_t next_ = 1;                // write_record()'s next record
  bool committed_ = false;
};

}  // namespace surfdb
