// mmdkit — a fixed thread pool for data-parallel loops (skinning, and any per-frame loop over
// vertices or bones): workers are created once and reused, nothing is allocated per call.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace mmdkit {

/// A fixed set of worker threads created once and reused for every frame (no allocation and no
/// thread creation per call). parallel_for cuts [0, n) into contiguous chunks (up to 8 per
/// participant, at least 1024 items each) handed out through an atomic counter to the workers and
/// the calling thread, and returns when every chunk is done. A worker that the OS has not
/// scheduled yet (a busy machine) does not hold the frame up: the others take its chunks, and a
/// late worker finds none left and goes back to sleep. Results do not depend on who ran a chunk.
class ThreadPool {
 public:
  using Job = void (*)(void* context, std::size_t begin, std::size_t end);
  /// `threads` = total participants including the caller (0 = std::thread::hardware_concurrency()).
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  /// Participants (≥ 1).
  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }
  /// Runs job(context, b, e) over disjoint ranges covering [0, n) exactly once (possibly several
  /// calls per thread, concurrently on different threads); blocks until all are done. n < 2048 or
  /// a pool of one runs job(context, 0, n) on the caller. Not reentrant; one caller at a time.
  void parallel_for(std::size_t n, Job job, void* context) noexcept;

 private:
  struct Call {
    std::uint32_t generation;
    Job job;
    void* context;
    std::size_t n, chunk;
    std::uint32_t chunks;
  };
  void worker() noexcept;
  void run_chunks(const Call& call) noexcept;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_;
  bool stop_ = false;
  Call call_{};  // the current call; written under mutex_ before its generation is published
  // (generation << 32) | next chunk index: a claim succeeds only for the call it was read for.
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint32_t> done_{0};  // chunks finished in the current call
};

}  // namespace mmdkit
