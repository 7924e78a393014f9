// Internal: a transparent-huge-page hint for large arrays that are filled right after allocation.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <vector>

namespace mmdkit::vmd::detail {

/// Large key arrays and outputs are written once, front to back, right after allocation: ask for
/// transparent huge pages so that first-touch faults (which dominate at ~100 MB) happen per
/// 2 MiB, not per 4 KiB. Call after reserve() and before the first write. Only a hint on memory
/// the vector owns (the 2 MiB-aligned interior of its capacity); harmless where THP is off.
template <class T>
void advise_huge_pages(std::vector<T>& v) noexcept {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const std::size_t bytes = v.capacity() * sizeof(T);
  if (bytes < 4 * kHuge) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t a = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t e = (begin + bytes) & ~(kHuge - 1);
  if (e > a) ::madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
}

}  // namespace mmdkit::vmd::detail
