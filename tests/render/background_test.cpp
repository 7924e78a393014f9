// Background pictures (SceneFrame::backgrounds, docs/RENDER.md "Background pictures") and the edge
// colour that replaces a material's (ModelFrame::edge_color): pixels at known positions of a
// picture generated here, computed by hand from its rectangle.
#include <gtest/gtest.h>

#include <array>

#include "render/render_fixture.hpp"

namespace mmdkit::render::test {
namespace {

constexpr std::array<std::array<int, 3>, 4> kQuadrant{{{200, 40, 40}, {40, 200, 40}, {40, 40, 200}, {220, 220, 20}}};

// 4 × 4 pixels: top-left 2 × 2 red, top-right green, bottom-left blue, bottom-right yellow.
Image quadrants() {
  Image im{4, 4, std::vector<std::uint8_t>(64, 255)};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const auto& c = kQuadrant[static_cast<std::size_t>((y / 2) * 2 + x / 2)];
      std::uint8_t* p = im.rgba.data() + (y * 4 + x) * 4;
      p[0] = static_cast<std::uint8_t>(c[0]);
      p[1] = static_cast<std::uint8_t>(c[1]);
      p[2] = static_cast<std::uint8_t>(c[2]);
    }
  return im;
}

// The colour of quadrant q at a pixel well inside it (bilinear filtering mixes only within it).
void expect_quadrant(const Image& img, int x, int y, std::size_t q) {
  const auto got = rgb(img, x, y);
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(got[c], kQuadrant[q][c]) << "pixel (" << x << ", " << y << ") channel " << c;
}

TEST(Background, PictureStretchedOverItsRectangleBehindTheModel) {
  const Image picture = quadrants();
  model::Model m = empty_model();
  add_quad(m, -1, 9, 1, 11, 0).ambient = {0.5f, 0.5f, 0.5f};  // a small plate at the centre
  RenderSettings s = small(160, 120);
  SceneFrame plain = default_scene();
  const Image without = render(m, s, plain);
  SceneFrame scene = default_scene();
  scene.backgrounds.push_back({&picture, {0, 0, 160, 120}});  // the whole output (scale 1, offset 0)
  const Image img = render(m, s, scene);
  // Quadrant centres of the output: each quadrant of the picture.
  expect_quadrant(img, 40, 30, 0);
  expect_quadrant(img, 120, 30, 1);
  expect_quadrant(img, 40, 90, 2);
  expect_quadrant(img, 120, 90, 3);
  // The plate (world (0, 10, 0) at the output's centre) is drawn over it, as without the picture.
  EXPECT_EQ(rgb(img, 80, 60), rgb(without, 80, 60));
  EXPECT_NE(rgb(img, 80, 60), rgb(img, 40, 30));

  // Offset (80, 60) and scale 0.5: the picture fills the bottom-right quarter; the rest is the
  // background colour (white).
  scene.backgrounds[0].rect = {80, 60, 80, 60};
  const Image moved = render(empty_model(), s, scene);
  EXPECT_EQ(rgb(moved, 40, 30), (std::array<int, 3>{255, 255, 255}));
  EXPECT_EQ(rgb(moved, 40, 100), (std::array<int, 3>{255, 255, 255}));
  EXPECT_EQ(rgb(moved, 120, 40), (std::array<int, 3>{255, 255, 255}));
  expect_quadrant(moved, 100, 75, 0);  // 80 + 80 / 4, 60 + 60 / 4
  expect_quadrant(moved, 140, 75, 1);
  expect_quadrant(moved, 100, 105, 2);
  expect_quadrant(moved, 140, 105, 3);
  // Layers are drawn in order: a second one covers the first where they overlap.
  const Image green{1, 1, {40, 200, 40, 255}};
  scene.backgrounds.push_back({&green, {0, 0, 100, 70}});
  const Image both = render(empty_model(), s, scene);
  expect_quadrant(both, 90, 65, 1);   // inside the second
  expect_quadrant(both, 140, 105, 3);  // the first's, outside the second
}

TEST(Background, EmptyPictureIsRefused) {
  const Image none{};
  SceneFrame scene = default_scene();
  scene.backgrounds.push_back({&none, {0, 0, 10, 10}});
  Context* ctx = context();
  ASSERT_NE(ctx, nullptr);
  std::vector<Warning> w;
  const model::Model m = empty_model();
  auto r = Renderer::create(*ctx, m, {}, small(32, 32), w);
  ASSERT_TRUE(r);
  auto d = r->draw(ModelFrame{}, scene);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("background picture"), std::string::npos) << d.error().message;
}

TEST(EdgeColor, FrameColourReplacesTheMaterialsEdgeColour) {
  // A plate with a wide edge: its silhouette's outside is the edge colour.
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -4, 6, 4, 14, -4.25f);
  mat.ambient = {0.5f, 0.5f, 0.5f};
  mat.edge_color = {0, 0, 0, 1};
  mat.flags = model::kDrawEdge;
  mat.edge_size = 3;
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.push_back(vertex(4, 14, -3.75f, 0, 0, {1, 0, 0}));
  m.vertices.push_back(vertex(-4, 14, -3.75f, 0, 0, {-1, 0, 0}));
  m.vertices.push_back(vertex(-4, 6, -3.75f, 0, 0, {-1, 0, 0}));
  m.vertices.push_back(vertex(4, 6, -3.75f, 0, 0, {1, 0, 0}));
  for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.faces.push_back(b + i);
  m.materials[0].index_count = 12;
  RenderSettings s = small(160, 120);
  s.edges = true;
  s.edge_pixels = 2;  // 6 pixels of edge
  const auto px = default_camera_pixel(4, 10, -4.25, 160, 120);
  const int x = static_cast<int>(std::ceil(px[0] - 0.5)) + 2;  // inside the edge, right of the plate
  EXPECT_EQ(rgb(render(m, s, default_scene()), x, 60), (std::array<int, 3>{0, 0, 0}));
  ModelFrame look;
  look.edge_color = std::array<float, 3>{1.0f, 0.5f, 0.25f};
  EXPECT_EQ(rgb(render(m, s, default_scene(), {}, nullptr, look), x, 60), (std::array<int, 3>{255, 128, 64}));
}

}  // namespace
}  // namespace mmdkit::render::test
