#include "surfdb/formats/record_file_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/temporary_file.hpp"

namespace surfdb {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* action) {
  throw FormatError("cannot " + std::string(action) + " " + path.string() + ": " +
                    std::strerror(errno));
}

}  // namespace

RecordFileWriter::RecordFileWriter(std::filesystem::path destination, const RecordLayout& layout)
    : destination_(std::move(destination)), layout_(layout) {
  checksums_.assign(layout_.data_records, 0);
  written_.assign(layout_.data_records, 0);
  read_back_buffer_.resize(layout_.record_bytes);
  temporary_ = create_temporary_beside(destination_);
  fd_ = temporary_.fd;
  // The file's blocks at once: a full disk fails here rather than midway, and the background
  // flushes find them allocated (ext4 then writes the rows without allocating as it goes).
  // File systems without fallocate get the blocks as the records come.
  if (::fallocate(fd_, 0, 0, static_cast<off_t>(layout_.file_bytes)) != 0 &&
      (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) {
    const int error = errno;
    ::close(fd_);  // no destructor runs for a constructor that throws
    ::unlink(temporary_.path.c_str());
    release_temporary(temporary_);
    errno = error;
    fail(destination_, "write");
  }
}

RecordFileWriter::~RecordFileWriter() {
  stop_background();
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.path.empty()) ::unlink(temporary_.path.c_str());
  release_temporary(temporary_);
}

void RecordFileWriter::write_all(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                               static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(destination_, "write");
    }
    done += static_cast<std::size_t>(n);
  }
}

void RecordFileWriter::write_record(std::span<const std::uint8_t> bytes) {
  if (next_ > layout_.data_records) throw FormatError("internal: more records than the layout holds");
  write_record_at(next_++, bytes);
}

void RecordFileWriter::write_record_at(std::uint64_t number, std::span<const std::uint8_t> bytes) {
  if (bytes.size() != layout_.record_bytes)
    throw FormatError("internal: record of " + std::to_string(bytes.size()) + " bytes, expected " +
                      std::to_string(layout_.record_bytes));
  if (number < 1 || number > layout_.data_records)
    throw FormatError("internal: record " + std::to_string(number) + " of " + std::to_string(layout_.data_records));
  if (number <= written_through_.load(std::memory_order_relaxed))
    throw FormatError("internal: record " + std::to_string(number) + " written again after it was said to be written");
  write_all(bytes, layout_.record_offset(number));
  checksums_[number - 1] = checksum(bytes);  // distinct records: distinct elements, no lock needed
  written_[number - 1] = 1;
}

void RecordFileWriter::flush_in_background(std::uint64_t written_through) {
  if (fd_ < 0) return;  // committed: nothing left to flush
  written_through = std::min(written_through, layout_.data_records);
  const std::uint64_t before = written_through_.load(std::memory_order_relaxed);
  for (std::uint64_t k = before; k < written_through; ++k) {
    if (!written_[k]) throw FormatError("internal: record " + std::to_string(k + 1) + " said to be written, but it is not");
  }
  {
    const std::lock_guard lock(flush_mutex_);
    ++flushes_asked_;
    if (written_through > before) written_through_.store(written_through, std::memory_order_relaxed);
  }
  // Without a thread to spare, commit() does it all, as without this call.
  const auto start = [this](std::jthread& thread, void (RecordFileWriter::*serve)(std::stop_token)) {
    if (thread.joinable()) return;
    try {
      thread = std::jthread([this, serve](std::stop_token stop) { (this->*serve)(stop); });
    } catch (const std::system_error&) {
    }
  };
  start(flusher_, &RecordFileWriter::flush_while_asked);
  flush_asked_.notify_one();
  if (written_through_.load(std::memory_order_relaxed) > 0) {
    start(reader_, &RecordFileWriter::read_back_while_asked);
    read_asked_.notify_one();
  }
}

std::uint64_t RecordFileWriter::records_read_back() const {
  const std::lock_guard lock(flush_mutex_);
  return read_back_through_;
}

void RecordFileWriter::flush_while_asked(std::stop_token stop) {
  std::uint64_t served = 0;
  std::unique_lock lock(flush_mutex_);
  // Stopped, a pending request is dropped: commit() flushes everything, and an abandoned file goes.
  while (flush_asked_.wait(lock, stop, [&] { return flushes_asked_ > served; }) && !stop.stop_requested()) {
    served = flushes_asked_;
    lock.unlock();
    int result;
    do result = ::fdatasync(fd_);
    while (result != 0 && errno == EINTR);
    const int failed = result == 0 ? 0 : errno;
    lock.lock();
    if (failed != 0 && flush_errno_ == 0) flush_errno_ = failed;  // kept: Linux reports a writeback error once
  }
}

// The records the caller said are written, read back as they come and checked against the
// checksums kept when they were written, up to the first one not found intact; commit() reads the
// rest from there (and names the difference or the failed read).
void RecordFileWriter::read_back_while_asked(std::stop_token stop) {
  const std::span<std::uint8_t> record(read_back_buffer_);
  bool intact = true;
  std::unique_lock lock(flush_mutex_);
  const auto asked = [&] { return intact && written_through_.load(std::memory_order_relaxed) > read_back_through_; };
  while (read_asked_.wait(lock, stop, asked) && !stop.stop_requested()) {
    const std::uint64_t through = written_through_.load(std::memory_order_relaxed);
    std::uint64_t checked = read_back_through_;
    lock.unlock();
    try {
      for (; checked < through && intact && !stop.stop_requested(); ++checked) {
        read_all(record, layout_.record_offset(checked + 1));
        intact = checksum(record) == checksums_[checked];
        if (!intact) break;
      }
    } catch (...) {  // a failed read (or its message)
      intact = false;
    }
    lock.lock();
    read_back_through_ = checked;
  }
}

void RecordFileWriter::stop_background() {
  for (std::jthread* thread : {&flusher_, &reader_}) {
    if (!thread->joinable()) continue;
    thread->request_stop();
    thread->join();
  }
}

void RecordFileWriter::read_all(std::span<std::uint8_t> bytes, std::uint64_t offset) const {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // the file is shorter than what was written to it
      fail(destination_, "read back");
    }
    done += static_cast<std::size_t>(n);
  }
}

// The file as a reader will get it, read back through the file system (the kernel's copy of its
// pages, not the disk's surface, which the fsync beside this hands to the disk). It is checked as
// `surfdb verify` checks a file: its length, the header decoded, the header and the checksum table
// as written (so the bytes the format leaves unused are zero), every record against its checksum.
// By read calls into one record's buffer, not a mapping: on some virtual machines mapping the
// file's pages costs several times the copy.
void RecordFileWriter::check_read_back(std::span<const std::uint8_t> table, std::span<const std::uint8_t> head) const {
  const auto refuse = [&](const std::string& what) {
    throw FormatError("cannot write " + destination_.string() + ": " + what +
                      " read back from the file differs from what was written to it; the destination was "
                      "left as it was");
  };
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail(destination_, "read back");
  if (static_cast<std::uint64_t>(st.st_size) != layout_.file_bytes) refuse("the file's length");
  std::vector<std::uint8_t> buffer(std::max<std::size_t>(layout_.record_bytes, std::max(table.size(), head.size())));
  const auto differs = [&](std::uint64_t offset, std::span<const std::uint8_t> written) {
    const std::span<std::uint8_t> read(buffer.data(), written.size());
    read_all(read, offset);
    return !std::equal(read.begin(), read.end(), written.begin());
  };
  if (differs(0, head)) refuse("the header");
  try {
    (void)decode_header(head, layout_.file_bytes);  // the bytes read back, which equal these
  } catch (const FormatError& e) {
    throw FormatError("internal: the header written to " + destination_.string() + " does not decode: " + e.what());
  }
  if (differs(layout_.checksum_table_offset(), table)) refuse("the checksum table");
  const std::span<std::uint8_t> record(buffer.data(), layout_.record_bytes);
  for (std::uint64_t k = read_back_through_ + 1; k <= layout_.data_records; ++k) {
    read_all(record, layout_.record_offset(k));
    if (checksum(record) != checksums_[k - 1]) refuse("data record " + std::to_string(k));
  }
}

Header RecordFileWriter::commit(Header header) {
  const auto done = static_cast<std::uint64_t>(std::count(written_.begin(), written_.end(), 1));
  if (done != layout_.data_records)
    throw FormatError("internal: commit after " + std::to_string(done) + " of " +
                      std::to_string(layout_.data_records) + " records");
  stop_background();
  if (flush_errno_ != 0) {
    errno = flush_errno_;
    fail(destination_, "flush");
  }
  // Checksum table: data_records little-endian u64, zero-padded to whole records.
  std::vector<std::uint8_t> table(layout_.checksum_records * layout_.record_bytes, 0);
  std::memcpy(table.data(), checksums_.data(), checksums_.size() * sizeof(std::uint64_t));
  write_all(table, layout_.checksum_table_offset());

  header.layout = layout_;
  header.checksum_table_hash =
      checksum(std::span(table.data(), checksums_.size() * sizeof(std::uint64_t)));
  std::vector<std::uint8_t> head(layout_.header_records * layout_.record_bytes, 0);
  const auto encoded = encode_header(header);
  std::memcpy(head.data(), encoded.data(), encoded.size());
  write_all(head, 0);

  // The file is read back and checked beside the last flush (short when the background flushes
  // kept up with the records).
  int flush_errno = 0;
  {
    const auto flush = [this, &flush_errno] {
      int result;
      do result = ::fsync(fd_);
      while (result != 0 && errno == EINTR);
      if (result != 0) flush_errno = errno;
    };
    std::jthread flusher;
    try {
      flusher = std::jthread(flush);
    } catch (const std::system_error&) {
      flush();  // no thread to spare: one after the other
    }
    const auto t0 = std::chrono::steady_clock::now();
    check_read_back(table, head);  // an exception joins the flush first: the file goes after it
    read_back_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (flush_errno != 0) {
    errno = flush_errno;
    fail(destination_, "flush");
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail(destination_, "close");
  }
  fd_ = -1;
  // Onto the destination's target: a symbolic link stays and its file gets the new content.
  if (::rename(temporary_.path.c_str(), temporary_.target.c_str()) != 0) fail(destination_, "rename into");
  committed_ = true;
  release_temporary(temporary_);
  // Make the rename itself durable.
  std::filesystem::path dir = temporary_.target.parent_path();
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return header;
}

}  // namespace surfdb
