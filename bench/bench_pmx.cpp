// PMX parse / write throughput next to memcpy of the same bytes, on the largest corpus PMX and on
// a generated 1,000,000-vertex model. Bytes/s are input (parse) or output (write) file bytes.
//
//   build/<dir>/bench/bench_pmx [--benchmark_filter=...]
//   MMDKIT_CORPUS=/path/to/corpus overrides the corpus folder.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "bench_corpus.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"

namespace {

namespace fs = std::filesystem;

const std::vector<std::uint8_t>& largest_corpus_pmx() {
  static const std::vector<std::uint8_t> bytes = [] {
    const char* env = std::getenv("MMDKIT_CORPUS");
    fs::path dir = env && *env ? fs::path(env) : fs::path(MMDKIT_DEFAULT_CORPUS_DIR);
    fs::path best;
    std::uintmax_t best_size = 0;
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
      for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (!it->is_regular_file(ec)) continue;
        auto ext = it->path().extension().string();
        if (ext != ".pmx" && ext != ".PMX") continue;
        if (it->file_size(ec) > best_size) best_size = it->file_size(ec), best = it->path();
      }
    }
    if (best.empty()) return std::vector<std::uint8_t>{};
    auto r = mmdkit::read_file(best);
    return r ? std::move(*r) : std::vector<std::uint8_t>{};
  }();
  return bytes;
}

const std::vector<std::uint8_t>& generated_1m() {
  static const std::vector<std::uint8_t> bytes = [] {
    mmdkit::pmx::GenerateOptions o;
    o.vertices = 1'000'000;
    o.bones = 200;
    o.morphs = 50;
    auto m = mmdkit::pmx::generate(o);
    return m ? mmdkit::pmx::write(*m).value_or(std::vector<std::uint8_t>{}) : std::vector<std::uint8_t>{};
  }();
  return bytes;
}

const std::vector<std::uint8_t>& input(int which) { return which == 0 ? largest_corpus_pmx() : generated_1m(); }

void label(benchmark::State& state, const std::vector<std::uint8_t>& b) {
  state.SetLabel(std::string(state.range(0) == 0 ? "largest corpus PMX, " : "generated 1M vertices, ") +
                 std::to_string(b.size()) + " bytes");
}

void BM_Memcpy(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("input not available");
  mmdkit::bench::memcpy_loop(state, b);
  label(state, b);
}

void BM_Parse(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("input not available");
  for (auto _ : state) {
    auto r = mmdkit::pmx::read(b);
    if (!r) return state.SkipWithError(r.error().to_string().c_str());
    benchmark::DoNotOptimize(r->model.vertices.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  label(state, b);
}

void BM_ParseSkipGeometry(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("input not available");
  for (auto _ : state) {
    auto r = mmdkit::pmx::read(b, mmdkit::pmx::ReadOptions{.skip_geometry = true});
    if (!r) return state.SkipWithError(r.error().to_string().c_str());
    benchmark::DoNotOptimize(r->counts.vertices);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  label(state, b);
}

void BM_Write(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("input not available");
  auto r = mmdkit::pmx::read(b);
  if (!r) return state.SkipWithError(r.error().to_string().c_str());
  for (auto _ : state) {
    auto w = mmdkit::pmx::write(r->model);
    benchmark::DoNotOptimize(w->data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  label(state, b);
}

void BM_ToJson(benchmark::State& state) {
  const auto& b = input(static_cast<int>(state.range(0)));
  if (b.empty()) return state.SkipWithError("input not available");
  auto r = mmdkit::pmx::read(b);
  if (!r) return state.SkipWithError(r.error().to_string().c_str());
  for (auto _ : state) {
    auto j = mmdkit::pmx::to_json(r->model);
    benchmark::DoNotOptimize(j.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
  label(state, b);
}

BENCHMARK(BM_Memcpy)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Parse)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseSkipGeometry)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ToJson)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
