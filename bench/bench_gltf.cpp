// glTF export of miku_v2.pmd + wavefile_v2.vmd (2810 frames): what `mmdkit export MODEL MOTION -o
// out.glb [--reduce TOL]` does after reading the files — sample every frame through the pipeline
// (anim::Character), write the GLB with embedded textures. One iteration = one whole export.
// Counters: output bytes and animation keys. The three.js GLTFExporter figure on the same mesh is
// tools/gltf/three_export_bench.mjs (docs/GLTF.md "Speed and size").
// Corpus folder: $MMDKIT_CORPUS, else the CMake value MMDKIT_DEFAULT_CORPUS_DIR.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/export/gltf_sampling.hpp"

namespace {

using namespace mmdkit;

struct Inputs {
  std::shared_ptr<const anim::CharacterData> data;
  std::filesystem::path folder;
};

const Inputs* inputs() {
  static const std::optional<Inputs> in = []() -> std::optional<Inputs> {
    const char* env = std::getenv("MMDKIT_CORPUS");
    std::filesystem::path dir = env && *env ? env : MMDKIT_DEFAULT_CORPUS_DIR;
    const auto model = dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd";
    const std::filesystem::path motions[] = {dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"};
    auto c = anim::load_character(model, motions, {});
    if (!c) return std::nullopt;
    return Inputs{c->data, model.parent_path()};
  }();
  return in ? &*in : nullptr;
}

void BM_GltfExportMikuWavefile(benchmark::State& state) {
  const Inputs* in = inputs();
  if (!in) {
    state.SkipWithError("corpus files miku_v2.pmd / wavefile_v2.vmd not found (set MMDKIT_CORPUS)");
    return;
  }
  const float tol = static_cast<float>(state.range(0)) / 1000.0f;
  std::size_t bytes = 0, keys = 0;
  for (auto _ : state) {
    anim::Character c(in->data);
    auto an = exporter::sample_animation(c, {});
    if (!an) {
      state.SkipWithError("sampling failed");
      return;
    }
    an->reduce_tolerance = an->reduce_tolerance_degrees = tol;
    an->reduce_tolerance_weight = tol / 100;
    exporter::GltfOptions o;
    o.texture_folder = in->folder;
    auto r = exporter::write_gltf(in->data->model(), &*an, o);
    if (!r) {
      state.SkipWithError("export failed");
      return;
    }
    bytes = r->bytes.size();
    keys = r->reduction.keys_after;
    benchmark::DoNotOptimize(r->bytes.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["keys"] = static_cast<double>(keys);
  state.counters["frames"] = in->data->last_frame() + 1.0;
}
// Argument: --reduce tolerance × 1000 (0 = every frame kept).
BENCHMARK(BM_GltfExportMikuWavefile)->Arg(0)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
