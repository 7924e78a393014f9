// Anti-aliasing (the FXAA-like filter, render::choose_quality), the fitted self-shadow map and
// render::ssim, on small models with known answers.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/render/image.hpp"
#include "render/render_fixture.hpp"

namespace mmdkit::render::test {
namespace {

// SSIM on answers from the formula by hand: identical images 1; two flat images (σ = 0) give
// (2·a·b + C1) / (a² + b² + C1) at every pixel; other sizes and images under 11 × 11 give -1.
TEST(RenderSsim, KnownAnswers) {
  const Image a{16, 12, std::vector<std::uint8_t>(16 * 12 * 4, 100)};
  Image b = a;
  EXPECT_DOUBLE_EQ(ssim(a, a), 1.0);
  for (std::size_t i = 0; i < b.rgba.size(); ++i) b.rgba[i] = 120;
  const double c1 = (0.01 * 255) * (0.01 * 255);
  EXPECT_NEAR(ssim(a, b), (2.0 * 100 * 120 + c1) / (100.0 * 100 + 120.0 * 120 + c1), 1e-9);
  const Image c{16, 11, std::vector<std::uint8_t>(16 * 11 * 4, 100)};
  EXPECT_EQ(ssim(a, c), -1);
  const Image d{10, 10, std::vector<std::uint8_t>(10 * 10 * 4, 100)};
  EXPECT_EQ(ssim(d, d), -1);
  // A structure against its inverse: far below 1.
  Image e = a, f = a;
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 16; ++x)
      for (int k = 0; k < 3; ++k) {
        e.rgba[static_cast<std::size_t>((y * 16 + x) * 4 + k)] = (x + y) % 2 ? 255 : 0;
        f.rgba[static_cast<std::size_t>((y * 16 + x) * 4 + k)] = (x + y) % 2 ? 0 : 255;
      }
  EXPECT_LT(ssim(e, f), 0.0);
}

// The options of `render` / mmdkit.Renderer (renderer.hpp choose_quality).
TEST(ChooseQuality, DefaultsAndOldSettings) {
  RenderSettings s;
  ASSERT_TRUE(choose_quality(s, "", 0, 0));
  EXPECT_TRUE(s.fxaa);
  EXPECT_EQ(s.msaa, 1);
  EXPECT_TRUE(s.shadow_fit);
  EXPECT_EQ(s.shadow_map_size, 512);  // 1280 / 4 rounded up to a power of two
  ASSERT_TRUE(choose_quality(s, "", 4, 2048));  // --msaa 4 --shadow-map 2048: the look before
  EXPECT_FALSE(s.fxaa);
  EXPECT_EQ(s.msaa, 4);
  EXPECT_FALSE(s.shadow_fit);
  EXPECT_EQ(s.shadow_map_size, 2048);
  ASSERT_TRUE(choose_quality(s, "msaa", 0, 0));
  EXPECT_EQ(s.msaa, 4);
  EXPECT_FALSE(s.fxaa);
  ASSERT_TRUE(choose_quality(s, "none", 1, 0));
  EXPECT_EQ(s.msaa, 1);
  EXPECT_FALSE(s.fxaa);
  EXPECT_FALSE(choose_quality(s, "fxaa", 4, 0));
  EXPECT_FALSE(choose_quality(s, "smaa", 0, 0));
  EXPECT_FALSE(choose_quality(s, "", 65, 0));
  EXPECT_FALSE(choose_quality(s, "", 0, 8));
  s.width = 160;
  s.height = 120;
  ASSERT_TRUE(choose_quality(s, "", 0, 0));
  EXPECT_EQ(s.shadow_map_size, 256);
  s.width = 3840;
  ASSERT_TRUE(choose_quality(s, "", 0, 0));
  EXPECT_EQ(s.shadow_map_size, 1024);
  s.width = 16384;
  ASSERT_TRUE(choose_quality(s, "", 0, 0));
  EXPECT_EQ(s.shadow_map_size, 2048);
}

// A black triangle with slanted sides on white: without anti-aliasing every pixel is black or
// white; the filter leaves pixels away from the sides exactly as they were, blends some pixels
// along the sides, and comes closer to 4× MSAA (SSIM) than no anti-aliasing does.
TEST(Fxaa, BlendsSlantedEdgesOnlyAndApproachesMsaa) {
  model::Model m = empty_model();
  m.vertices = {vertex(-6, 4, 0, 0, 0), vertex(1, 17, 0, 0, 0), vertex(7, 6, 0, 0, 0)};
  m.faces = {0, 1, 2};  // clockwise on screen
  model::Material mat;
  mat.index_count = 3;
  mat.diffuse = {0, 0, 0, 1};
  mat.flags = model::kDoubleSided;
  m.materials.push_back(mat);
  const SceneFrame scene = default_scene();
  RenderSettings s = small(160, 120);
  const Image none = render(m, s, scene);
  s.fxaa = true;
  const Image fxaa = render(m, s, scene);
  s.fxaa = false;
  s.msaa = 4;
  const Image msaa = render(m, s, scene);
  ASSERT_EQ(none.rgba.size(), fxaa.rgba.size());
  int blended = 0, changed_far = 0, two_tone = 0;
  for (int y = 1; y < 119; ++y)
    for (int x = 1; x < 159; ++x) {
      const int v = none.at(x, y)[0];
      two_tone += v == 0 || v == 255;
      bool flat = true;  // the 3×3 neighbourhood has one colour: not on a side
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) flat = flat && none.at(x + dx, y + dy)[0] == v;
      const int g = fxaa.at(x, y)[0];
      if (flat && g != v) ++changed_far;
      if (!flat && g != 0 && g != 255) ++blended;
    }
  EXPECT_EQ(two_tone, 158 * 118);
  EXPECT_EQ(changed_far, 0);
  EXPECT_GT(blended, 40);  // the two slanted sides are each about 60 pixels long
  EXPECT_GT(ssim(fxaa, msaa), ssim(none, msaa));
}

// The self-shadow scene of edge_shadow_test (a small caster 5 units in front of a wall, light at
// 45°: the shadow lands 5 units to +X) with the fitted map: the shadow at the predicted place, the
// lit wall lit, and the picture as the whole-box map's but for the shadow's rasterised border.
TEST(ShadowFit, ShadowLandsWhereTheWholeBoxPutsIt) {
  model::Model m = empty_model();
  model::Material& recv = add_quad(m, -10, 0, 10, 20, 5);
  recv.diffuse = {0.5f, 0.5f, 0.5f, 1};
  recv.ambient = {0.3f, 0.3f, 0.3f};
  recv.flags = model::kReceiveShadow;
  recv.shared_toon = 2;  // the generated toon03: white, grey 154 in the shadowed row
  model::Material& cast = add_quad(m, -2, 8, 2, 12, 0);
  cast.flags = model::kDrawShadowMap;
  cast.diffuse = {0, 0, 0, 1};
  SceneFrame scene = default_scene();
  scene.light.direction = {1, 0, 1};
  scene.self_shadow.mode = 1;
  RenderSettings s = small(160, 120);
  s.self_shadow = true;
  s.shadow_map_size = 2048;
  const Image whole = render(m, s, scene);
  s.shadow_fit = true;
  s.shadow_map_size = 256;
  const Image fitted = render(m, s, scene);
  // Shadowed: C × toon03's shadow row (154 / 255); lit: C = saturate(0.5·light + 0.3).
  const double c = 0.5 * 154.0 / 256.0 + 0.3;
  const auto shadowed = default_camera_pixel(5, 10, 5, 160, 120);
  const auto lit = default_camera_pixel(-6, 10, 5, 160, 120);
  EXPECT_NEAR(rgb(fitted, int(shadowed[0]), int(shadowed[1]))[0], to255(c * 154 / 255.0), 2);
  EXPECT_NEAR(rgb(fitted, int(lit[0]), int(lit[1]))[0], to255(c), 2);
  EXPECT_EQ(rgb(fitted, int(shadowed[0]), int(shadowed[1])), rgb(whole, int(shadowed[0]), int(shadowed[1])));
  EXPECT_EQ(rgb(fitted, int(lit[0]), int(lit[1])), rgb(whole, int(lit[0]), int(lit[1])));
  EXPECT_GT(ssim(fitted, whole), 0.98);
}

}  // namespace
}  // namespace mmdkit::render::test
