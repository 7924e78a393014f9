// Internal (not installed): a transparent-huge-page hint for large arrays that are filled right
// after allocation. Used by the VMD reader/writer and the PMX reader.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mmdkit::detail {

/// Size of a transparent huge page on x86-64 and arm64 with 4 KiB base pages.
inline constexpr std::uintptr_t kHugePageSize = std::uintptr_t{2} << 20;

/// Arrays smaller than this (8 MiB) are not hinted: too few faults to matter.
inline constexpr std::size_t kHugePageMinBytes = 4 * kHugePageSize;

/// The part of [begin, begin + bytes) that the hint covers: the whole 2 MiB pages inside it,
/// as {first, end} addresses (first == end: nothing). Empty below kHugePageMinBytes.
inline std::pair<std::uintptr_t, std::uintptr_t> huge_page_range(std::uintptr_t begin, std::size_t bytes) noexcept {
  if (bytes < kHugePageMinBytes) return {0, 0};
  const std::uintptr_t a = (begin + kHugePageSize - 1) & ~(kHugePageSize - 1);
  const std::uintptr_t e = (begin + bytes) & ~(kHugePageSize - 1);
  return e > a ? std::pair{a, e} : std::pair<std::uintptr_t, std::uintptr_t>{0, 0};
}

/// Large arrays (key arrays, vertex and face arrays, outputs) are written once, front to back,
/// right after allocation: ask for transparent huge pages so that first-touch faults (which
/// dominate at ~100 MB) happen per 2 MiB, not per 4 KiB. Call after reserve() and before the first
/// write. Only a hint on memory the vector owns (the 2 MiB-aligned interior of its capacity);
/// harmless where THP is off (madvise's result is ignored). Never changes the vector's contents.
template <class T>
void advise_huge_pages(std::vector<T>& v) noexcept {
  const auto [a, e] = huge_page_range(reinterpret_cast<std::uintptr_t>(v.data()), v.capacity() * sizeof(T));
  if (e > a) ::madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
}

}  // namespace mmdkit::detail
