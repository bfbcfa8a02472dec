#include "surfdb/table/storage_window.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <cstring>
#include <stdexcept>

namespace surfdb {

const char* residency_name(Residency r) {
  switch (r) {
    case Residency::full_load: return "full";
    case Residency::window_copy: return "copy";
    case Residency::direct_mapping: return "direct";
  }
  return "?";
}

StorageWindow::StorageWindow(std::shared_ptr<const Database> db, WindowSize size, Residency residency)
    : db_(std::move(db)), residency_(residency) {
  const RecordLayout& l = db_->layout();
  if (size.u_records < 1 || size.v_records < 1)
    throw std::invalid_argument("a storage window needs at least 1 x 1 records");
  if (residency_ == Residency::full_load) {
    size_ = {static_cast<std::uint32_t>(l.u_records), static_cast<std::uint32_t>(l.v_records)};
  } else {
    size_.u_records = static_cast<std::uint32_t>(std::min<std::uint64_t>(size.u_records, l.u_records));
    size_.v_records = static_cast<std::uint32_t>(std::min<std::uint64_t>(size.v_records, l.v_records));
  }
  covers_all_ = size_.u_records == l.u_records && size_.v_records == l.v_records;
  slots_.assign(std::size_t{size_.u_records} * size_.v_records, nullptr);
  if (residency_ != Residency::direct_mapping) {
    // 2 MiB-aligned and, where the kernel allows, backed by huge pages: random access over a
    // whole table is bound by TLB misses, which huge pages all but remove.
    constexpr std::size_t huge = std::size_t{2} << 20;
    buffer_bytes_ = slots_.size() * l.record_bytes;
    const std::size_t rounded = (buffer_bytes_ + huge - 1) / huge * huge;
    buffer_.reset(static_cast<std::uint8_t*>(std::aligned_alloc(huge, rounded)));
    if (!buffer_) throw std::bad_alloc();
    ::madvise(buffer_.get(), rounded, MADV_HUGEPAGE);
    held_.assign(slots_.size(), 0);
  }
  if (residency_ == Residency::full_load) place({0, 0});
}

void StorageWindow::FreeBuffer::operator()(std::uint8_t* p) const { std::free(p); }

StorageWindow::~StorageWindow() {
  if (db_ && !leaving_.empty()) release_leaving();
}
StorageWindow::StorageWindow(StorageWindow&&) noexcept = default;
StorageWindow& StorageWindow::operator=(StorageWindow&&) noexcept = default;

bool StorageWindow::follow_to(RecordIndex contact) {
  const RecordLayout& l = db_->layout();
  last_contact_ = contact;
  if (placed_ && contains(contact)) {
    const bool border = contact.ti == origin_.ti || contact.ti == origin_.ti + size_.u_records - 1 ||
                        contact.tj == origin_.tj || contact.tj == origin_.tj + size_.v_records - 1;
    if (!border) return false;
  }
  const auto centred = [](std::uint64_t at, std::uint32_t extent, std::uint64_t count) {
    const std::uint64_t half = extent / 2;
    return std::min(at > half ? at - half : 0, count - extent);
  };
  const RecordIndex target{centred(contact.ti, size_.u_records, l.u_records),
                           centred(contact.tj, size_.v_records, l.v_records)};
  if (placed_ && target == origin_) return false;  // the border is the surface's own
  if (placed_) ++stats_.updates;
  place(target);
  return true;
}

const std::uint8_t* StorageWindow::outside_record(RecordIndex r) {
  ++stats_.outside_reads;
  const std::uint64_t number = db_->layout().record_number(r);
  const auto pending = outside_.begin() + outside_count_;
  if (std::find(outside_.begin(), pending, number) == pending) {
    if (outside_count_ == outside_.size()) release_pending();  // callers release after each query
    outside_[outside_count_++] = number;
  }
  return db_->record(number);
}

void StorageWindow::release_pending() {
  leaving_.insert(leaving_.end(), outside_.begin(), outside_.begin() + outside_count_);
  outside_count_ = 0;
  if (leaving_.size() >= slots_.size()) release_leaving();
}

void StorageWindow::place(RecordIndex new_origin) {
  const RecordLayout& l = db_->layout();
  const bool direct = residency_ == Residency::direct_mapping;
  const RecordIndex old_origin = origin_;
  const bool had = placed_;
  placed_ = false;  // until every record is in: a damaged record leaves the window unplaced
  origin_ = new_origin;
  for (std::uint32_t a = 0; a < size_.u_records; ++a) {
    for (std::uint32_t b = 0; b < size_.v_records; ++b) {
      const RecordIndex r{new_origin.ti + a, new_origin.tj + b};
      const std::uint64_t number = l.record_number(r);
      const bool kept = had && r.ti - old_origin.ti < size_.u_records && r.tj - old_origin.tj < size_.v_records;
      const std::size_t k = std::size_t{a} * size_.v_records + b;
      if (direct) {
        slots_[k] = db_->record(number);
        stats_.records_read += !kept;
      } else {
        // A record keeps its place in the buffer while it stays in the window (the buffer is a
        // torus over record indices). full_load copies every record now; window_copy copies a
        // record when a query first needs it (fill), so a move copies only the entering records a
        // path then reads, by a read call: the mapping's page tables are not touched.
        const std::size_t place = home(r);
        if (held_[place] != number && residency_ == Residency::full_load) fill_place(place, number);
        slots_[k] = held_[place] == number ? buffer_.get() + place * l.record_bytes : nullptr;
      }
    }
  }
  placed_ = true;
  if (direct && had) {  // the records that left: their pages go with the next batch of releases
    for (std::uint32_t a = 0; a < size_.u_records; ++a)
      for (std::uint32_t b = 0; b < size_.v_records; ++b) {
        const RecordIndex r{old_origin.ti + a, old_origin.tj + b};
        if (!contains(r)) leaving_.push_back(l.record_number(r));
      }
    if (leaving_.size() >= slots_.size()) release_leaving();
  }
  stats_.bytes_resident = direct ? slots_.size() * l.record_bytes : buffer_bytes_;
}

std::size_t StorageWindow::home(RecordIndex r) const {
  return (r.ti % size_.u_records) * size_.v_records + r.tj % size_.v_records;
}

void StorageWindow::fill_place(std::size_t place, std::uint64_t number) {
  held_[place] = 0;  // until the copy is whole: a damaged record leaves the place empty
  db_->read_record(number, buffer_.get() + place * db_->layout().record_bytes);
  held_[place] = number;
  ++stats_.records_read;
}

const std::uint8_t* StorageWindow::fill(RecordIndex r, std::size_t k) {
  // Only a placed window_copy has empty slots inside the window: direct mapping and full load
  // fill all when placed, and an unplaced window (or one whose placement failed) holds nothing.
  if (residency_ != Residency::window_copy || !placed_) return outside_record(r);
  const std::size_t place = home(r);
  fill_place(place, db_->layout().record_number(r));
  return slots_[k] = buffer_.get() + place * db_->layout().record_bytes;
}

void StorageWindow::release_leaving() {
  // Records back in the window since they left keep their pages (the hysteresis of the batch);
  // the others are released a run of consecutive record numbers at a time.
  const RecordLayout& l = db_->layout();
  std::sort(leaving_.begin(), leaving_.end());
  leaving_.erase(std::unique(leaving_.begin(), leaving_.end()), leaving_.end());
  std::uint64_t first = 0, count = 0;  // the run being gathered
  const auto flush = [&] {
    if (count != 0) {
      db_->release(first, count);
      ++stats_.releases;
    }
    count = 0;
  };
  for (const std::uint64_t number : leaving_) {
    const std::uint64_t index = number - 1;
    // A direct window reads its records through these pages; a copied window never does.
    if (residency_ == Residency::direct_mapping && contains({index / l.v_records, index % l.v_records})) continue;
    if (count != 0 && number == first + count) {
      ++count;
    } else {
      flush();
      first = number;
      count = 1;
    }
  }
  flush();
  leaving_.clear();
}

}  // namespace surfdb
