// mmdkit — the thread pool (core/thread_pool.hpp).
#include "mmdkit/core/thread_pool.hpp"

#include <algorithm>

namespace mmdkit {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_chunks(const Call& call) noexcept {
  const std::uint64_t tag = static_cast<std::uint64_t>(call.generation) << 32;
  std::uint64_t cur = next_.load(std::memory_order_acquire);
  for (;;) {
    // Claim the next chunk of this call; stop when they are all claimed or a newer call began.
    if ((cur & ~0xFFFFFFFFull) != tag || (cur & 0xFFFFFFFFull) >= call.chunks) return;
    if (!next_.compare_exchange_weak(cur, cur + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
    const std::size_t b = static_cast<std::size_t>(cur & 0xFFFFFFFFull) * call.chunk;
    call.job(call.context, b, std::min(call.n, b + call.chunk));
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == call.chunks) done_.notify_all();
    cur = next_.load(std::memory_order_acquire);
  }
}

void ThreadPool::worker() noexcept {
  std::uint32_t seen = 0;
  for (;;) {
    Call call;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || call_.generation != seen; });
      if (stop_) return;
      call = call_;
      seen = call.generation;
    }
    run_chunks(call);
  }
}

void ThreadPool::parallel_for(std::size_t n, Job job, void* context) noexcept {
  constexpr std::size_t kMinChunk = 1024, kChunksPerParticipant = 8;
  const std::size_t chunks =
      std::min<std::size_t>(n / kMinChunk, std::size_t{size()} * kChunksPerParticipant);
  if (workers_.empty() || chunks < 2) {
    job(context, 0, n);
    return;
  }
  Call call;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    call = {call_.generation + 1, job, context, n, (n + chunks - 1) / chunks, 0};
    call.chunks = static_cast<std::uint32_t>((n + call.chunk - 1) / call.chunk);
    if (call.generation == 0) call.generation = 1;  // 0 is "no call yet" for the workers
    done_.store(0, std::memory_order_relaxed);
    next_.store(static_cast<std::uint64_t>(call.generation) << 32, std::memory_order_release);
    call_ = call;
  }
  start_.notify_all();
  run_chunks(call);
  for (std::uint32_t d = done_.load(std::memory_order_acquire); d < call.chunks;
       d = done_.load(std::memory_order_acquire))
    done_.wait(d, std::memory_order_acquire);
}

}  // namespace mmdkit
