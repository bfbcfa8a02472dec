// Writes a surface database record by record, crash-safely: everything goes to a hidden temporary
// file beside the destination, which is flushed to disk and renamed into place only by commit().
// A writer destroyed before commit() (error, exception, interruption) removes its temporary file,
// so the destination is either the old file, untouched, or the complete new one, read back and
// checked.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <thread>
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

  /// Flushes what has been written so far to disk on a thread of the writer's own (fdatasync),
  /// without waiting, so that commit()'s flush has only the rest left to wait for. Calls made while
  /// a flush runs are served by one more flush after it. Durability still comes from commit(), which
  /// reports a failed flush; a flush is mostly waiting for the disk, so it overlaps the caller's
  /// work. To be called from one thread (the one that commits); after commit() it does nothing.
  /// `written_through` > 0 says that records 1 .. written_through are written and will not be
  /// written again (write_record_at then refuses them; a record among them not yet written
  /// throws): another thread of the writer's reads them back meanwhile and checks them as
  /// commit() would, which then reads back only the records after them.
  void flush_in_background(std::uint64_t written_through = 0);

  /// Records 1 .. this have been read back intact in the background so far (it stops before a
  /// record that differs; commit() reads that one again and refuses the file).
  std::uint64_t records_read_back() const;

  /// Writes the checksum table and the header, flushes, and renames the file into place. Beside
  /// the flush, reads the file back through the file system (the kernel's copy of it, not the
  /// disk) and checks it as `surfdb verify` would: its length, the header decoded, the header and
  /// the checksum table byte for byte, each data record against the checksum of the bytes it was
  /// given (those the background flushes have not read back already: each record is read back
  /// once). A difference throws FormatError and leaves the destination as it was.
  /// `header.layout` must be the layout given to the constructor; all records must be written.
  /// Returns the header as written (with its checksum table hash filled in).
  Header commit(Header header);

  /// Wall seconds commit() spent reading the file back (beside its last flush), what the background
  /// flushes had not read back.
  double read_back_seconds() const { return read_back_seconds_; }

 private:
  void write_all(std::span<const std::uint8_t> bytes, std::uint64_t offset);
  void read_all(std::span<std::uint8_t> bytes, std::uint64_t offset) const;
  void check_read_back(std::span<const std::uint8_t> table, std::span<const std::uint8_t> head) const;
  void flush_while_asked(std::stop_token stop);
  void read_back_while_asked(std::stop_token stop);
  void stop_background();

  std::filesystem::path destination_;
  TemporaryFile temporary_;  // its target is the destination with links followed
  RecordLayout layout_;
  int fd_ = -1;
  std::vector<std::uint64_t> checksums_;  // one per data record, by number - 1
  std::vector<std::uint8_t> written_;     // likewise: 1 once the record is written
  std::uint64_t next_ = 1;                // write_record()'s next record
  bool committed_ = false;
  double read_back_seconds_ = 0;

  // The background flush and read-back: requests counted under the mutex, served by flusher_
  // and reader_ (started on the first request, stopped before commit() writes the checksum table
  // or the file is closed).
  mutable std::mutex flush_mutex_;
  std::condition_variable_any flush_asked_, read_asked_;
  std::uint64_t flushes_asked_ = 0;
  std::atomic<std::uint64_t> written_through_{0};  // records 1 .. this are written (flush_in_background)
  std::uint64_t read_back_through_ = 0;  // records 1 .. this were read back intact
  int flush_errno_ = 0;  // the first failed background flush's errno
  std::vector<std::uint8_t> read_back_buffer_;  // one record, the background read-back's
  std::jthread flusher_, reader_;
};

}  // namespace surfdb
