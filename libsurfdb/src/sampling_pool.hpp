// Worker threads that sample one record row at a time, started once per conversion: the caller
// hands out a row, the workers share its records (each pulls the next record number), and the
// caller writes the row while they wait for the next. An exception on a worker is rethrown by
// sample_row() on the caller's thread.
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace surfdb {

class SamplingPool {
 public:
  /// work(worker, row, record) fills one record; workers 0 .. threads - 1 run it concurrently.
  using Work = std::function<void(unsigned worker, std::uint64_t row, std::uint64_t record)>;

  SamplingPool(unsigned threads, std::uint64_t records_per_row, Work work)
      : records_(records_per_row), work_(std::move(work)), sync_(static_cast<std::ptrdiff_t>(threads) + 1),
        errors_(threads) {
    for (unsigned w = 0; w < threads; ++w) workers_.emplace_back([this, w] { serve(w); });
  }

  /// Releases the workers, which are waiting for a row whenever the caller runs.
  ~SamplingPool() {
    stop_ = true;
    sync_.arrive_and_wait();
  }

  SamplingPool(const SamplingPool&) = delete;
  SamplingPool& operator=(const SamplingPool&) = delete;

  /// Samples every record of `row`; returns when all are done.
  void sample_row(std::uint64_t row) {
    row_ = row;
    next_ = 0;
    sync_.arrive_and_wait();  // the row is handed out
    sync_.arrive_and_wait();  // every record of it is done
    for (std::exception_ptr& e : errors_)
      if (e) std::rethrow_exception(std::exchange(e, nullptr));
  }

 private:
  void serve(unsigned w) {
    for (;;) {
      sync_.arrive_and_wait();
      if (stop_) return;
      try {
        for (std::uint64_t r; (r = next_++) < records_;) work_(w, row_, r);
      } catch (...) {
        errors_[w] = std::current_exception();
      }
      sync_.arrive_and_wait();
    }
  }

  std::uint64_t records_;
  Work work_;
  std::barrier<> sync_;
  std::vector<std::exception_ptr> errors_;
  std::uint64_t row_ = 0;             // written by the caller before the first barrier of a row
  std::atomic<std::uint64_t> next_{0};
  bool stop_ = false;                 // likewise
  std::vector<std::jthread> workers_;  // last: joined before the members they use go
};

}  // namespace surfdb
