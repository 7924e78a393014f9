// MMD's default shading on quads with known materials under the default camera and light: the
// predicted colours at predicted pixels (formulas in docs/RENDER.md, computed here by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "mmdkit/core/file.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/texture.hpp"
#include "render/render_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::render::test {
namespace {

constexpr double kLight = 154.0 / 256.0;  // anim::LightState default (stored 154/256)

// Unit vector towards MMD's default light: −(−0.5, −1, 0.5) normalized.
std::array<double, 3> to_light() {
  const double l = std::sqrt(0.25 + 1 + 0.25);
  return {0.5 / l, 1 / l, -0.5 / l};
}

void expect_rgb(const Image& img, int x, int y, std::array<int, 3> want, int tol = 2) {
  const auto got = rgb(img, x, y);
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(got[static_cast<std::size_t>(c)], want[static_cast<std::size_t>(c)], tol)
        << "pixel (" << x << ", " << y << ") channel " << c;
}

void write_png(const std::filesystem::path& p, int w, int h, const std::vector<std::uint8_t>& rgba) {
  Image img{w, h, rgba};
  auto bytes = encode_png(img, true);
  ASSERT_TRUE(bytes);
  ASSERT_TRUE(write_file_atomic(p, ByteSpan(bytes->data(), bytes->size())));
}

// A minimal 24-bit BMP (bottom-up rows) of w × h pixels.
void write_bmp(const std::filesystem::path& p, int w, int h, const std::vector<std::uint8_t>& rgba) {
  const int row = (w * 3 + 3) / 4 * 4;
  std::vector<std::uint8_t> b(54 + static_cast<std::size_t>(row * h), 0);
  auto put32 = [&](std::size_t o, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[o + std::size_t(i)] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  b[0] = 'B';
  b[1] = 'M';
  put32(2, static_cast<std::uint32_t>(b.size()));
  put32(10, 54);
  put32(14, 40);
  put32(18, static_cast<std::uint32_t>(w));
  put32(22, static_cast<std::uint32_t>(h));
  b[26] = 1;
  b[28] = 24;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t src = static_cast<std::size_t>(((h - 1 - y) * w + x) * 4);
      const std::size_t dst = 54 + static_cast<std::size_t>(y * row + x * 3);
      b[dst] = rgba[src + 2];
      b[dst + 1] = rgba[src + 1];
      b[dst + 2] = rgba[src];
    }
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// A 3 × 3 sphere map BMP named `name` whose centre texel (sampled by a normal facing the camera)
// is `centre`, the rest black; and toon.png, 1 × 4: rows 0-1 (lit) (250, 240, 230), rows 2-3
// (shadow) (100, 100, 100).
void write_sphere_and_toon(const std::filesystem::path& dir, const std::string& name, std::array<std::uint8_t, 3> centre) {
  std::vector<std::uint8_t> sph(9 * 4, 0);
  for (int i = 0; i < 9; ++i) sph[std::size_t(i * 4 + 3)] = 255;
  std::copy(centre.begin(), centre.end(), sph.begin() + 16);
  write_bmp(dir / name, 3, 3, sph);
  write_png(dir / "toon.png", 1, 4, {250, 240, 230, 255, 250, 240, 230, 255, 100, 100, 100, 255, 100, 100, 100, 255});
}

TEST(Shading, MaterialColourIsDiffuseTimesLightPlusAmbient) {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {0.5f, 0.25f, 0.0f, 1.0f};
  mat.ambient = {0.2f, 0.3f, 0.4f};
  const Image img = render(m, small(), default_scene());
  ASSERT_EQ(img.width, 128);
  expect_rgb(img, 64, 48, {to255(0.5 * kLight + 0.2), to255(0.25 * kLight + 0.3), to255(0.4)});
  // Saturated before anything else: 1.0 × light + 0.9 > 1.
  mat.diffuse = {1, 1, 1, 1};
  mat.ambient = {0.9f, 0.0f, 0.0f};
  const Image img2 = render(m, small(), default_scene());
  expect_rgb(img2, 64, 48, {255, to255(kLight), to255(kLight)});
  // The background stays MMD's white outside the quad.
  expect_rgb(img2, 2, 2, {255, 255, 255});
}

TEST(Shading, QuadCornersProjectToPredictedPixels) {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -6, 4, 8, 13, 0);
  mat.diffuse = {0, 0, 0, 1};
  const int w = 160, h = 120;
  const Image img = render(m, small(w, h), default_scene());
  const auto tl = default_camera_pixel(-6, 13, 0, w, h);
  const auto br = default_camera_pixel(8, 4, 0, w, h);
  // Pixels 1.5 inside each edge are black, 1.5 outside are white.
  auto dark = [&](double x, double y) { return rgb(img, int(x), int(y))[0] < 128; };
  for (double y : {tl[1] + 1.5, (tl[1] + br[1]) / 2, br[1] - 1.5}) {
    EXPECT_TRUE(dark(tl[0] + 1.5, y)) << y;
    EXPECT_FALSE(dark(tl[0] - 1.5, y)) << y;
    EXPECT_TRUE(dark(br[0] - 1.5, y)) << y;
    EXPECT_FALSE(dark(br[0] + 1.5, y)) << y;
  }
  for (double x : {tl[0] + 1.5, (tl[0] + br[0]) / 2, br[0] - 1.5}) {
    EXPECT_TRUE(dark(x, tl[1] + 1.5)) << x;
    EXPECT_FALSE(dark(x, tl[1] - 1.5)) << x;
    EXPECT_TRUE(dark(x, br[1] - 1.5)) << x;
    EXPECT_FALSE(dark(x, br[1] + 1.5)) << x;
  }
  // The model's +X (its left) is on the right of the image: MMD's camera faces the model.
  EXPECT_GT(br[0], w / 2.0);
}

TEST(Shading, BackFacesCulledUnlessDoubleSided) {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {0, 0, 0, 1};
  std::swap(m.faces[1], m.faces[2]);  // counter-clockwise: a back face
  std::swap(m.faces[4], m.faces[5]);
  expect_rgb(render(m, small(), default_scene()), 64, 48, {255, 255, 255});
  m.materials[0].flags |= model::kDoubleSided;
  expect_rgb(render(m, small(), default_scene()), 64, 48, {0, 0, 0});
}

TEST(Shading, TextureSphereAndToonMultiply) {
  const auto dir = mmdkit::test::temp_dir("render_tex");
  // 8 × 8 texture of 4 × 4 blocks: red, green / blue, grey (top row first).
  std::vector<std::uint8_t> tex;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const int q = (y / 4) * 2 + x / 4;
      const std::array<std::uint8_t, 4> c = q == 0 ? std::array<std::uint8_t, 4>{255, 0, 0, 255}
                                          : q == 1 ? std::array<std::uint8_t, 4>{0, 255, 0, 255}
                                          : q == 2 ? std::array<std::uint8_t, 4>{0, 0, 255, 255}
                                                   : std::array<std::uint8_t, 4>{128, 128, 128, 255};
      tex.insert(tex.end(), c.begin(), c.end());
    }
  write_png(dir / "tex.png", 8, 8, tex);
  write_sphere_and_toon(dir, "s.sph", {200, 150, 100});

  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {0.8f, 0.8f, 0.8f, 1};
  mat.ambient = {0.3f, 0.3f, 0.3f};
  mat.texture = "tex.png";
  mat.sphere = "s.sph";
  mat.sphere_mode = model::SphereMode::multiply;
  mat.toon = "toon.png";
  std::vector<Warning> warnings;
  const int w = 128, h = 96;
  const Image img = render(m, small(w, h), default_scene(), dir, &warnings);
  EXPECT_TRUE(warnings.empty());
  // N·L for a normal facing the camera: dot((0,0,−1), L) = 0.408 → toon row 0.296 (lit rows).
  const double base = std::min(1.0, 0.8 * kLight + 0.3);
  const std::array<double, 3> sp{200 / 255.0, 150 / 255.0, 100 / 255.0}, toon{250 / 255.0, 240 / 255.0, 230 / 255.0};
  struct Q {
    double u, v;
    std::array<double, 3> tex;
  };
  for (const Q& q : {Q{0.25, 0.25, {1, 0, 0}}, Q{0.75, 0.25, {0, 1, 0}}, Q{0.25, 0.75, {0, 0, 1}},
                     Q{0.75, 0.75, {128 / 255.0, 128 / 255.0, 128 / 255.0}}}) {
    const auto px = default_camera_pixel(-5 + 10 * q.u, 15 - 10 * q.v, 0, w, h);
    std::array<int, 3> want{};
    for (std::size_t c = 0; c < 3; ++c) want[c] = to255(base * q.tex[c] * sp[c] * toon[c]);
    expect_rgb(img, int(px[0]), int(px[1]), want, 3);
  }
}

TEST(Shading, AdditiveSphereAndShadowSideToon) {
  const auto dir = mmdkit::test::temp_dir("render_spa");
  write_sphere_and_toon(dir, "s.spa", {40, 20, 10});
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {0.5f, 0.5f, 0.5f, 1};
  mat.ambient = {0.1f, 0.1f, 0.1f};
  mat.sphere = "s.spa";
  mat.sphere_mode = model::SphereMode::add;
  mat.toon = "toon.png";
  SceneFrame scene = default_scene();
  // Light from behind the quad: N·L = −1 → toon row 1.0 (shadow rows).
  scene.light.direction = {0, 0, -1};
  const Image img = render(m, small(), scene, dir);
  const double base = 0.5 * kLight + 0.1;
  expect_rgb(img, 64, 48, {to255((base + 40 / 255.0) * 100 / 255.0), to255((base + 20 / 255.0) * 100 / 255.0),
                           to255((base + 10 / 255.0) * 100 / 255.0)}, 3);
}

TEST(Shading, BlinnPhongSpecularAtTheCentre) {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {0.2f, 0.2f, 0.2f, 1};
  mat.ambient = {0.1f, 0.1f, 0.1f};
  mat.specular = {0.5f, 0.25f, 0.0f};
  mat.specular_power = 5;
  const int w = 129, h = 97;  // odd: pixel (64, 48) is centred on the look-at point
  const Image img = render(m, small(w, h), default_scene());
  const auto l = to_light();
  // V = (0, 0, −1) at the look-at point; H = normalize(L + V).
  const double hx = l[0], hy = l[1], hz = l[2] - 1, hl = std::sqrt(hx * hx + hy * hy + hz * hz);
  const double s = std::pow(-hz / hl, 5.0) * kLight;
  const double base = 0.2 * kLight + 0.1;
  expect_rgb(img, 64, 48, {to255(base + 0.5 * s), to255(base + 0.25 * s), to255(base)});
}

TEST(Shading, AlphaBlendsInMaterialOrderWithDepthWrite) {
  model::Model m = empty_model();
  add_quad(m, -5, 5, 5, 15, 0).diffuse = {0, 0, 1, 1};            // opaque blue, behind
  add_quad(m, -3, 7, 3, 13, -1).diffuse = {1, 0, 0, 0.5f};        // half red in front
  m.materials[0].ambient = {0, 0, 0};
  m.materials[1].ambient = {0, 0, 0};
  const Image img = render(m, small(), default_scene());
  // red·L·0.5 over blue·L.
  expect_rgb(img, 64, 48, {to255(kLight * 0.5), 0, to255(kLight * 0.5)});
  // Reversed order: the translucent quad drawn first writes depth, so the opaque one behind it is
  // hidden there; only the background shows through (MMD draws in material order, depth write on).
  std::swap(m.materials[0], m.materials[1]);  // each keeps its triangles
  const Image img2 = render(m, small(), default_scene());
  expect_rgb(img2, 64, 48, {to255(kLight * 0.5 + 0.5), to255(0.5), to255(0.5)});
}

TEST(Shading, MaterialWithZeroAlphaIsNotDrawn) {
  model::Model m = empty_model();
  add_quad(m, -5, 5, 5, 15, 0).diffuse = {0, 0, 0, 0};
  expect_rgb(render(m, small(), default_scene()), 64, 48, {255, 255, 255});
}

TEST(Shading, MissingTextureIsWhiteWithOneWarning) {
  const auto dir = mmdkit::test::temp_dir("render_missing");
  model::Model m = empty_model();
  add_quad(m, -5, 5, 5, 15, 0).texture = "nothere.png";
  add_quad(m, -5, -5, 5, 0, 0).texture = "NotHere.png";  // same file, another spelling... still one
  m.materials[0].diffuse = {0.5f, 0.5f, 0.5f, 1};
  std::vector<Warning> warnings;
  const Image img = render(m, small(), default_scene(), dir, &warnings);
  expect_rgb(img, 64, 48, {to255(0.5 * kLight), to255(0.5 * kLight), to255(0.5 * kLight)});
  ASSERT_GE(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].code, ErrorCode::texture_missing);
  EXPECT_NE(warnings[0].message.find("nothere.png"), std::string::npos);
  EXPECT_NE(warnings[0].message.find(dir.string()), std::string::npos);
  EXPECT_NE(warnings[0].message.find("model 'test'"), std::string::npos);
}

// A model shipped without its textures (a fresh user's サンプルモデル.pmx: 33 lines) gets one
// warning: the count, the first five names in material order, how many more, the folder.
TEST(Shading, MissingTexturesOfAModelAreOneWarning) {
  const auto dir = mmdkit::test::temp_dir("render_missing_many");
  model::Model m = empty_model();
  for (int i = 0; i < 7; ++i) add_quad(m, -5, 5, 5, 15, 0).texture = "t" + std::to_string(i) + ".png";
  add_quad(m, -5, 5, 5, 15, 0).texture = "T3.PNG";  // the same file as t3.png (Windows' rule)
  std::vector<Warning> warnings;
  (void)render(m, small(), default_scene(), dir, &warnings);
  std::size_t texture_warnings = 0;
  for (const Warning& w : warnings) texture_warnings += w.code == ErrorCode::texture_missing;
  ASSERT_EQ(texture_warnings, 1u);
  const std::string& msg = warnings[0].message;
  EXPECT_EQ(msg, "model 'test': 7 textures 't0.png', 't1.png', 't2.png', 't3.png', 't4.png' and 2 more not found in folder '" +
                     dir.string() + "'; drawn white");
}

TEST(Shading, GeneratedToonUsedForSharedToonWithoutFiles) {
  const auto dir = mmdkit::test::temp_dir("render_shared_toon");
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, 5, 5, 15, 0);
  mat.diffuse = {1, 1, 1, 1};
  mat.ambient = {0.5f, 0.5f, 0.5f};
  mat.shared_toon = 2;  // toon03
  SceneFrame scene = default_scene();
  scene.light.direction = {0, 0, -1};  // shadow side: bottom row of the ramp
  const Image img = render(m, small(), scene, dir);
  const Image toon = generated_toon(2);
  const std::uint8_t* bottom = toon.at(0, toon.height - 1);
  expect_rgb(img, 64, 48, {bottom[0], bottom[1], bottom[2]});
  // MMD's own file in the model's folder wins.
  write_png(dir / "toon03.bmp", 1, 2, {255, 255, 255, 255, 10, 20, 30, 255});
  expect_rgb(render(m, small(), scene, dir), 64, 48, {10, 20, 30});
}

}  // namespace
}  // namespace mmdkit::render::test
