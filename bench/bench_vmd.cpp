// VMD parse / summarize / write throughput next to memcpy of the same bytes, on the corpus
// wavefile_v2.vmd (1.6 MB, 14,160 bone keys) and on a generated 1,000,000-key motion (111 MB);
// the generator making that motion, and the JSON text both ways on wavefile_v2.
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/formats/vmd_json.hpp"

namespace {

using mmdkit::vmd::Motion;

const std::vector<std::uint8_t>& wavefile() {
  static const std::vector<std::uint8_t> bytes = [] {
    const char* env = std::getenv("MMDKIT_CORPUS");
    std::filesystem::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    auto r = mmdkit::read_file(dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
    return r ? std::move(*r) : std::vector<std::uint8_t>{};
  }();
  return bytes;
}

const std::vector<std::uint8_t>& generated() {
  static const std::vector<std::uint8_t> bytes = [] {
    mmdkit::vmd::GenerateOptions o;
    o.bone_keys = 1'000'000;
    o.morph_keys = 0;
    o.frames = 30'000;
    return *mmdkit::vmd::write(mmdkit::vmd::generate(o));
  }();
  return bytes;
}

const std::vector<std::uint8_t>& input(int which) { return which == 0 ? wavefile() : generated(); }

bool ready(benchmark::State& state, const std::vector<std::uint8_t>& b) {
  if (!b.empty()) return true;
  state.SkipWithError("corpus file wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
  return false;
}

void BM_Parse(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto r = mmdkit::vmd::read(b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_Summarize(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto r = mmdkit::vmd::summarize(b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_Write(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (!ready(state, b)) return;
  Motion m = mmdkit::vmd::read(b)->motion;
  for (auto _ : state) {
    auto w = mmdkit::vmd::write(m);
    benchmark::DoNotOptimize(w);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_Memcpy(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (!ready(state, b)) return;
  for (auto _ : state) {
    std::vector<std::uint8_t> copy(b.size());  // fresh allocation, like the parse and write results
    std::memcpy(copy.data(), b.data(), b.size());
    benchmark::DoNotOptimize(copy.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

// `mmdkit generate`'s motion of 1,000,000 bone keys, made and written.
void BM_GenerateOneMillionKeys(benchmark::State& state) {
  mmdkit::vmd::GenerateOptions o;
  o.bone_keys = 1'000'000;
  o.morph_keys = 0;
  for (auto _ : state) {
    auto w = mmdkit::vmd::write(mmdkit::vmd::generate(o));
    benchmark::DoNotOptimize(w);
  }
}

void BM_ToJson(benchmark::State& state) {
  const auto& b = wavefile();
  if (!ready(state, b)) return;
  Motion m = mmdkit::vmd::read(b)->motion;
  std::size_t n = 0;
  for (auto _ : state) {
    std::string j = mmdkit::vmd::to_json(m);
    n = j.size();
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));  // JSON bytes
}

void BM_FromJson(benchmark::State& state) {
  const auto& b = wavefile();
  if (!ready(state, b)) return;
  const std::string j = mmdkit::vmd::to_json(mmdkit::vmd::read(b)->motion);
  for (auto _ : state) {
    auto m = mmdkit::vmd::from_json(j);
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * j.size()));  // JSON bytes
}

// Arg 0 = wavefile_v2.vmd, 1 = generated 1M keys.
BENCHMARK(BM_Parse)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Summarize)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Memcpy)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateOneMillionKeys)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ToJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FromJson)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
