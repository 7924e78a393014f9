// PMD parse / write / JSON throughput next to memcpy of the same bytes, on the corpus miku_v2.pmd
// (712,126 bytes: 12,354 vertices, 68,883 face indices, 140 bones, 31 morphs, 45 rigid bodies).
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR.
// Peer comparison: node /tmp/mmd-peers/bench_parse.mjs --lib all -n 20 <the same file>.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "bench_corpus.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/model/model.hpp"

namespace {

using mmdkit::bench::corpus_bytes;
using mmdkit::bench::ready;

const std::vector<std::uint8_t>& miku() {
  static const std::vector<std::uint8_t> bytes =
      corpus_bytes("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  return bytes;
}

// The largest corpus PMD: the older mei.pmd of the MMDAgent mirror (944,819 bytes: 16,572 vertices,
// 23,100 face indices, 78 bones, 29 morphs; tests/data/pmd_counts.tsv), for the model view loads.
const std::vector<std::uint8_t>& mei() {
  static const std::vector<std::uint8_t> bytes =
      corpus_bytes("mmdagent__mmdagent-mirror@0ca6448/MMDAgent_Example/Model/mei/mei.pmd");
  return bytes;
}

void BM_Memcpy(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  mmdkit::bench::memcpy_loop(state, b);
}

void BM_Parse(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto r = mmdkit::pmd::read(b);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

// Parse with the encoding given (skips detection).
void BM_ParseForcedEncoding(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  mmdkit::pmd::ReadOptions o;
  o.encoding = mmdkit::Encoding::cp932;
  for (auto _ : state) {
    auto r = mmdkit::pmd::read(b, o);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_Write(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  auto m = mmdkit::pmd::read(b);
  if (!m) return state.SkipWithError("parse failed");
  for (auto _ : state) {
    auto w = mmdkit::pmd::write(m->model);
    benchmark::DoNotOptimize(w);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_ToJson(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  auto m = mmdkit::pmd::read(b);
  if (!m) return state.SkipWithError("parse failed");
  for (auto _ : state) {
    auto j = mmdkit::pmd::to_json(m->model);
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_FromJson(benchmark::State& state) {
  const auto& b = miku();
  if (!ready(state, b)) return;
  auto m = mmdkit::pmd::read(b);
  if (!m) return state.SkipWithError("parse failed");
  const std::string json = mmdkit::pmd::to_json(m->model);
  for (auto _ : state) {
    auto r = mmdkit::pmd::from_json(json);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

// The model view of mei.pmd: full (vertices, faces), geometry-free through model::load (the PMD
// reader skips vertices and faces: pmd::ReadOptions::skip_geometry), and geometry-free the way it
// was built before the reader could skip them (full read, then from_pmd without geometry).
void BM_ViewFull(benchmark::State& state) {
  const auto& b = mei();
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto v = mmdkit::model::load(b);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_ViewGeometryFree(benchmark::State& state) {
  const auto& b = mei();
  if (!ready(state, b)) return;
  mmdkit::model::LoadOptions o;
  o.geometry = false;
  for (auto _ : state) {
    auto v = mmdkit::model::load(b, o);
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

void BM_ViewGeometryFreeReadingVertices(benchmark::State& state) {
  const auto& b = mei();
  if (!ready(state, b)) return;
  for (auto _ : state) {
    auto r = mmdkit::pmd::read(b);
    auto v = mmdkit::model::from_pmd(r->model, mmdkit::model::BuildOptions{.geometry = false});
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}

BENCHMARK(BM_Memcpy);
BENCHMARK(BM_Parse);
BENCHMARK(BM_ParseForcedEncoding);
BENCHMARK(BM_Write);
BENCHMARK(BM_ToJson);
BENCHMARK(BM_FromJson);
BENCHMARK(BM_ViewFull);
BENCHMARK(BM_ViewGeometryFree);
BENCHMARK(BM_ViewGeometryFreeReadingVertices);

}  // namespace

BENCHMARK_MAIN();
