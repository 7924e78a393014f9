// Real models: every corpus model renders at frame 0 and under a motion with no error, and the
// silhouette of miku_v2 dancing wavefile_v2 equals an independent CPU projection of the posed
// vertices (the pipeline's, as `pose` writes them) under MMD's default camera.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "render/render_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::render::test {
namespace {

constexpr const char* kMiku = "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd";
constexpr const char* kWavefile = "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd";

struct Posed {
  std::unique_ptr<anim::Character> character;
  std::filesystem::path folder;
};

Posed pose(const std::filesystem::path& model, const std::filesystem::path& motion, double frame) {
  Posed p;
  std::vector<std::filesystem::path> motions{motion};
  auto loaded = anim::load_character(model, motions, {});
  EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error().to_string());
  if (!loaded) return p;
  p.character = std::make_unique<anim::Character>(loaded->data);
  EXPECT_TRUE(p.character->evaluate(frame));
  EXPECT_TRUE(p.character->skin());
  p.folder = model.parent_path();
  return p;
}

Result<void> draw(Renderer& r, const anim::Character& c, SceneFrame scene) {
  ModelFrame f;
  f.positions = c.positions();
  f.normals = c.normals();
  f.materials = c.morphs().materials();
  scene.camera = c.camera();
  scene.light = c.light();
  return r.draw(f, scene);
}

TEST(CorpusRender, EveryModelRendersAtFrameZeroAndUnderAMotion) {
  MMDKIT_REQUIRE_CORPUS();
  const auto motion = mmdkit::test::corpus_file(kWavefile);
  ASSERT_TRUE(motion);
  Context* ctx = context();
  ASSERT_TRUE(ctx);
  int rendered = 0;
  for (const char* kind : {"pmd", "pmx"})
    for (const auto& f : mmdkit::test::corpus_files(kind)) {
      std::vector<std::filesystem::path> motions{motion->path};
      auto loaded = anim::load_character(f.path, motions, {});
      if (!loaded) continue;  // files the readers refuse are the corpus tests' business
      anim::Character c(loaded->data);
      std::vector<Warning> warnings;
      RenderSettings s = small(48, 48);
      s.edges = true;
      s.ground_shadow = true;
      s.self_shadow = true;
      s.shadow_map_size = 64;
      auto r = Renderer::create(*ctx, loaded->data->model(), f.path.parent_path(), s, warnings);
      ASSERT_TRUE(r) << f.local_path << ": " << r.error().to_string();
      for (double frame : {0.0, 600.0}) {
        ASSERT_TRUE(c.evaluate(frame)) << f.local_path;
        ASSERT_TRUE(c.skin()) << f.local_path;
        SceneFrame scene = default_scene();
        scene.self_shadow.mode = 1;
        auto d = draw(*r, c, scene);
        EXPECT_TRUE(d) << f.local_path << ": " << (d ? "" : d.error().to_string());
        Image img;
        r->read(img);
        EXPECT_EQ(img.width, 48);
      }
      ++rendered;
    }
  EXPECT_GE(rendered, 60);
}

// Pixels covered by the triangles of visible materials, rasterized on the CPU from the posed
// vertices with the pinhole formula of MMD's default camera (pixel centres, no GL involved).
std::vector<std::uint8_t> cpu_silhouette(const anim::Character& c, int w, int h) {
  const model::Model& m = c.data().model();
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(w * h), 0);
  const auto pos = c.positions();
  const auto mats = c.morphs().materials();
  for (std::size_t mi = 0; mi < m.materials.size(); ++mi) {
    if (mats[mi].diffuse[3] <= 0) continue;
    const model::Material& mat = m.materials[mi];
    for (std::uint32_t t = mat.first_index; t + 2 < mat.first_index + mat.index_count; t += 3) {
      std::array<std::array<double, 2>, 3> p{};
      for (int k = 0; k < 3; ++k) {
        const auto& v = pos[m.faces[t + std::uint32_t(k)]];
        p[std::size_t(k)] = default_camera_pixel(static_cast<double>(v[0]), static_cast<double>(v[1]),
            static_cast<double>(v[2]), w, h);
      }
      const double area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
      if (area == 0) continue;
      const int x0 = std::max(0, int(std::floor(std::min({p[0][0], p[1][0], p[2][0]}))));
      const int x1 = std::min(w - 1, int(std::ceil(std::max({p[0][0], p[1][0], p[2][0]}))));
      const int y0 = std::max(0, int(std::floor(std::min({p[0][1], p[1][1], p[2][1]}))));
      const int y1 = std::min(h - 1, int(std::ceil(std::max({p[0][1], p[1][1], p[2][1]}))));
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
          const double px = x + 0.5, py = y + 0.5;
          auto edge = [&](int a, int b) {
            return (p[std::size_t(b)][0] - p[std::size_t(a)][0]) * (py - p[std::size_t(a)][1]) -
                   (p[std::size_t(b)][1] - p[std::size_t(a)][1]) * (px - p[std::size_t(a)][0]);
          };
          const double e0 = edge(0, 1), e1 = edge(1, 2), e2 = edge(2, 0);
          if ((e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0))
            mask[static_cast<std::size_t>(y * w + x)] = 1;
        }
    }
  }
  return mask;
}

TEST(CorpusRender, SilhouetteOfAPosedModelMatchesAnIndependentProjection) {
  MMDKIT_REQUIRE_CORPUS();
  const auto model = mmdkit::test::corpus_file(kMiku);
  const auto motion = mmdkit::test::corpus_file(kWavefile);
  ASSERT_TRUE(model && motion);
  for (double frame : {0.0, 600.0}) {
    Posed p = pose(model->path, motion->path, frame);
    ASSERT_TRUE(p.character);
    const int w = 160, h = 200;
    RenderSettings s = small(w, h);
    s.background = {1, 0, 1};  // magenta: no model pixel is exactly this
    Context* ctx = context();
    ASSERT_TRUE(ctx);
    std::vector<Warning> warnings;
    auto r = Renderer::create(*ctx, p.character->data().model(), p.folder, s, warnings);
    ASSERT_TRUE(r);
    ASSERT_TRUE(draw(*r, *p.character, default_scene()));
    Image img;
    r->read(img);
    const auto cpu = cpu_silhouette(*p.character, w, h);
    std::size_t both = 0, either = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint8_t* px = img.at(x, y);
        const bool gl = !(px[0] == 255 && px[1] == 0 && px[2] == 255);
        const bool c = cpu[static_cast<std::size_t>(y * w + x)] != 0;
        both += gl && c;
        either += gl || c;
      }
    ASSERT_GT(either, 1000u);
    RecordProperty("iou_frame_" + std::to_string(int(frame)), std::to_string(double(both) / double(either)));
    EXPECT_GE(double(both) / double(either), 0.98) << "frame " << frame << ": IoU " << double(both) / double(either);
  }
}

}  // namespace
}  // namespace mmdkit::render::test
