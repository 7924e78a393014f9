// What the file-format benchmarks share: the corpus folder, a corpus file's bytes, the skip when it
// is missing, and memcpy of the same bytes (the scale every parse / write row is read against).
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR (bench/CMakeLists.txt).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "mmdkit/core/file.hpp"

namespace mmdkit::bench {

inline std::filesystem::path corpus_dir() {
  const char* env = std::getenv("MMDKIT_CORPUS");
  return env && *env ? std::filesystem::path(env) : std::filesystem::path(MMDKIT_DEFAULT_CORPUS_DIR);
}

/// The bytes of `local_path` below the corpus folder; empty when it cannot be read.
inline std::vector<std::uint8_t> corpus_bytes(const std::filesystem::path& local_path) {
  auto r = read_file(corpus_dir() / local_path);
  return r ? std::move(*r) : std::vector<std::uint8_t>{};
}

/// False (the benchmark skipped with a message) when the input is empty.
inline bool ready(benchmark::State& state, const std::vector<std::uint8_t>& b) {
  if (!b.empty()) return true;
  state.SkipWithError("corpus file not found (set MMDKIT_CORPUS)");
  return false;
}

/// memcpy of `b` into one buffer kept across iterations; bytes/s = b's size.
inline void memcpy_loop(benchmark::State& state, const std::vector<std::uint8_t>& b) {
  std::vector<std::uint8_t> dst(b.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), b.data(), b.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

}  // namespace mmdkit::bench
