// ThreadPool (core/thread_pool.hpp): parallel_for hands out every index of [0, n) exactly once, in
// contiguous ranges, whatever n and the number of participants; small n runs on the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "mmdkit/core/thread_pool.hpp"

namespace mmdkit {
namespace {

struct Coverage {
  std::vector<std::atomic<int>> hits;
  std::atomic<int> calls{0};
  std::atomic<int> off_caller{0};
  std::thread::id caller = std::this_thread::get_id();
  explicit Coverage(std::size_t n) : hits(n) {}
};

void mark(void* c, std::size_t b, std::size_t e) {
  auto* cov = static_cast<Coverage*>(c);
  cov->calls.fetch_add(1);
  if (std::this_thread::get_id() != cov->caller) cov->off_caller.fetch_add(1);
  for (std::size_t i = b; i < e; ++i) cov->hits[i].fetch_add(1);
}

TEST(ThreadPool, ParallelForCoversEveryIndexExactlyOnce) {
  for (const unsigned threads : {1u, 2u, 3u, 5u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2047}, std::size_t{2048},
                                std::size_t{10007}, std::size_t{200000}}) {
      for (int rep = 0; rep < 5; ++rep) {
        Coverage cov(n);
        pool.parallel_for(n, &mark, &cov);
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(cov.hits[i].load(), 1) << threads << " " << n << " " << i;
        // Chunks: one call below 2048 items or with one participant; else ≤ 8 per participant of
        // ≥ 1024 items (200000 items, 2 participants: 16 chunks of 12500).
        const int calls = cov.calls.load();
        if (n < 2048 || threads == 1) {
          EXPECT_EQ(calls, 1);
          EXPECT_EQ(cov.off_caller.load(), 0);
        } else {
          EXPECT_LE(calls, static_cast<int>(8 * threads));
          EXPECT_LE(static_cast<std::size_t>(calls), n / 1024 + 1);
          EXPECT_GE(calls, 2);
        }
      }
    }
  }
}

}  // namespace
}  // namespace mmdkit
