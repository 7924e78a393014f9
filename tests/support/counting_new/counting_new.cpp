// Global operator new / delete replaced by malloc / free with a counter (counting_new.hpp).
// GCC 12 sees free() inside the replaced operator delete and, after inlining std::allocator,
// wrongly reports a new/free mismatch (the replaced new uses malloc): silence that one warning here.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include "support/counting_new.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};

void* counted(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
}  // namespace

long mmdkit::test::allocation_count() noexcept { return g_allocations.load(std::memory_order_relaxed); }

void* operator new(std::size_t n) {
  if (void* p = counted(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counted(n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every allocation must
// pair with the free() above, or AddressSanitizer reports an alloc-dealloc mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted(n); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
