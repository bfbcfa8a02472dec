// The converter's worker pool: every record of a row sampled exactly once, workers kept for the
// whole conversion, a worker's exception rethrown on the caller's thread without a hang.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "../../libsurfdb/src/sampling_pool.hpp"

using surfdb::SamplingPool;

TEST_CASE("sampling pool: each record of each row once, by workers that live across rows") {
  constexpr unsigned threads = 2;
  constexpr std::uint64_t rows = 10, records = 4;
  std::vector<std::atomic<int>> visits(rows * records);
  std::atomic<std::uint64_t> most_calls_on_one_thread{0};
  {
    SamplingPool pool(threads, records, [&](unsigned, std::uint64_t row, std::uint64_t record) {
      ++visits[row * records + record];
      // Catches a pool started per row (as the converter once did): a thread's count then never
      // exceeds one row's records.
      thread_local std::uint64_t calls = 0;
      const std::uint64_t mine = ++calls;
      std::uint64_t seen = most_calls_on_one_thread.load();
      while (mine > seen && !most_calls_on_one_thread.compare_exchange_weak(seen, mine)) {
      }
    });
    for (std::uint64_t row = 0; row < rows; ++row) pool.sample_row(row);
  }
  for (const auto& v : visits) CHECK(v.load() == 1);
  CHECK(most_calls_on_one_thread.load() > records);
}

TEST_CASE("sampling pool: a worker's exception reaches the caller, and the pool still ends") {
  SamplingPool pool(2, 3, [](unsigned, std::uint64_t row, std::uint64_t record) {
    if (row == 1 && record == 2) throw std::runtime_error("bad node");
  });
  CHECK_NOTHROW(pool.sample_row(0));
  CHECK_THROWS_WITH_AS(pool.sample_row(1), "bad node", std::runtime_error);
  CHECK_NOTHROW(pool.sample_row(2));  // the error was reported once; the workers go on
}
