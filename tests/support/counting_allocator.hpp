// A test program's operator new replaced to count the allocations made while `counting` is set
// (counting_allocator.cpp, linked into the programs that check a hot path allocates nothing).
#pragma once

#include <atomic>

namespace surfdb::test {
extern std::atomic<long> allocations;
extern std::atomic<bool> counting;
}  // namespace surfdb::test
