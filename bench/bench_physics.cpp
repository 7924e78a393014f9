// Evaluation + physics per frame of miku_v2.pmd (45 rigid bodies, 27 joints) under wavefile_v2.vmd,
// frames in order as `mmdkit sample --physics` runs them (physics::CharacterPhysics on the
// geometry-free model view: motion sampling, morphs, bones before physics, 2 Bullet substeps at
// 60 steps/s, write-back, bones after physics). Reported time per iteration = one frame. The peer
// figure of the same run: node eval_babylon.mjs MODEL MOTION --frames 0-2809 --physics
// --timing-only (../shared/peers; docs/BENCHMARKS.md). BM_Bake: `mmdkit bake` of the whole motion
// (CharacterData::create + physics::bake, 2810 frames), one iteration = the whole bake.
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/bake.hpp"
#include "mmdkit/physics/character_physics.hpp"

namespace {

using namespace mmdkit;

struct Scene {
  vmd::Motion motion;
  std::shared_ptr<const model::Model> view;  // geometry-free, as `sample` loads it
};

const Scene* scene() {
  static const std::optional<Scene> s = []() -> std::optional<Scene> {
    const char* env = std::getenv("MMDKIT_CORPUS");
    std::filesystem::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    auto mb = read_file(dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
    auto vb = read_file(dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
    if (!mb || !vb) return std::nullopt;
    auto m = model::load(*mb, model::LoadOptions{.encoding = {}, .strict = false, .geometry = false});
    auto v = vmd::read(*vb);
    if (!m || !v) return std::nullopt;
    return Scene{std::move(v->motion), std::make_shared<const model::Model>(std::move(*m))};
  }();
  return s ? &*s : nullptr;
}

constexpr const char* kNoCorpus = "corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)";

// One frame of evaluate + physics, frames 1..last in order (frame 0, the reset with its 60-step
// warm-up, is set-up: it runs outside the timed loop, and again untimed when the motion wraps).
void BM_CharacterPhysicsFrame(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError(kNoCorpus);
    return;
  }
  auto data = anim::CharacterData::create(s->view, anim::MotionInputs{{&s->motion}, nullptr});
  if (!data) {
    state.SkipWithError("binding failed");
    return;
  }
  anim::Character c(*data);
  physics::Settings settings;
  settings.steps_per_second = static_cast<std::uint32_t>(state.range(0));
  physics::CharacterPhysics p(c, settings);
  const std::uint32_t last = (*data)->last_frame();
  if (!p.evaluate(0)) {
    state.SkipWithError("evaluate failed");
    return;
  }
  std::uint32_t frame = 1;
  for (auto _ : state) {
    if (frame > last) {
      state.PauseTiming();
      if (!p.evaluate(0)) state.SkipWithError("evaluate failed");
      frame = 1;
      state.ResumeTiming();
    }
    if (!p.evaluate(frame)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(c.pose().model_matrices().data());
    ++frame;
  }
  state.counters["bodies"] = static_cast<double>(p.body_count());
  state.counters["frames"] = last + 1.0;
}

// The same frames without physics (the evaluation part of the figure above).
void BM_CharacterFrameNoPhysics(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError(kNoCorpus);
    return;
  }
  auto data = anim::CharacterData::create(s->view, anim::MotionInputs{{&s->motion}, nullptr});
  if (!data) {
    state.SkipWithError("binding failed");
    return;
  }
  anim::Character c(*data);
  const std::uint32_t last = (*data)->last_frame();
  std::uint32_t frame = 1;
  for (auto _ : state) {
    if (frame > last) frame = 1;
    if (!c.evaluate(frame)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(c.pose().model_matrices().data());
    ++frame;
  }
}

// `mmdkit bake` of the whole motion (2810 frames, 60 steps/s): one iteration = one bake.
void BM_Bake(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError(kNoCorpus);
    return;
  }
  const vmd::Motion* list[] = {&s->motion};
  std::size_t bones = 0;
  for (auto _ : state) {
    // The character data is made inside the loop: the old bake built its skeleton and bound the
    // motion itself, and `mmdkit bake` makes it for every run.
    auto data = anim::CharacterData::create(s->view, anim::MotionInputs{{&s->motion}, nullptr});
    if (!data) {
      state.SkipWithError("binding failed");
      break;
    }
    auto r = physics::bake(*data, list, physics::BakeOptions{});
    if (!r) {
      state.SkipWithError("bake failed");
      break;
    }
    bones = r->baked_bones;
    benchmark::DoNotOptimize(r->motion.bone_keys.data());
  }
  state.counters["baked_bones"] = static_cast<double>(bones);
}

}  // namespace

BENCHMARK(BM_CharacterPhysicsFrame)->Arg(60)->Arg(120)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CharacterFrameNoPhysics)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Bake)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_MAIN();
