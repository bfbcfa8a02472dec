// A storage window: the block of records kept at hand around one body's contact point on one
// surface (Machado, Flores and Ambrósio 2014, §3.3). Per-binding mutable state ("data"); the database it reads from is shared.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "surfdb/table/database.hpp"

namespace surfdb {

/// How a window holds its records, for comparing the strategies.
enum class Residency : std::uint8_t {
  full_load,       // every data record copied into memory once; the window never moves
  window_copy,     // the window's records copied into a compact buffer, each when first needed: a move
                   // copies only the entering records a query then reads
  direct_mapping,  // the window's records read in place from the mapping; pages leaving it released
                   // in batches (below)
};

// Releasing pages of the mapping (Database::release) and faulting them back in are each a trip
// through the page tables, which on some virtual machines costs tens of microseconds (15-20 a
// fault and 46-51 a release on the VM of docs/benchmarks.md's bench_query section), far more than the queries
// between two window moves. So a window releases the pages of the records it no longer needs in
// batches: the records that left it (direct mapping) and those read outside it
// (a cell straddling its edge) wait until they number as many as the window holds, and are then
// released a run of consecutive records at a time; one that came back meanwhile keeps its pages.
// The mapping's resident pages on account of one window thus stay below twice the window's
// records (plus, at each end of a run, the rest of the kernel's fault-around block).

const char* residency_name(Residency r);  // "full", "copy", "direct"

/// Window extent in records; clamped to the file's record grid.
struct WindowSize {
  std::uint32_t u_records = 5;
  std::uint32_t v_records = 5;
};

struct WindowStats {
  std::uint64_t updates = 0;         // window moves after the first placement
  std::uint64_t records_read = 0;    // records brought into the window, the first placement included
                                     // (window_copy: records copied, each when first needed)
  std::uint64_t outside_reads = 0;   // record accesses outside the window (cells straddling its edge)
  std::uint64_t bytes_resident = 0;  // bytes of records this window holds now
  std::uint64_t releases = 0;        // runs of records whose pages were released (calls to Database::release)
};

class StorageWindow {
 public:
  /// Throws FormatError when a record it must read is damaged.
  StorageWindow(std::shared_ptr<const Database> db, WindowSize size, Residency residency);
  ~StorageWindow();
  StorageWindow(StorageWindow&&) noexcept;
  StorageWindow& operator=(StorageWindow&&) noexcept;

  /// Steps 1-6 of the seven-step rule for the record holding the contact point: keep the window
  /// when that record is inside and not on its border; otherwise centre the window on it and read
  /// the new records. A border that is also the surface's border does not move the window.
  /// Returns true when the window moved.
  bool follow(RecordIndex contact) {
    // Idempotent until the window moves; a window of every record never moves.
    if (placed_ && (contact == last_contact_ || covers_all_)) return false;
    return follow_to(contact);
  }

  /// The record's bytes: from the window when inside it, else straight from the database. Pages
  /// read outside the window stay resident until release_outside_reads(). window_copy copies a
  /// record of the window into its buffer the first time it is asked for here.
  const std::uint8_t* record(RecordIndex r) {
    if (!contains(r)) return outside_record(r);
    const std::size_t k = slot(r);
    if (const std::uint8_t* inside = slots_[k]) [[likely]] return inside;
    return fill(r, k);
  }

  /// The record's bytes when it is in a placed window (and, for window_copy, copied already), so
  /// checked; else nullptr. Reads nothing. (A placement that failed on a damaged record leaves
  /// the window unplaced, with slots of records never checked.)
  const std::uint8_t* resident(RecordIndex r) const { return placed_ && contains(r) ? slots_[slot(r)] : nullptr; }

  /// Hands the records read outside the window since the last call to the batch of releases
  /// (above), so that resident memory stays bounded however far a solver wanders.
  void release_outside_reads() {
    if (outside_count_ != 0) release_pending();
  }

  RecordIndex origin() const { return origin_; }  // first record (lowest ti, tj) of the window
  WindowSize size() const { return size_; }
  const WindowStats& stats() const { return stats_; }
  bool placed() const { return placed_; }
  bool contains(RecordIndex r) const {  // unsigned: a record before the origin wraps to huge
    return r.ti - origin_.ti < size_.u_records && r.tj - origin_.tj < size_.v_records;
  }

 private:
  std::size_t slot(RecordIndex r) const { return (r.ti - origin_.ti) * size_.v_records + (r.tj - origin_.tj); }
  const std::uint8_t* fill(RecordIndex r, std::size_t k);
  std::size_t home(RecordIndex r) const;  // window_copy, full_load: the record's place in the buffer
  void fill_place(std::size_t place, std::uint64_t number);
  bool follow_to(RecordIndex contact);
  void place(RecordIndex new_origin);
  const std::uint8_t* outside_record(RecordIndex r);
  void release_pending();
  void release_leaving();

  std::shared_ptr<const Database> db_;
  WindowSize size_;
  Residency residency_;
  RecordIndex origin_{};
  RecordIndex last_contact_{~std::uint64_t{0}, ~std::uint64_t{0}};  // follow()'s last argument
  bool placed_ = false;
  bool covers_all_ = false;  // the window holds every record of the file
  std::vector<const std::uint8_t*> slots_;  // u-major pointers to the window's records (window_copy: nullptr until copied)
  std::vector<std::uint64_t> held_;  // window_copy: the record number in each place of the buffer, 0 for none
  struct FreeBuffer {
    void operator()(std::uint8_t* p) const;
  };
  std::unique_ptr<std::uint8_t, FreeBuffer> buffer_;  // full_load: all records; window_copy: the window's
  std::size_t buffer_bytes_ = 0;
  WindowStats stats_;
  std::array<std::uint64_t, 4> outside_{};  // records read outside the window, not yet released
  std::uint32_t outside_count_ = 0;
  std::vector<std::uint64_t> leaving_;  // numbers of records whose pages wait for the batch release
};

}  // namespace surfdb
