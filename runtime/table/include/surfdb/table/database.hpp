// A surface database opened read-only and memory-mapped: the "model" half of the runtime.
// One Database per file, shared (std::shared_ptr<const Database>) by every binding that uses it;
// per-body state lives elsewhere (SurfaceBinding). All members are safe to call from many threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "surfdb/formats/header.hpp"

namespace surfdb {

class NodeTree;

/// The point_flags (columns.hpp) of a record's nodes, combined; Database::record_flags.
struct RecordFlags {
  std::uint32_t all = 0;  // set at every node
  std::uint32_t any = 0;  // set at some node
};

/// Where a grid line lies in the records: its record row (or column) and its place in the record.
struct GridLine {
  std::uint32_t tile = 0;
  std::uint32_t local = 0;
};

class Database {
 public:
  /// Maps the file and validates its header and checksum table, which it keeps a copy of (8 bytes
  /// a data record) for the records' checks.
  /// Throws FormatError, its message starting with the path, when the file is missing,
  /// unreadable, truncated or damaged.
  static std::shared_ptr<const Database> open(const std::filesystem::path& path);

  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::filesystem::path& path() const;
  const Header& header() const;
  const RecordLayout& layout() const { return header().layout; }

  /// Data record `number` (1..data_records). On first use its checksum is verified, its values
  /// checked finite and its flags whole numbers in [0, 2^32); a damaged record throws FormatError
  /// and is never returned.
  const std::uint8_t* record(std::uint64_t number) const;

  /// Copies data record `number` into out (record_bytes of it) by a read call, verified as
  /// record() verifies it (on first use, the copy is what is checked); throws FormatError when it
  /// is damaged, leaving out's contents unspecified. The mapping's pages are left as they were: a
  /// copy changes no page table entry, where a copy through the mapping costs page faults and a
  /// release (each a trip through the page tables; on some virtual machines tens of microseconds).
  void read_record(std::uint64_t number, std::uint8_t* out) const;

  /// The flags of data record `number`'s grid nodes (its padding left out), combined: the bits
  /// set at every node (`all`) and at some node (`any`). Found when the record is checked, so
  /// known once record() or read_record() has returned it (before: {0, all bits}, as if its
  /// nodes differed); {valid, valid} without a flags column. A record whose nodes all carry the same flags (`all == any`, most records) gives
  /// every cell inside it those flags without reading the nodes' flags column.
  RecordFlags record_flags(std::uint64_t number) const;

  /// Number of the first damaged data record after checking all of them, 0 when all are intact.
  /// Large tables are checked on all cores (threads of this call, joined before it returns). The
  /// records are read by read calls, not through the mapping: the check maps no page. Throws
  /// FormatError when the file cannot be read (it shrank since it was opened).
  std::uint64_t first_damaged_record() const;

  /// Tells the kernel the pages of records number .. number + count - 1 (consecutive in the
  /// file) are not needed now, so they leave resident memory. One call per run of records: each
  /// call costs a TLB flush.
  void release(std::uint64_t number, std::uint64_t count = 1) const;

  /// The k-d tree over the valid nodes (node_tree.hpp), for global searches: built on first use
  /// (reading every record once), then shared by every binding, contact and projection of this
  /// database. Thread-safe. Throws FormatError when a record is damaged or no node is valid.
  const NodeTree& node_tree() const;

  /// Copies bytes [offset, offset + out.size()) of the file into out, unverified, by a read
  /// call rather than through the mapping: for scattered small reads, where a page fault each
  /// costs more than the call. Throws FormatError past the end of the file.
  void copy(std::uint64_t offset, std::span<std::uint8_t> out) const;
  /// The whole mapped file.
  std::span<const std::uint8_t> bytes() const;

  /// Per grid line along u (and v): record row and place, so that queries divide nothing.
  std::span<const GridLine> u_lines() const;
  std::span<const GridLine> v_lines() const;

 private:
  Database();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
