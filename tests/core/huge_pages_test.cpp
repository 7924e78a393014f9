// The transparent-huge-page hint (src/core/huge_pages.hpp): which range it covers, and that it
// never changes what the vector holds.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/huge_pages.hpp"

namespace {

using mmdkit::detail::huge_page_range;
constexpr std::uintptr_t MiB = std::uintptr_t{1} << 20;

TEST(HugePages, RangeIsTheWhole2MiBPagesInside) {
  // malloc'd blocks start 16 bytes into a page: the first whole 2 MiB page starts at 2 MiB.
  auto [a, e] = huge_page_range(0x10, 16 * MiB);
  EXPECT_EQ(a, 2 * MiB);
  EXPECT_EQ(e, 16 * MiB);  // 0x10 + 16 MiB rounded down
  // Already aligned: the whole block.
  auto [a2, e2] = huge_page_range(4 * MiB, 8 * MiB);
  EXPECT_EQ(a2, 4 * MiB);
  EXPECT_EQ(e2, 12 * MiB);
}

TEST(HugePages, SmallBlocksAreNotHinted) {
  auto [a, e] = huge_page_range(4 * MiB, 8 * MiB - 1);
  EXPECT_EQ(a, e);
  auto [a0, e0] = huge_page_range(0, 0);
  EXPECT_EQ(a0, e0);
}

TEST(HugePages, AdviceKeepsContents) {
  std::vector<std::uint32_t> v;
  v.reserve(4 * 1024 * 1024);  // 16 MiB: hinted
  v.push_back(7);
  mmdkit::detail::advise_huge_pages(v);
  for (std::uint32_t i = 1; i < 4 * 1024 * 1024; ++i) v.push_back(i * 3u);
  EXPECT_EQ(v[0], 7u);
  EXPECT_EQ(v[1], 3u);
  EXPECT_EQ(v.back(), (4u * 1024 * 1024 - 1) * 3u);
  std::vector<int> small{1, 2, 3};
  mmdkit::detail::advise_huge_pages(small);
  EXPECT_EQ(small, (std::vector<int>{1, 2, 3}));
}

}  // namespace
