#include "surfdb/table/database.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <boost/interprocess/file_mapping.hpp>
#include <boost/interprocess/mapped_region.hpp>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/columns.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/integrity.hpp"
#include "surfdb/formats/scalar.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/table/node_tree.hpp"

namespace surfdb {

namespace bip = boost::interprocess;

namespace {
enum RecordState : std::uint8_t { unchecked = 0, intact = 1, damaged = 2 };
// A record's combined flags before its check: no bit at every node, every bit at some node. Read
// by mistake, it says the record's nodes differ, so that a reader takes each node's own flags.
constexpr std::uint64_t kUnknownFlags = std::uint64_t{~0u} << 32;
}

struct Database::Impl {
  std::filesystem::path path;
  bip::file_mapping file;
  bip::mapped_region region;
  std::span<const std::uint8_t> bytes;
  Header header;
  std::vector<std::uint64_t> checksums;  // the checksum table, copied once its hash is checked
  std::unique_ptr<std::atomic<std::uint8_t>[]> states;  // one RecordState per data record
  // RecordFlags per data record, packed all | any << 32; until the record is checked, kUnknownFlags.
  std::unique_ptr<std::atomic<std::uint64_t>[]> flags;
  int flags_column = -1;  // the flags column's offset in a node, -1 without one
  std::vector<GridLine> u_lines, v_lines;
  mutable std::once_flag tree_once;
  mutable std::shared_ptr<const NodeTree> tree;

  // docs/format.md, "Data records": the checksum, then every value finite and every flags value a
  // whole number in [0, 2^32), so that the casts of flags to std::uint32_t downstream
  // (interp_bilinear.cpp, node_tree.cpp) are defined for every record they are given.
  // `record` holds data record `number`'s bytes, from the mapping or read into a buffer.
  // An intact record's flags are combined here, before its state is published.
  bool check(std::uint64_t number, std::span<const std::uint8_t> record) const {
    if (checksum(record) != checksums[number - 1] || !record_values_usable(record, header)) return false;
    flags[number - 1].store(combined_flags(number, record.data()), std::memory_order_relaxed);
    return true;
  }

  // RecordFlags over the record's grid nodes, packed all | any << 32. Padding nodes lie outside
  // every cell, so they are left out.
  std::uint64_t combined_flags(std::uint64_t number, const std::uint8_t* record) const {
    const RecordLayout& l = header.layout;
    if (flags_column < 0) return point_flags::valid | std::uint64_t{point_flags::valid} << 32;
    const RecordIndex tile = l.record_index(number);
    const std::uint64_t rows = std::min<std::uint64_t>(l.u_record_points, l.u_points - tile.ti * l.u_record_points);
    const std::uint64_t cols = std::min<std::uint64_t>(l.v_record_points, l.v_points - tile.tj * l.v_record_points);
    const std::uint64_t node_bytes = std::uint64_t{l.column_count} * l.scalar_bytes;
    std::uint32_t all = ~0u, any = 0;
    for (std::uint64_t li = 0; li < rows; ++li)
      for (std::uint64_t lj = 0; lj < cols; ++lj) {
        // Whole numbers in [0, 2^32): record_values_usable() has checked them.
        const auto f = static_cast<std::uint32_t>(load_scalar(record + l.slot(li, lj) * node_bytes, l.scalar_bytes, flags_column));
        all &= f;
        any |= f;
      }
    return all | std::uint64_t{any} << 32;
  }

  // The record's state, found by `check_now` (returning true when intact) on its first use.
  template <class Check>
  std::uint8_t state(std::uint64_t number, Check check_now) const {
    std::atomic<std::uint8_t>& s = states[number - 1];
    std::uint8_t v = s.load(std::memory_order_acquire);
    if (v == unchecked) {
      v = check_now() ? intact : damaged;  // two threads may both check: same answer
      s.store(v, std::memory_order_release);
    }
    return v;
  }

  // Checked through the mapping.
  std::uint8_t state(std::uint64_t number) const {
    return state(number, [&] {
      return check(number, bytes.subspan(header.layout.record_offset(number), header.layout.record_bytes));
    });
  }

  FormatError damaged_error(std::uint64_t number) const {
    return FormatError(path.string() + ": data record " + std::to_string(number) +
                       " is damaged (checksum mismatch, non-finite values or malformed flags)");
  }
};

Database::Database() : impl_(std::make_unique<Impl>()) {}
Database::~Database() = default;

std::shared_ptr<const Database> Database::open(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw FormatError(name + ": no such file");
  if (std::filesystem::is_directory(status) && std::filesystem::exists(path / kManifestName, ec))
    throw FormatError(name + ": a surface set (a directory of tables, one per face), not a table: name one of its "
                             "tables (`surfdb info " + name + "` lists them) or use the set in a scenario");
  if (!std::filesystem::is_regular_file(status)) throw FormatError(name + ": not a regular file");
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw FormatError(name + ": " + ec.message());
  if (size < kHeaderBytes)
    throw FormatError(name + ": not a surface database (" + std::to_string(size) +
                      " bytes is shorter than a header)");

  std::shared_ptr<Database> db(new Database());
  Impl& d = *db->impl_;
  d.path = path;
  try {
    d.file = bip::file_mapping(path.c_str(), bip::read_only);
    d.region = bip::mapped_region(d.file, bip::read_only, 0, size);
  } catch (const bip::interprocess_exception& e) {
    throw FormatError(name + ": cannot map: " + e.what());
  }
  d.bytes = {static_cast<const std::uint8_t*>(d.region.get_address()), size};
  try {
    d.header = decode_header(d.bytes, size);
    check_checksum_table(d.bytes, d.header);
  } catch (const FormatError& e) {
    throw FormatError(name + ": " + e.what());
  }
  const RecordLayout& l = d.header.layout;
  d.checksums.resize(l.data_records);  // little-endian u64, in the file as in memory (header.cpp)
  std::memcpy(d.checksums.data(), d.bytes.data() + l.checksum_table_offset(), l.data_records * sizeof(std::uint64_t));
  d.states = std::make_unique<std::atomic<std::uint8_t>[]>(l.data_records);
  d.flags = std::make_unique<std::atomic<std::uint64_t>[]>(l.data_records);
  for (std::uint64_t k = 0; k < l.data_records; ++k) d.flags[k].store(kUnknownFlags, std::memory_order_relaxed);
  d.flags_column = column_offset(d.header, Column::flags);
  // Sizes bounded by the file's length, which the header was checked against.
  for (std::uint64_t i = 0; i < l.u_points; ++i)
    d.u_lines.push_back({static_cast<std::uint32_t>(i / l.u_record_points), static_cast<std::uint32_t>(i % l.u_record_points)});
  for (std::uint64_t j = 0; j < l.v_points; ++j)
    d.v_lines.push_back({static_cast<std::uint32_t>(j / l.v_record_points), static_cast<std::uint32_t>(j % l.v_record_points)});
  return db;
}

const std::filesystem::path& Database::path() const { return impl_->path; }
const Header& Database::header() const { return impl_->header; }
std::span<const std::uint8_t> Database::bytes() const { return impl_->bytes; }
std::span<const GridLine> Database::u_lines() const { return impl_->u_lines; }
std::span<const GridLine> Database::v_lines() const { return impl_->v_lines; }

const std::uint8_t* Database::record(std::uint64_t number) const {
  if (impl_->state(number) != intact) throw impl_->damaged_error(number);
  return impl_->bytes.data() + impl_->header.layout.record_offset(number);
}

void Database::read_record(std::uint64_t number, std::uint8_t* out) const {
  const RecordLayout& l = impl_->header.layout;
  const std::span<std::uint8_t> copied(out, l.record_bytes);
  copy(l.record_offset(number), copied);
  if (impl_->state(number, [&] { return impl_->check(number, copied); }) != intact) throw impl_->damaged_error(number);
}

RecordFlags Database::record_flags(std::uint64_t number) const {
  const std::uint64_t packed = impl_->flags[number - 1].load(std::memory_order_relaxed);
  return {static_cast<std::uint32_t>(packed), static_cast<std::uint32_t>(packed >> 32)};
}

// Records are independent and their states atomic, so the check is shared among the cores, each
// taking a contiguous run of records. Each reads its records by read calls into a buffer of one
// record, not through the mapping: on some virtual machines mapping a page costs more than copying
// it (one fault per 64 KiB costs tens of microseconds), and the check then leaves no page mapped.
std::uint64_t Database::first_damaged_record() const {
  const RecordLayout& l = impl_->header.layout;
  const std::uint64_t n = l.data_records;
  constexpr std::uint64_t kRecordsPerThread = 64;  // below that a thread costs more than it saves
  const std::uint64_t threads =
      std::clamp<std::uint64_t>(n / kRecordsPerThread, 1, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::uint64_t> first_damaged(threads, 0);
  std::vector<std::exception_ptr> errors(threads);  // a failed read, rethrown by the caller
  const auto check_run = [&](std::uint64_t t) {
    const std::uint64_t begin = 1 + n * t / threads, end = 1 + n * (t + 1) / threads;  // [begin, end)
    try {
      std::vector<std::uint8_t> record(l.record_bytes);
      for (std::uint64_t k = begin; k < end; ++k) {
        const std::uint8_t state = impl_->state(k, [&] {
          copy(l.record_offset(k), record);
          return impl_->check(k, record);
        });
        if (state != intact) {
          first_damaged[t] = k;
          return;
        }
      }
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> helpers;  // joined on leaving the block, an exception included
    for (std::uint64_t t = 1; t < threads; ++t) helpers.emplace_back(check_run, t);
    check_run(0);
  }
  for (std::uint64_t t = 0; t < threads; ++t) {
    if (errors[t]) std::rethrow_exception(errors[t]);
    if (first_damaged[t] != 0) return first_damaged[t];
  }
  return 0;
}

void Database::release(std::uint64_t number, std::uint64_t count) const {
  // A read fault maps the other cached pages of its 64 KiB-aligned block as well (the kernel's
  // fault-around, fault_around_bytes), so reading a record can map pages of its neighbours in the
  // file. Releasing every block the records overlap takes those along; a neighbour still in use
  // simply reads its pages back from the page cache: the mapping is read-only and file-backed.
  static const std::uint64_t block = std::max<std::uint64_t>(static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)), 65536);
  if (count == 0) return;
  const RecordLayout& l = impl_->header.layout;
  const auto base = reinterpret_cast<std::uintptr_t>(impl_->bytes.data());  // page-aligned
  const std::uint64_t begin = l.record_offset(number) / block * block;
  const std::uint64_t last_end = l.record_offset(number + count - 1) + l.record_bytes;
  const std::uint64_t end = std::min(l.file_bytes, (last_end + block - 1) / block * block);
  if (end > begin)
    ::madvise(reinterpret_cast<void*>(base + begin), end - begin, MADV_DONTNEED);
}

void Database::copy(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (offset > impl_->bytes.size() || out.size() > impl_->bytes.size() - offset)
    throw FormatError(impl_->path.string() + ": read past the end of the file");
  const int fd = impl_->file.get_mapping_handle().handle;  // the mapped file itself, not the path now
  std::size_t done = 0;
  while (done < out.size()) {
    const ::ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<::off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw FormatError(impl_->path.string() + ": cannot read: " + (n < 0 ? std::strerror(errno) : "the file shrank"));
    done += static_cast<std::size_t>(n);
  }
}

const NodeTree& Database::node_tree() const {
  std::call_once(impl_->tree_once, [this] { impl_->tree = NodeTree::build(*this); });
  return *impl_->tree;
}

}  // namespace surfdb
