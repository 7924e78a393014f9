// Skinning and morph throughput (anim/skinning.hpp, anim/morph.hpp).
//
// BM_Skin*: a generated 200,000-vertex BDEF4 model (64 bones, deterministic), positions + normals
// per frame, one thread and a pool of all cores, with the kernel the CPU selects (AVX-512F, else
// AVX2 + FMA on x86-64 CPUs that have them) and, as the "before" of the same run, the portable
// baseline kernel (`…Baseline` variants, SkinKernelIsa::baseline) and the AVX2 kernel (`…Avx2`,
// skipped with an error on a CPU without AVX2 + FMA).
// BM_Bound: the memory traffic of the bytes skinning must move per vertex, with as little
// arithmetic as possible, on one thread: it reads what the kernel reads — bind position and normal
// (24 B, memcpy'd into the outputs, which is also the 24 B written), 4 bone indices (16 B), 4
// weights (16 B), the skin type (1 B) — 57 B read + 24 B written = 81 B per vertex, 16.2 MB per
// frame. The 33 B of indices, weights and types are folded with XOR into 4 independent 64-bit
// accumulators (no float add chain: the loop runs at load speed, so the bound is not inflated by
// arithmetic latency). BM_BoundAllCores: the same spread over the pool (information: how much the
// memory side itself scales with cores). Counters: bytes_per_second over the same 81 B / vertex
// in all; ratio = skin time / BM_Bound time (target ≤ 2 on all cores).
// BM_PoolEmpty: parallel_for of an empty job over 200,000 items (the pool's per-frame wake-up and
// hand-out cost).
// BM_MorphsMiku: apply_morphs per frame for miku_v2.pmd with the morph tracks of wavefile_v2.vmd
// (corpus; skipped when absent). Corpus folder: $MMDKIT_CORPUS, else MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <thread>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/morph.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skinning.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"

using namespace mmdkit;

namespace {

constexpr std::size_t kVertices = 200'000;
constexpr std::size_t kBones = 64;
constexpr std::size_t kBytesPerVertex = 57 + 24;

struct SkinScene {
  anim::SkinningData data;
  std::vector<mmdkit::Mat4> mats;
  std::vector<mmdkit::Quat> rots;
  std::vector<mmdkit::Vec3> pos, nrm;
};

SkinScene& skin_scene() {
  static SkinScene s = [] {
    SkinScene x;
    std::vector<anim::SkinningData::VertexIn> in(kVertices);
    std::uint64_t r = 12345;
    auto next = [&] {
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<std::uint32_t>(r >> 33);
    };
    for (std::size_t v = 0; v < kVertices; ++v) {
      auto& o = in[v];
      o.position = {static_cast<float>(next() % 2000) * 0.01f, static_cast<float>(next() % 2000) * 0.01f,
                    static_cast<float>(next() % 2000) * 0.01f};
      o.normal = {0, 1, 0};
      o.type = anim::SkinType::bdef4;
      const std::int32_t b = static_cast<std::int32_t>(next() % kBones);
      o.bones = {b, static_cast<std::int32_t>((b + 1) % kBones), static_cast<std::int32_t>((b + 7) % kBones),
                 static_cast<std::int32_t>((b + 13) % kBones)};
      o.weights = {0.4f, 0.3f, 0.2f, 0.1f};
    }
    x.data = *anim::SkinningData::create(in, kBones);
    for (std::size_t b = 0; b < kBones; ++b) {
      x.rots.push_back(mmdkit::quat_from_axis_angle({0, 1, 0}, 0.01f * static_cast<float>(b)));
      x.mats.push_back(anim::rigid_matrix(x.rots.back(), {0.1f * static_cast<float>(b), 0, 0}));
    }
    x.pos.resize(kVertices);
    x.nrm.resize(kVertices);
    return x;
  }();
  return s;
}

// Selects the kernel of a run (-1 = the one the CPU picks, else a SkinKernelIsa) and restores the
// automatic choice afterwards.
struct KernelChoice {
  anim::SkinKernelIsa automatic = anim::skin_kernel_isa();
  KernelChoice(benchmark::State& state, int isa) {
    if (isa >= 0) {
      const auto want = static_cast<anim::SkinKernelIsa>(isa);
      if (anim::set_skin_kernel_isa(want) != want) state.SkipWithError("kernel not supported by this CPU");
    }
    const anim::SkinKernelIsa got = anim::skin_kernel_isa();
    state.SetLabel(got == anim::SkinKernelIsa::avx512     ? "avx512"
                   : got == anim::SkinKernelIsa::avx2_fma ? "avx2_fma"
                                                          : "baseline");
  }
  ~KernelChoice() { anim::set_skin_kernel_isa(automatic); }
};

void set_counters(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kVertices * kBytesPerVertex));
  state.counters["vertices/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kVertices),
                                                    benchmark::Counter::kIsRate);
}

void run_single_thread(benchmark::State& state, int isa) {
  SkinScene& s = skin_scene();
  KernelChoice k(state, isa);
  anim::SkinWorkspace ws(s.data);
  for (auto _ : state) {
    anim::skin(s.data, {s.mats, s.rots}, ws, {}, s.pos, s.nrm);
    benchmark::DoNotOptimize(s.pos.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_SkinSingleThread(benchmark::State& state) { run_single_thread(state, -1); }
void BM_SkinSingleThreadBaseline(benchmark::State& state) { run_single_thread(state, 0); }
void BM_SkinSingleThreadAvx2(benchmark::State& state) { run_single_thread(state, 1); }
BENCHMARK(BM_SkinSingleThread)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SkinSingleThreadBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SkinSingleThreadAvx2)->Unit(benchmark::kMillisecond)->UseRealTime();

void run_all_cores(benchmark::State& state, int isa) {
  SkinScene& s = skin_scene();
  KernelChoice k(state, isa);
  anim::SkinWorkspace ws(s.data);
  ThreadPool pool(0);
  state.counters["threads"] = pool.size();
  for (auto _ : state) {
    anim::skin_parallel(pool, s.data, {s.mats, s.rots}, ws, {}, s.pos, s.nrm);
    benchmark::DoNotOptimize(s.pos.data());
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
void BM_SkinAllCores(benchmark::State& state) { run_all_cores(state, -1); }
void BM_SkinAllCoresBaseline(benchmark::State& state) { run_all_cores(state, 0); }
void BM_SkinAllCoresAvx2(benchmark::State& state) { run_all_cores(state, 1); }
BENCHMARK(BM_SkinAllCores)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SkinAllCoresBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SkinAllCoresAvx2)->Unit(benchmark::kMillisecond)->UseRealTime();

// XOR of `bytes` bytes (a multiple of 8) as 64-bit words into 4 independent accumulators.
std::uint64_t fold(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t a[4] = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 32 <= bytes; i += 32)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      a[k] ^= w;
    }
  for (; i < bytes; ++i) a[0] ^= p[i];
  return a[0] ^ a[1] ^ a[2] ^ a[3];
}

// The memory traffic of vertices [b, e): 57 B read, 24 B written per vertex.
std::uint64_t bound_range(SkinScene& s, std::size_t b, std::size_t e) {
  const auto pos = s.data.bind_positions();
  const auto nrm = s.data.bind_normals();
  std::memcpy(s.pos.data() + b, pos.data() + b, (e - b) * sizeof(mmdkit::Vec3));
  std::memcpy(s.nrm.data() + b, nrm.data() + b, (e - b) * sizeof(mmdkit::Vec3));
  return fold(s.data.bones().data() + b, (e - b) * 16) ^ fold(s.data.weights().data() + b, (e - b) * 16) ^
         fold(s.data.types().data() + b, e - b);
}

void BM_Bound(benchmark::State& state) {
  SkinScene& s = skin_scene();
  for (auto _ : state) {
    benchmark::DoNotOptimize(bound_range(s, 0, kVertices));
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
BENCHMARK(BM_Bound)->Unit(benchmark::kMillisecond)->UseRealTime();

struct BoundJob {
  SkinScene* s;
  std::atomic<std::uint64_t> sink{0};
};
void BM_BoundAllCores(benchmark::State& state) {
  BoundJob job{&skin_scene()};
  ThreadPool pool(0);
  state.counters["threads"] = pool.size();
  for (auto _ : state) {
    pool.parallel_for(
        kVertices,
        [](void* c, std::size_t b, std::size_t e) {
          auto* j = static_cast<BoundJob*>(c);
          j->sink.fetch_xor(bound_range(*j->s, b, e), std::memory_order_relaxed);
        },
        &job);
    benchmark::ClobberMemory();
  }
  set_counters(state);
}
BENCHMARK(BM_BoundAllCores)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PoolEmpty(benchmark::State& state) {
  ThreadPool pool(0);
  state.counters["threads"] = pool.size();
  for (auto _ : state) pool.parallel_for(kVertices, [](void*, std::size_t, std::size_t) {}, nullptr);
}
BENCHMARK(BM_PoolEmpty)->Unit(benchmark::kMicrosecond)->UseRealTime();

struct MorphScene {
  model::Model view;
  anim::MorphData data;
  anim::BoundMotion bound;
  std::uint32_t last = 0;
};

const MorphScene* morph_scene() {
  static const std::optional<MorphScene> s = []() -> std::optional<MorphScene> {
    const char* env = std::getenv("MMDKIT_CORPUS");
    std::filesystem::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    auto view = model::load_file(dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
    auto vb = read_file(dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
    if (!view || !vb) return std::nullopt;
    auto v = vmd::read(*vb);
    if (!v) return std::nullopt;
    auto d = anim::MorphData::create(*view);
    if (!d) return std::nullopt;
    std::vector<std::vector<std::uint8_t>> keys;
    for (const auto& m : view->morphs) keys.push_back(m.binding_key);
    const vmd::Motion* mp = &v->motion;
    auto b = anim::bind_motions(std::span<const vmd::Motion* const>(&mp, 1), {}, keys);
    if (!b) return std::nullopt;
    MorphScene x{std::move(*view), std::move(*d), std::move(*b), 0};
    for (const auto& k : x.bound.morph_keys) x.last = std::max(x.last, k.frame);
    return x;
  }();
  return s ? &*s : nullptr;
}

void BM_MorphsMiku(benchmark::State& state) {
  const MorphScene* s = morph_scene();
  if (!s) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found");
    return;
  }
  anim::MorphWorkspace ws(s->data);
  std::vector<float> w(s->data.morph_count());
  std::vector<std::uint32_t> cursors(w.size(), 0);
  std::uint32_t f = 0;
  std::size_t touched = 0;
  for (auto _ : state) {
    anim::sample_morphs(s->bound, f, w, cursors);
    anim::apply_morphs(s->data, w, ws);
    touched += ws.touched_vertices().size();
    f = f >= s->last ? 0 : f + 1;
    benchmark::ClobberMemory();
  }
  state.counters["morphs"] = static_cast<double>(s->data.morph_count());
  state.counters["touched_vertices/frame"] =
      static_cast<double>(touched) / static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
}
BENCHMARK(BM_MorphsMiku)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
