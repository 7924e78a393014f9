// `mmdkit render`'s frame and where its time goes (issue 12), on miku_v2.pmd under wavefile_v2.vmd
// (corpus; skipped when absent), through the render layer as the command drives it:
//   BM_RenderFrame/W/H      the whole frame: evaluation with physics, skinning, upload, draw
//                           (shadow map 2048², 4× MSAA, edges, ground shadow), read-back, H.264
//                           encoding; frames/s = 1 / wall time per frame;
//   BM_Render_Evaluate      anim::Character::evaluate without physics (sampling, morphs, IK);
//   BM_Render_EvaluatePhysics  the same with the rigid bodies simulated (CharacterPhysics, frames
//                           in order: physics alone = this − Evaluate);
//   BM_Render_Skin          Character::skin (positions and normals of every vertex, all cores);
//   BM_Render_Upload        draw + read-back on a 16×16 target, no MSAA or shadows: the vertex
//                           upload and the per-draw GL overhead, with almost no rasterisation;
//   BM_Render_DrawRead/W/H  draw + read-back at W×H (the GL work: llvmpipe rasterises on the CPU);
//   BM_Render_Encode/W/H    VideoWriter::write of rendered frames (RGBA → yuv420p, libx264).
// Times are wall ("Time", UseRealTime) and the whole process' CPU ("CPU": llvmpipe's and x264's
// threads included). On a shared machine wall time includes waiting for the CPUs; CPU time is the
// steadier figure. MMDKIT_RENDER_SOFTWARE=1 forces llvmpipe where a GPU exists.
// Corpus folder: $MMDKIT_CORPUS, else MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include "mmdkit/version.hpp"

#if MMDKIT_HAS_RENDER && MMDKIT_HAS_PHYSICS

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/thread_pool.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/renderer.hpp"
#include "mmdkit/render/video.hpp"

namespace {

using namespace mmdkit;
namespace fs = std::filesystem;

struct Inputs {
  fs::path folder;
  std::shared_ptr<const model::Model> model;
  vmd::Motion motion;
  std::shared_ptr<const anim::CharacterData> data;
};

const Inputs* inputs() {
  static const std::optional<Inputs> in = []() -> std::optional<Inputs> {
    const char* env = std::getenv("MMDKIT_CORPUS");
    const fs::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    const fs::path pmd = dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd";
    auto mb = read_file(pmd);
    auto vb = read_file(dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
    if (!mb || !vb) return std::nullopt;
    auto m = model::load(*mb, model::LoadOptions{});
    auto v = vmd::read(*vb);
    if (!m || !v) return std::nullopt;
    Inputs r;
    r.folder = pmd.parent_path();
    r.model = std::make_shared<const model::Model>(std::move(*m));
    r.motion = std::move(v->motion);
    auto data = anim::CharacterData::create(r.model, anim::MotionInputs{{&r.motion}, nullptr});
    if (!data) return std::nullopt;
    r.data = *data;
    return r;
  }();
  return in ? &*in : nullptr;
}

render::Context* context() {
  static std::optional<Result<render::Context>> ctx;
  if (!ctx) ctx = render::Context::create();
  return *ctx ? &**ctx : nullptr;
}

// The command's settings (docs/RENDER.md): 4× MSAA, edges, both shadows, white background.
render::RenderSettings settings(int w, int h) {
  render::RenderSettings s;
  s.width = w;
  s.height = h;
  return s;
}

std::optional<render::Renderer> make_renderer(benchmark::State& state, const Inputs& in, const render::RenderSettings& s) {
  render::Context* ctx = context();
  if (!ctx) {
    state.SkipWithError("no EGL / OpenGL 3.3 context");
    return std::nullopt;
  }
  std::vector<Warning> w;
  auto r = render::Renderer::create(*ctx, *in.model, in.folder, s, w);
  if (!r) {
    state.SkipWithError(r.error().to_string().c_str());
    return std::nullopt;
  }
  return std::move(*r);
}

void frame_of(const anim::Character& c, render::ModelFrame& mf, render::SceneFrame& scene) {
  const anim::MorphWorkspace& morphs = c.morphs();
  mf.positions = c.positions();
  mf.normals = c.normals();
  mf.materials = morphs.materials();
  const bool uv = !morphs.touched_uv_vertices().empty();
  mf.uv_offsets = uv ? morphs.uv_offsets() : std::span<const mmdkit::Vec4>{};
  mf.additional_uv_offsets = uv ? morphs.additional_uv_offsets() : std::span<const mmdkit::Vec4>{};
  scene.camera = c.camera();
  scene.light = c.light();
  scene.self_shadow = c.self_shadow();
}

#define REQUIRE_INPUTS(in)                                                                      \
  const Inputs* in = inputs();                                                                  \
  if (!in) {                                                                                    \
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)"); \
    return;                                                                                     \
  }

void BM_RenderFrame(benchmark::State& state) {
  REQUIRE_INPUTS(in);
  const int w = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(1));
  auto renderer = make_renderer(state, *in, settings(w, h));
  if (!renderer) return;
  anim::Character c(in->data);
  physics::CharacterPhysics ph(c);
  ThreadPool pool(0);
  const fs::path out = fs::temp_directory_path() / "mmdkit_bench_render.mp4";
  render::VideoSettings vs;
  vs.path = out;
  vs.width = w;
  vs.height = h;
  auto writer = render::VideoWriter::open(vs);
  if (!writer) {
    state.SkipWithError(writer.error().to_string().c_str());
    return;
  }
  render::ModelFrame mf;
  render::SceneFrame scene;
  mmdkit::Image img;
  const std::uint32_t last = in->data->last_frame();
  std::uint32_t f = 0;
  for (auto _ : state) {
    if (!ph.evaluate(f) || !c.skin(&pool)) state.SkipWithError("evaluate failed");
    frame_of(c, mf, scene);
    if (!renderer->draw(mf, scene)) state.SkipWithError("draw failed");
    renderer->read(img);
    if (!writer->write(img)) state.SkipWithError("encode failed");
    f = f >= last ? 0 : f + 1;
  }
  (void)writer->finish();
  std::error_code ec;
  fs::remove(out, ec);
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Render_Evaluate(benchmark::State& state) {
  REQUIRE_INPUTS(in);
  anim::Character c(in->data);
  const std::uint32_t last = in->data->last_frame();
  std::uint32_t f = 0;
  for (auto _ : state) {
    if (!c.evaluate(f)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(c.pose().model_matrices().data());
    f = f >= last ? 0 : f + 1;
  }
}

void BM_Render_EvaluatePhysics(benchmark::State& state) {
  REQUIRE_INPUTS(in);
  anim::Character c(in->data);
  physics::CharacterPhysics ph(c);
  const std::uint32_t last = in->data->last_frame();
  std::uint32_t f = 0;
  for (auto _ : state) {
    if (!ph.evaluate(f)) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(c.pose().model_matrices().data());
    f = f >= last ? 0 : f + 1;
  }
  state.counters["bodies"] = static_cast<double>(ph.body_count());
}

void BM_Render_Skin(benchmark::State& state) {
  REQUIRE_INPUTS(in);
  anim::Character c(in->data);
  ThreadPool pool(0);
  if (!c.evaluate(600)) state.SkipWithError("evaluate failed");
  for (auto _ : state) {
    if (!c.skin(&pool)) state.SkipWithError("skin failed");
    benchmark::DoNotOptimize(c.positions().data());
  }
  state.counters["vertices"] = static_cast<double>(in->model->vertices.size());
}

// Draw + read-back of frames in turn (evaluation and skinning outside the timing).
void draw_read(benchmark::State& state, const render::RenderSettings& s) {
  REQUIRE_INPUTS(in);
  auto renderer = make_renderer(state, *in, s);
  if (!renderer) return;
  anim::Character c(in->data);
  ThreadPool pool(0);
  render::ModelFrame mf;
  render::SceneFrame scene;
  mmdkit::Image img;
  const std::uint32_t last = in->data->last_frame();
  std::uint32_t f = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (!c.evaluate(f) || !c.skin(&pool)) state.SkipWithError("evaluate failed");
    frame_of(c, mf, scene);
    f = f >= last ? 0 : f + 1;
    state.ResumeTiming();
    if (!renderer->draw(mf, scene)) state.SkipWithError("draw failed");
    renderer->read(img);
    benchmark::DoNotOptimize(img.rgba.data());
  }
}

void BM_Render_Upload(benchmark::State& state) {
  render::RenderSettings s = settings(16, 16);
  s.msaa = 1;
  s.edges = s.ground_shadow = s.self_shadow = false;
  draw_read(state, s);
}

void BM_Render_DrawRead(benchmark::State& state) {
  draw_read(state, settings(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))));
}

// Encoding of 30 consecutive rendered frames in turn (frames that change, as in a real video).
void BM_Render_Encode(benchmark::State& state) {
  REQUIRE_INPUTS(in);
  const int w = static_cast<int>(state.range(0)), h = static_cast<int>(state.range(1));
  auto renderer = make_renderer(state, *in, settings(w, h));
  if (!renderer) return;
  anim::Character c(in->data);
  ThreadPool pool(0);
  std::vector<mmdkit::Image> frames(30);
  render::ModelFrame mf;
  render::SceneFrame scene;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!c.evaluate(600.0 + double(i)) || !c.skin(&pool)) state.SkipWithError("evaluate failed");
    frame_of(c, mf, scene);
    if (!renderer->draw(mf, scene)) state.SkipWithError("draw failed");
    renderer->read(frames[i]);
  }
  const fs::path out = fs::temp_directory_path() / "mmdkit_bench_encode.mp4";
  render::VideoSettings vs;
  vs.path = out;
  vs.width = w;
  vs.height = h;
  auto writer = render::VideoWriter::open(vs);
  if (!writer) {
    state.SkipWithError(writer.error().to_string().c_str());
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    if (!writer->write(frames[i])) state.SkipWithError("encode failed");
    i = (i + 1) % frames.size();
  }
  (void)writer->finish();
  std::error_code ec;
  fs::remove(out, ec);
}

}  // namespace

BENCHMARK(BM_RenderFrame)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime()->MinTime(5);
BENCHMARK(BM_Render_Evaluate)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Render_EvaluatePhysics)->Unit(benchmark::kMicrosecond)->MinTime(2);
BENCHMARK(BM_Render_Skin)->Unit(benchmark::kMicrosecond)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_Render_Upload)->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_Render_DrawRead)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime()->MinTime(3);
BENCHMARK(BM_Render_Encode)->Args({1280, 720})->Args({1920, 1080})->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime()->MinTime(3);

#endif  // MMDKIT_HAS_RENDER && MMDKIT_HAS_PHYSICS

BENCHMARK_MAIN();
