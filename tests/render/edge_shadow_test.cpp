// Edges (width in pixels), ground shadow and self-shadow on small models with known answers.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/core/file.hpp"
#include "mmdkit/render/image.hpp"
#include "render/render_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::render::test {
namespace {

constexpr double kLight = 154.0 / 256.0;

// Dark pixels (R < 64) right of column x0 on row y, up to the first light one.
int dark_run(const Image& img, int x0, int y) {
  int n = 0;
  for (int x = x0; x < img.width && img.at(x, y)[0] < 64; ++x) ++n;
  return n;
}

// A plate facing the camera and, 0.5 behind it, a back plate whose vertex normals point sideways
// (−X on its left, +X on its right side) as a smooth model's silhouette normals do: the inverted
// hull pass draws the back plate pushed out sideways by the edge width.
model::Model edge_plate() {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -4, 6, 4, 14, -4.25f);
  mat.diffuse = {0, 0, 0, 1};
  mat.ambient = {0.5f, 0.5f, 0.5f};
  mat.edge_color = {0, 0, 0, 1};
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.push_back(vertex(4, 14, -3.75f, 0, 0, {1, 0, 0}));
  m.vertices.push_back(vertex(-4, 14, -3.75f, 0, 0, {-1, 0, 0}));
  m.vertices.push_back(vertex(-4, 6, -3.75f, 0, 0, {-1, 0, 0}));
  m.vertices.push_back(vertex(4, 6, -3.75f, 0, 0, {1, 0, 0}));
  for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.faces.push_back(b + i);
  m.materials[0].index_count = 12;
  return m;
}

TEST(Edges, WidthInPixelsIsEdgeSizeTimesVertexScaleTimesPixelsPerUnit) {
  model::Model m = edge_plate();
  model::Material& mat = m.materials[0];
  mat.flags = model::kDrawEdge;
  mat.edge_size = 1.5f;
  RenderSettings s = small(160, 120);
  s.edges = true;
  s.edge_pixels = 2;
  const Image img = render(m, s, default_scene());
  // Right silhouette of the front face (x = 4 at z = −4).
  const auto px = default_camera_pixel(4, 10, -4.25, 160, 120);
  const int first_out = static_cast<int>(std::ceil(px[0] - 0.5));  // first pixel centre right of it
  EXPECT_GT(img.at(first_out - 2, 60)[0], 100) << "body is grey";
  EXPECT_NEAR(dark_run(img, first_out, 60), 3, 1);  // 1.5 × 2 pixels
  // The frame's edge_scale (a scene model's edge width) multiplies it: 2 doubles it, 0 removes
  // it, 1 is the picture of before, byte for byte.
  ModelFrame look;
  look.edge_scale = 2;
  EXPECT_NEAR(dark_run(render(m, s, default_scene(), {}, nullptr, look), first_out, 60), 6, 1);
  look.edge_scale = 0;
  EXPECT_EQ(dark_run(render(m, s, default_scene(), {}, nullptr, look), first_out, 60), 0);
  look.edge_scale = 1;
  EXPECT_EQ(render(m, s, default_scene(), {}, nullptr, look).rgba, img.rgba);
  // Vertex edge scale 2 doubles it.
  for (auto& v : m.vertices) v.edge_scale = 2;
  EXPECT_NEAR(dark_run(render(m, s, default_scene()), first_out, 60), 6, 1);
  // No edge flag (a PMD material without edges): none.
  m.materials[0].flags = 0;
  EXPECT_EQ(dark_run(render(m, s, default_scene()), first_out, 60), 0);
  // --no-edge.
  m.materials[0].flags = model::kDrawEdge;
  s.edges = false;
  EXPECT_EQ(dark_run(render(m, s, default_scene()), first_out, 60), 0);
}

TEST(Edges, AutomaticWidthFollowsImageHeight) {
  Context* ctx = context();
  ASSERT_TRUE(ctx);
  model::Model m = empty_model();
  add_quad(m, -1, 9, 1, 11, 0);
  std::vector<Warning> w;
  RenderSettings s = small(64, 720);
  auto r = Renderer::create(*ctx, m, {}, s, w);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->edge_pixels(), 720 * 0.001 / (2 * std::tan(15 * 3.14159265358979 / 180)), 1e-4);
}

// A horizontal quad at y = 5 facing up casting the ground shadow; with the light straight down
// (overhead_light) its shadow covers x, z ∈ [−5, 5] at y = 0.
model::Model ground_shadow_caster() {
  model::Model m = empty_model();
  model::Material& mat = add_quad(m, -5, -5, 5, 5, 0);
  mat.flags = model::kGroundShadow | model::kDoubleSided;
  for (auto& v : m.vertices) v.position = {v.position[0], 5.0f, v.position[1]};
  return m;
}

SceneFrame overhead_light() {
  SceneFrame scene = default_scene();
  scene.light.direction = {0, -1, 0};
  return scene;
}

TEST(GroundShadow, FlatOnTheFloorInTheLightColour) {
  const model::Model m = ground_shadow_caster();
  const SceneFrame scene = overhead_light();
  RenderSettings s = small(128, 96);
  s.ground_shadow = true;
  const Image img = render(m, s, scene);
  const auto p = default_camera_pixel(0, 0, 0, 128, 96);
  const int c = to255(kLight);
  EXPECT_NEAR(rgb(img, int(p[0]), int(p[1]))[0], c, 2);
  // Outside the shadow: background.
  const auto q = default_camera_pixel(8, 0, 0, 128, 96);
  EXPECT_EQ(rgb(img, int(q[0]), int(q[1]))[0], 255);
  s.ground_shadow = false;
  EXPECT_EQ(rgb(render(m, s, scene), int(p[0]), int(p[1]))[0], 255);
}

// MMD's translucent ground shadow (a project's view setting): the light colour at alpha 0.5 over
// the background, as nanoem draws it: 0.5 · light + 0.5 · white.
TEST(GroundShadow, TranslucentIsHalfTheLightColourOverTheBackground) {
  const model::Model m = ground_shadow_caster();
  const SceneFrame scene = overhead_light();
  RenderSettings s = small(128, 96);
  s.ground_shadow = true;
  s.translucent_ground_shadow = true;
  const Image img = render(m, s, scene);
  const auto p = default_camera_pixel(0, 0, 0, 128, 96);
  EXPECT_NEAR(rgb(img, int(p[0]), int(p[1]))[0], 0.5 * to255(kLight) + 0.5 * 255, 2);
  const auto q = default_camera_pixel(8, 0, 0, 128, 96);
  EXPECT_EQ(rgb(img, int(q[0]), int(q[1]))[0], 255);
}

TEST(SelfShadow, CasterDarkensReceiverWithTheToonShadowColour) {
  const auto dir = mmdkit::test::temp_dir("render_self_shadow");
  Image toon{1, 2, {255, 255, 255, 255, 100, 50, 25, 255}};
  auto png = encode_png(toon, true);
  ASSERT_TRUE(png);
  ASSERT_TRUE(write_file_atomic(dir / "toon.png", ByteSpan(png->data(), png->size())));
  model::Model m = empty_model();
  model::Material& recv = add_quad(m, -10, 0, 10, 20, 5);  // wall behind
  recv.diffuse = {0.5f, 0.5f, 0.5f, 1};
  recv.ambient = {0.3f, 0.3f, 0.3f};
  recv.toon = "toon.png";
  recv.flags = model::kReceiveShadow;
  model::Material& cast = add_quad(m, -2, 8, 2, 12, 0);  // small quad in front
  cast.flags = model::kDrawShadowMap;
  cast.diffuse = {0, 0, 0, 1};
  SceneFrame scene = default_scene();
  scene.light.direction = {1, 0, 1};  // 45° from the left: the shadow lands 5 units to +X on the wall
  scene.self_shadow.mode = 1;
  RenderSettings s = small(160, 120);
  s.self_shadow = true;
  s.shadow_map_size = 512;
  const Image img = render(m, s, scene, dir);
  const double c = 0.5 * kLight + 0.3;
  const auto shadowed = default_camera_pixel(5, 10, 5, 160, 120);
  const auto lit = default_camera_pixel(-6, 10, 5, 160, 120);
  const auto a = rgb(img, int(shadowed[0]), int(shadowed[1]));
  EXPECT_NEAR(a[0], to255(c * 100 / 255.0), 3);
  EXPECT_NEAR(a[1], to255(c * 50 / 255.0), 3);
  EXPECT_NEAR(a[2], to255(c * 25 / 255.0), 3);
  EXPECT_NEAR(rgb(img, int(lit[0]), int(lit[1]))[0], to255(c), 3);
  // Mode 0 (a VMD self-shadow key switching it off): the toon ramp instead, lit side.
  scene.self_shadow.mode = 0;
  EXPECT_NEAR(rgb(render(m, s, scene, dir), int(shadowed[0]), int(shadowed[1]))[0], to255(c), 3);
}


// Two models drawn by Renderer::draw_scene: `a` (owns the picture) and `b`, in their bind poses,
// with the frames' flags from `la` / `lb` and the draw order `order`.
Image render_two(const model::Model& a, const model::Model& b, const RenderSettings& s, const SceneFrame& scene,
                 const ModelFrame& la, const ModelFrame& lb, std::vector<std::size_t> order = {},
                 const std::filesystem::path& folder = {}) {
  Image img;
  Context* ctx = context();
  if (!ctx) return img;
  std::vector<Warning> w;
  auto ra = Renderer::create(*ctx, a, folder, s, w);
  RenderSettings sb = s;
  sb.framebuffer = false;
  auto rb = Renderer::create(*ctx, b, folder, sb, w);
  if (!ra || !rb) {
    ADD_FAILURE() << "renderer not created";
    return img;
  }
  std::vector<Vec3> pa, na, pb, nb;
  for (const auto& v : a.vertices) pa.push_back(v.position), na.push_back(v.normal);
  for (const auto& v : b.vertices) pb.push_back(v.position), nb.push_back(v.normal);
  ModelFrame fa = la, fb = lb;
  fa.positions = pa;
  fa.normals = na;
  fb.positions = pb;
  fb.normals = nb;
  std::vector<Renderer*> rs{&*ra, &*rb};
  std::vector<ModelFrame> fs{fa, fb};
  if (auto d = Renderer::draw_scene(rs, fs, scene, order); !d) ADD_FAILURE() << d.error().to_string();
  ra->read(img);
  return img;
}

// A model's self-shadow off (ModelFrame::self_shadow, a project model's セルフ影 off; nanoem
// Model::draw / drawColor): the wall and the caster of CasterDarkens... as two models. The caster
// off: the wall is lit where the shadow fell (no depth of it in the map); the wall off: it takes
// no shadow although the caster is in the map; both on: the toon shadow colour as before.
TEST(SelfShadow, PerModelOffNeitherCastsNorReceives) {
  const auto dir = mmdkit::test::temp_dir("render_self_shadow_model");
  Image toon{1, 2, {255, 255, 255, 255, 100, 50, 25, 255}};
  auto png = encode_png(toon, true);
  ASSERT_TRUE(png);
  ASSERT_TRUE(write_file_atomic(dir / "toon.png", ByteSpan(png->data(), png->size())));
  model::Model wall = empty_model();
  model::Material& recv = add_quad(wall, -10, 0, 10, 20, 5);
  recv.diffuse = {0.5f, 0.5f, 0.5f, 1};
  recv.ambient = {0.3f, 0.3f, 0.3f};
  recv.toon = "toon.png";
  recv.flags = model::kReceiveShadow;
  model::Model caster = empty_model();
  model::Material& cast = add_quad(caster, -2, 8, 2, 12, 0);
  cast.flags = model::kDrawShadowMap;
  cast.diffuse = {0, 0, 0, 1};
  SceneFrame scene = default_scene();
  scene.light.direction = {1, 0, 1};
  scene.self_shadow.mode = 1;
  RenderSettings s = small(160, 120);
  s.self_shadow = true;
  s.shadow_map_size = 512;
  const double c = 0.5 * kLight + 0.3;
  const auto shadowed = default_camera_pixel(5, 10, 5, 160, 120);
  auto red_at_shadow = [&](bool wall_on, bool caster_on) {
    ModelFrame lw, lc;
    lw.self_shadow = wall_on;
    lc.self_shadow = caster_on;
    return rgb(render_two(wall, caster, s, scene, lw, lc, {}, dir), int(shadowed[0]), int(shadowed[1]))[0];
  };
  EXPECT_NEAR(red_at_shadow(true, true), to255(c * 100 / 255.0), 3);
  EXPECT_NEAR(red_at_shadow(true, false), to255(c), 3);
  EXPECT_NEAR(red_at_shadow(false, true), to255(c), 3);
}

// An accessory's ground shadow off (ModelFrame::ground_shadow, MMD's accessory 影): no shadow on the
// floor whatever the materials ask; on: the light colour as before.
TEST(GroundShadow, FrameOffDrawsNone) {
  const model::Model m = ground_shadow_caster();
  const SceneFrame scene = overhead_light();
  RenderSettings s = small(128, 96);
  s.ground_shadow = true;
  const auto p = default_camera_pixel(0, 0, 0, 128, 96);
  ModelFrame off;
  off.ground_shadow = false;
  EXPECT_EQ(rgb(render(m, s, scene, {}, nullptr, off), int(p[0]), int(p[1]))[0], 255);
  EXPECT_EQ(render(m, s, scene, {}, nullptr, ModelFrame{}).rgba, render(m, s, scene).rgba);
}

// The draw order (draw_scene's `order`, MMD's 描画順): two translucent quads in one plane, red
// then blue, the later one blended over the earlier (depth test LEQUAL lets both through):
// order {1, 0} draws blue first, so red ends on top. Colours by hand: the model shader's
// unlit-by-ambient quad is (ambient + diffuse · light) clamped, at alpha 0.5 over white, then the
// other at 0.5 over that.
TEST(DrawOrder, OrderDecidesWhichTranslucentModelIsOnTop) {
  auto quad = [](model::Vec3 ambient) {
    model::Model m = empty_model();
    model::Material& mat = add_quad(m, -3, 7, 3, 13, 0);
    mat.diffuse = {0, 0, 0, 0.5f};
    mat.ambient = ambient;
    mat.flags = model::kDoubleSided;
    return m;
  };
  const model::Model red = quad({1, 0, 0}), blue = quad({0, 0, 1});
  const RenderSettings s = small(128, 96);
  const SceneFrame scene = default_scene();
  const auto p = default_camera_pixel(0, 10, 0, 128, 96);
  const auto first = rgb(render_two(red, blue, s, scene, {}, {}), int(p[0]), int(p[1]));
  const auto swapped = rgb(render_two(red, blue, s, scene, {}, {}, {1, 0}), int(p[0]), int(p[1]));
  // red over white = (1, 0.5, 0.5); blue over that = (0.5, 0.25, 0.75).
  EXPECT_NEAR(first[0], to255(0.5), 2);
  EXPECT_NEAR(first[2], to255(0.75), 2);
  // blue over white = (0.5, 0.5, 1); red over that = (0.75, 0.25, 0.5).
  EXPECT_NEAR(swapped[0], to255(0.75), 2);
  EXPECT_NEAR(swapped[2], to255(0.5), 2);
  EXPECT_NEAR(swapped[1], to255(0.25), 2);
  // The identity order is the default's picture; an order that is not a permutation is refused.
  EXPECT_EQ(render_two(red, blue, s, scene, {}, {}, {0, 1}).rgba, render_two(red, blue, s, scene, {}, {}).rgba);
  Context* ctx = context();
  ASSERT_NE(ctx, nullptr);
  std::vector<Warning> w;
  auto r = Renderer::create(*ctx, red, {}, s, w);
  ASSERT_TRUE(r);
  std::vector<Vec3> pos, nrm;
  for (const auto& v : red.vertices) pos.push_back(v.position), nrm.push_back(v.normal);
  ModelFrame f;
  f.positions = pos;
  f.normals = nrm;
  Renderer* rp = &*r;
  const std::vector<std::size_t> bad{1};
  auto e = Renderer::draw_scene(std::span<Renderer* const>(&rp, 1), std::span<const ModelFrame>(&f, 1), scene, bad);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("draw order"), std::string::npos) << e.error().message;
}

}  // namespace
}  // namespace mmdkit::render::test
