// Skinning and morph throughput (anim/skinning.hpp, anim/morph.hpp).
//
// BM_Skin*: a generated 200,000-vertex BDEF4 model (64 bones, deterministic), positions + normals
// per frame, one thread and a pool of all cores, next to BM_Bound: the memory traffic of the same
// bytes (read position, normal, 4 bone indices, 4 weights = 56 B / vertex with memcpy + a streaming
// sum; write position + normal = 24 B / vertex) measured in the same run. Compare the
// bytes_per_second counters (same byte count per vertex in all three).
// BM_MorphsMiku: apply_morphs per frame for miku_v2.pmd with the morph tracks of wavefile_v2.vmd
// (corpus; skipped when absent). Corpus folder: $MMDKIT_CORPUS, else MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <thread>

#include "mmdkit/anim/binding.hpp"
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
constexpr std::size_t kBytesPerVertex = 56 + 24;

struct SkinScene {
  anim::SkinningData data;
  std::vector<anim::Mat4> mats;
  std::vector<anim::Quat> rots;
  std::vector<anim::Vec3> pos, nrm;
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
      x.rots.push_back(anim::quat_from_axis_angle({0, 1, 0}, 0.01f * static_cast<float>(b)));
      x.mats.push_back(anim::rigid_matrix(x.rots.back(), {0.1f * static_cast<float>(b), 0, 0}));
    }
    x.pos.resize(kVertices);
    x.nrm.resize(kVertices);
    return x;
  }();
  return s;
}

void BM_SkinSingleThread(benchmark::State& state) {
  SkinScene& s = skin_scene();
  anim::SkinWorkspace ws(s.data);
  for (auto _ : state) {
    anim::skin(s.data, {s.mats, s.rots}, ws, {}, s.pos, s.nrm);
    benchmark::DoNotOptimize(s.pos.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kVertices * kBytesPerVertex));
  state.counters["vertices/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kVertices),
                                                    benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SkinSingleThread)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SkinAllCores(benchmark::State& state) {
  SkinScene& s = skin_scene();
  anim::SkinWorkspace ws(s.data);
  anim::ThreadPool pool(0);
  state.counters["threads"] = pool.size();
  for (auto _ : state) {
    anim::skin_parallel(pool, s.data, {s.mats, s.rots}, ws, {}, s.pos, s.nrm);
    benchmark::DoNotOptimize(s.pos.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kVertices * kBytesPerVertex));
  state.counters["vertices/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kVertices),
                                                    benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SkinAllCores)->Unit(benchmark::kMillisecond)->UseRealTime();

// The memory bound: read 56 B and write 24 B per vertex with no arithmetic to speak of.
void BM_Bound(benchmark::State& state) {
  SkinScene& s = skin_scene();
  const auto pos = s.data.bind_positions();
  const auto nrm = s.data.bind_normals();
  const auto bones = s.data.bones();
  const auto w = s.data.weights();
  for (auto _ : state) {
    std::memcpy(s.pos.data(), pos.data(), kVertices * sizeof(anim::Vec3));
    std::memcpy(s.nrm.data(), nrm.data(), kVertices * sizeof(anim::Vec3));
    std::uint32_t acc = 0;
    float facc = 0;
    for (std::size_t v = 0; v < kVertices; ++v) {
      acc += bones[v][0] ^ bones[v][1] ^ bones[v][2] ^ bones[v][3];
      facc += w[v][0] + w[v][1] + w[v][2] + w[v][3];
    }
    benchmark::DoNotOptimize(acc);
    benchmark::DoNotOptimize(facc);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kVertices * kBytesPerVertex));
}
BENCHMARK(BM_Bound)->Unit(benchmark::kMillisecond)->UseRealTime();

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
