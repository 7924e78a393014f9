// Per-frame bone evaluation (sampling + append + IK) of miku_v2.pmd under wavefile_v2.vmd, all
// frames in turn (the peers' --timing-only runs do the same: node eval_babylon.mjs MODEL MOTION
// --frames 0-LAST --timing-only [--wasm]; eval_three.mjs). Reported time per iteration = one frame.
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/eval_isa.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace {

using namespace mmdkit;

struct Scene {
  anim::Skeleton skeleton;
  vmd::Motion motion;
  std::shared_ptr<const model::Model> view;  // geometry-free, as `sample` loads it
  std::shared_ptr<const model::Model> full;  // with geometry, as `pose` / render / export load it
};

const Scene* scene() {
  static const std::optional<Scene> s = []() -> std::optional<Scene> {
    const char* env = std::getenv("MMDKIT_CORPUS");
    std::filesystem::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    auto mb = read_file(dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
    auto vb = read_file(dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
    if (!mb || !vb) return std::nullopt;
    auto m = model::load(*mb, model::LoadOptions{.encoding = {}, .strict = false, .geometry = false});
    auto full = model::load(*mb, model::LoadOptions{.encoding = {}, .strict = false, .geometry = true});
    auto v = vmd::read(*vb);
    if (!m || !full || !v) return std::nullopt;
    auto sk = anim::build_skeleton(*m);
    if (!sk) return std::nullopt;
    return Scene{std::move(*sk), std::move(v->motion), std::make_shared<const model::Model>(std::move(*m)),
                 std::make_shared<const model::Model>(std::move(*full))};
  }();
  return s ? &*s : nullptr;
}

void run(benchmark::State& state, bool ik, bool sample_only) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
    return;
  }
  const vmd::Motion* list[] = {&s->motion};
  auto sampler = anim::MotionSampler::create(s->skeleton, list);
  if (!sampler) {
    state.SkipWithError("binding failed");
    return;
  }
  anim::PoseWorkspace ws(s->skeleton);
  std::vector<anim::BonePose> local(s->skeleton.bone_count());
  std::vector<std::uint8_t> enabled(s->skeleton.ik_count(), ik ? 1 : 0);
  const std::uint32_t last = sampler->last_frame();
  std::uint32_t frame = 0;
  for (auto _ : state) {
    sampler->sample(frame, local, enabled);
    if (!ik) std::fill(enabled.begin(), enabled.end(), std::uint8_t{0});
    if (!sample_only) (void)anim::evaluate(s->skeleton, {local, {}, enabled}, ws);
    benchmark::DoNotOptimize(ws.model_matrices().data());
    benchmark::DoNotOptimize(local.data());
    frame = frame >= last ? 0 : frame + 1;
  }
  state.counters["bones"] = static_cast<double>(s->skeleton.bone_count());
  state.counters["frames"] = last + 1.0;
}

// The whole per-frame pipeline as `sample` runs it (anim::Character on the geometry-free view):
// bone + IK + morph sampling, morphs (bone morph offsets), bones, camera / light / self-shadow.
void BM_CharacterFrame(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
    return;
  }
  auto data = anim::CharacterData::create(s->view, anim::MotionInputs{{&s->motion}, nullptr});
  if (!data) {
    state.SkipWithError("binding failed");
    return;
  }
  anim::Character c(*data);
  const std::uint32_t last = (*data)->last_frame();
  std::uint32_t frame = 0;
  for (auto _ : state) {
    if (!c.evaluate(frame)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(c.pose().model_matrices().data());
    frame = frame >= last ? 0 : frame + 1;
  }
  state.counters["bones"] = static_cast<double>(s->skeleton.bone_count());
  state.counters["morphs"] = static_cast<double>((*data)->morph_names().size());
}

// The same frame loop with geometry: morphs (vertex and UV offsets too), bones, then skinning of
// every vertex on the calling thread (Character::skin without a pool), as `pose` and render run it.
void BM_CharacterFrameSkinned(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
    return;
  }
  auto data = anim::CharacterData::create(s->full, anim::MotionInputs{{&s->motion}, nullptr});
  if (!data) {
    state.SkipWithError("binding failed");
    return;
  }
  anim::Character c(*data);
  const std::uint32_t last = (*data)->last_frame();
  std::uint32_t frame = 0;
  for (auto _ : state) {
    if (!c.evaluate(frame) || !c.skin(nullptr)) state.SkipWithError("evaluate or skin failed");
    benchmark::DoNotOptimize(c.positions().data());
    frame = frame >= last ? 0 : frame + 1;
  }
  state.counters["vertices"] = static_cast<double>(s->full->vertices.size());
}

// state.range(0) consecutive frames per iteration, evaluated together (anim::evaluate_frames:
// the same results as one by one); "per_frame" is the time of one frame.
void BM_EvalFrames_BonesIk(benchmark::State& state) {
  const Scene* s = scene();
  if (!s) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
    return;
  }
  const vmd::Motion* list[] = {&s->motion};
  auto sampler = anim::MotionSampler::create(s->skeleton, list);
  if (!sampler) {
    state.SkipWithError("binding failed");
    return;
  }
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<anim::PoseWorkspace> ws;
  std::vector<anim::MotionSampler::Cursors> cursors;
  std::vector<std::vector<anim::BonePose>> local(n, std::vector<anim::BonePose>(s->skeleton.bone_count()));
  std::vector<std::vector<std::uint8_t>> enabled(n, std::vector<std::uint8_t>(s->skeleton.ik_count(), 1));
  for (std::size_t i = 0; i < n; ++i) {
    ws.emplace_back(s->skeleton);
    cursors.push_back(sampler->make_cursors());
  }
  std::vector<anim::PoseWorkspace*> wp;
  std::vector<anim::PoseInput> in;
  for (std::size_t i = 0; i < n; ++i) {
    wp.push_back(&ws[i]);
    in.push_back({local[i], {}, enabled[i]});
  }
  const std::uint32_t last = sampler->last_frame();
  std::uint32_t frame = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      sampler->sample(frame, local[i], enabled[i], cursors[i]);
      frame = frame >= last ? 0 : frame + 1;
    }
    (void)anim::evaluate_frames(s->skeleton, in, wp);
    benchmark::DoNotOptimize(ws[0].model_matrices().data());
  }
  state.counters["per_frame"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                                benchmark::Counter::kInvert);
}

void BM_EvalFrame_BonesIk(benchmark::State& state) { run(state, true, false); }
// The same on the baseline build of the evaluation (anim::EvalIsa; same results bit for bit).
void BM_EvalFrame_BonesIk_Baseline(benchmark::State& state) {
  const anim::EvalIsa saved = anim::eval_isa();
  anim::set_eval_isa(anim::EvalIsa::baseline);
  run(state, true, false);
  anim::set_eval_isa(saved);
  state.SetLabel("baseline");
}
void BM_EvalFrame_BonesNoIk(benchmark::State& state) { run(state, false, false); }
void BM_SampleOnly(benchmark::State& state) { run(state, true, true); }

}  // namespace

BENCHMARK(BM_EvalFrame_BonesIk)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EvalFrames_BonesIk)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EvalFrame_BonesIk_Baseline)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EvalFrame_BonesNoIk)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SampleOnly)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CharacterFrame)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CharacterFrameSkinned)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
