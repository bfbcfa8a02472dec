#include "counting_allocator.hpp"

#include <cstdlib>
#include <new>

namespace surfdb::test {
std::atomic<long> allocations{0};
std::atomic<bool> counting{false};
}  // namespace surfdb::test

// GCC takes free() in a replacement operator delete for a mismatch with operator new.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t bytes) {
  if (surfdb::test::counting) ++surfdb::test::allocations;
  if (void* p = std::malloc(bytes ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop
