// PMM (MMD project) read / write / JSON throughput next to memcpy of the same bytes, on MMD's sample
// project in the corpus (oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm: 1,710,207 bytes,
// version 2, 11 models, 29 accessories, 24,562 regular bone keys; tests/data/pmm_counts.tsv), and the
// project made from a model and a motion (scene::create_project, as `mmdkit pmm create`).
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR. No peer reads .pmm.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "bench_corpus.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/scene/project_create.hpp"

namespace {

using mmdkit::bench::corpus_bytes;
using mmdkit::bench::ready;

const std::vector<std::uint8_t>& sample() {
  static const std::vector<std::uint8_t> bytes =
      corpus_bytes("oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm");
  return bytes;
}

void BM_Memcpy(benchmark::State& state) {
  const auto& b = sample();
  if (!ready(state, b)) return;
  mmdkit::bench::memcpy_loop(state, b);
}

void BM_Read(benchmark::State& state) {
  const auto& b = sample();
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto r = mmdkit::pmm::read(b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

// Times `out(document)` on the parsed sample (write, JSON), bytes = the file's size.
template <class Out>
void on_document(benchmark::State& state, Out out) {
  const auto& b = sample();
  if (!ready(state, b)) return;
  auto r = mmdkit::pmm::read(b);
  if (!r) {
    state.SkipWithError(r.error().to_string().c_str());
    return;
  }
  for (auto _ : state) {
    auto o = out(r->document);
    benchmark::DoNotOptimize(o);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_Write(benchmark::State& state) {
  on_document(state, [](const mmdkit::pmm::Document& d) { return mmdkit::pmm::write(d); });
}

void BM_ToJson(benchmark::State& state) {
  on_document(state, [](const mmdkit::pmm::Document& d) { return mmdkit::pmm::to_json(d); });
}

// A project made from the sample's 初音ミク.pmd (no motion): reading the model file's names and
// building every initial key, as `mmdkit pmm create` does per model.
void BM_Create(benchmark::State& state) {
  const auto model = mmdkit::bench::corpus_dir() / "oigami__PMMEditor/UserFile/Model/初音ミク.pmd";
  if (!std::filesystem::exists(model)) {
    state.SkipWithError("corpus file not found (set MMDKIT_CORPUS)");
    return;
  }
  mmdkit::scene::CreateInput in;
  in.models.push_back(mmdkit::scene::CreateModel{model, {}});
  for (auto _ : state) {
    std::vector<mmdkit::Warning> w;
    auto d = mmdkit::scene::create_project(in, w);
    benchmark::DoNotOptimize(d);
  }
}

BENCHMARK(BM_Memcpy);
BENCHMARK(BM_Read)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Write)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ToJson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Create)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
