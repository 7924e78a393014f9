// MMD's accessory shader on a .x accessory generated here (text in the test, read by x::read, built
// by model::from_x): the colours at the quads' centres equal the accessory formula (nanoem
// accessory_color.hlsl, docs/RENDER.md "Accessories") computed by hand below, and differ from
// the model shader's.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#include "render/render_fixture.hpp"

namespace mmdkit::render::test {
namespace {

constexpr double kLight = 154.0 / 256.0;  // anim::LightState default

double n_dot_l_facing_camera() {  // normal (0, 0, −1), towards the light −(−0.5, −1, 0.5)/|…|
  return 0.5 / std::sqrt(1.5);
}

// Two unit quads (±0.5 in .x units) facing −Z: the left one plain, the right one with vertex
// colours; a Frame moves both up by 1 (.x units) so that ×10 puts them at y = 10 before MMD's
// default camera.
std::string accessory_text() {
  return R"(xof 0302txt 0032
template Vector { <3d82ab5e-62da-11cf-ab39-0020af71e433> FLOAT x; FLOAT y; FLOAT z; }
Material Plain {
  0.8;0.4;0.2;1.0;;
  0.0;
  0.0;0.0;0.0;;
  0.1;0.2;0.3;;
}
Frame Root {
  FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1;; }
  Mesh Left {
    4;
    -1.5;0.5;0;, -0.5;0.5;0;, -0.5;-0.5;0;, -1.5;-0.5;0;;
    1;
    4;0,1,2,3;;
    MeshNormals { 1; 0;0;-1;; 1; 4;0,0,0,0;; }
    MeshMaterialList { 1; 1; 0;; { Plain } }
  }
  Mesh Right {
    4;
    0.5;0.5;0;, 1.5;0.5;0;, 1.5;-0.5;0;, 0.5;-0.5;0;;
    1;
    4;0,1,2,3;;
    MeshNormals { 1; 0;0;-1;; 1; 4;0,0,0,0;; }
    MeshVertexColors { 4; 0;0.5;1.0;0.25;1.0;, 1;0.5;1.0;0.25;1.0;, 2;0.5;1.0;0.25;1.0;, 3;0.5;1.0;0.25;1.0;; }
    MeshMaterialList { 1; 1; 0;; Material { 0.6;0.6;0.6;1.0;; 10.0; 1.0;1.0;1.0;; 0.0;0.0;0.0;; } }
  }
}
)";
}

model::Model accessory_model() {
  const std::string text = accessory_text();
  auto doc = x::read(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  EXPECT_TRUE(doc) << doc.error().to_string();
  if (!doc) return {};
  auto m = model::from_x(*doc);
  EXPECT_TRUE(m) << m.error().to_string();
  return m ? *m : model::Model{};
}

void expect_near_rgb(const Image& img, int x, int y, std::array<double, 3> want, int tol = 2) {
  const auto got = rgb(img, x, y);
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(got[static_cast<std::size_t>(c)], to255(want[static_cast<std::size_t>(c)]), tol)
        << "pixel (" << x << ", " << y << ") channel " << c;
}

TEST(AccessoryShading, GeneratedAccessoryRendersWithThePredictedColours) {
  const model::Model m = accessory_model();
  ASSERT_EQ(m.shading, model::Shading::accessory);
  ASSERT_EQ(m.materials.size(), 2u);
  const int w = 160, h = 120;
  const Image img = render(m, small(w, h), default_scene());
  ASSERT_EQ(img.width, w);
  const double ndl = n_dot_l_facing_camera();
  // Left quad: C = Kd·(Lc − 0.3) + Ke + 1·Kd·N·L (vertex colour white), specular 0.
  const std::array<double, 3> kd{0.8, 0.4, 0.2}, ke{0.1, 0.2, 0.3};
  std::array<double, 3> left{};
  for (int c = 0; c < 3; ++c)
    left[std::size_t(c)] = kd[std::size_t(c)] * (kLight - 0.3) + ke[std::size_t(c)] + kd[std::size_t(c)] * ndl;
  // The quad centres, ×10 and moved up by the frame: (−10, 10, 0) and (10, 10, 0).
  const auto pl = default_camera_pixel(-10, 10, 0, w, h);
  expect_near_rgb(img, int(pl[0]), int(pl[1]), left);
  // Right quad: vertex colour (0.5, 1, 0.25) scales the lit diffuse term only; specular
  // 0.1·Ks·Lc·(N·H)^10 with H between the light and the eye direction at that point.
  const auto pr = default_camera_pixel(10, 10, 0, w, h);
  const std::array<double, 3> vc{0.5, 1.0, 0.25};
  const double eye[3] = {0 - 10.0, 10 - 10.0, -45 - 0.0};
  const double el = std::sqrt(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
  const double l[3] = {0.5 / std::sqrt(1.5), 1 / std::sqrt(1.5), -0.5 / std::sqrt(1.5)};
  double hv[3] = {l[0] + eye[0] / el, l[1] + eye[1] / el, l[2] + eye[2] / el};
  const double hl = std::sqrt(hv[0] * hv[0] + hv[1] * hv[1] + hv[2] * hv[2]);
  const double ndh = -hv[2] / hl;  // N = (0, 0, −1)
  const double spec = 0.1 * 1.0 * kLight * std::pow(std::max(0.0, ndh), 10.0);
  std::array<double, 3> right{};
  for (int c = 0; c < 3; ++c)
    right[std::size_t(c)] = std::clamp(0.6 * (kLight - 0.3) + 0.0 + vc[std::size_t(c)] * 0.6 * ndl, 0.0, 1.0) + spec;
  expect_near_rgb(img, int(pr[0]), int(pr[1]), right);
  // Between the quads: MMD's white background.
  const auto mid = default_camera_pixel(0, 10, 0, w, h);
  expect_near_rgb(img, int(mid[0]), int(mid[1]), {1, 1, 1}, 0);
}

TEST(AccessoryShading, DiffersFromTheModelShaderOnTheSameMaterials) {
  model::Model m = accessory_model();
  m.shading = model::Shading::model;  // the same view through MMD's model shader
  m.vertex_colors.clear();
  const int w = 160, h = 120;
  const Image img = render(m, small(w, h), default_scene());
  const auto pl = default_camera_pixel(-10, 10, 0, w, h);
  // Model shader: saturate(Kd·Lc + Ka) with Ka = emissive, no toon.
  expect_near_rgb(img, int(pl[0]), int(pl[1]), {0.8 * kLight + 0.1, 0.4 * kLight + 0.2, 0.2 * kLight + 0.3});
}

// The accessory drawn with ModelFrame's opacity, add_blend and visible (an accessory's keys and
// settings in a scene, docs/SCENE.md).
Image render_look(const model::Model& m, const RenderSettings& settings, float opacity, bool add_blend, bool visible) {
  ModelFrame look;
  look.opacity = opacity;
  look.add_blend = add_blend;
  look.visible = visible;
  return render(m, settings, default_scene(), {}, nullptr, look);
}

// Opacity multiplies the material alpha (over white: 0.5·C + 0.5); additive blending adds the
// colour to the background (clamped at 1); hidden draws nothing; opacity 1 without add_blend is
// the picture of before, byte for byte.
TEST(AccessoryShading, OpacityAdditiveBlendingAndHiddenAccessories) {
  const model::Model m = accessory_model();
  const int w = 160, h = 120;
  const Image plain = render(m, small(w, h), default_scene());
  ASSERT_EQ(plain.width, w);
  EXPECT_EQ(render_look(m, small(w, h), 1.0f, false, true).rgba, plain.rgba);
  const double ndl = n_dot_l_facing_camera();
  const std::array<double, 3> kd{0.8, 0.4, 0.2}, ke{0.1, 0.2, 0.3};
  std::array<double, 3> left{};
  for (int c = 0; c < 3; ++c)
    left[std::size_t(c)] = std::clamp(kd[std::size_t(c)] * (kLight - 0.3) + ke[std::size_t(c)] + kd[std::size_t(c)] * ndl, 0.0, 1.0);
  const auto pl = default_camera_pixel(-10, 10, 0, w, h);
  // Opacity 0.5 over MMD's white background.
  const Image half = render_look(m, small(w, h), 0.5f, false, true);
  std::array<double, 3> want{};
  for (int c = 0; c < 3; ++c) want[std::size_t(c)] = 0.5 * left[std::size_t(c)] + 0.5;
  expect_near_rgb(half, int(pl[0]), int(pl[1]), want);
  // Additive over a dark grey background: background + colour.
  RenderSettings grey = small(w, h);
  grey.background = {0.2f, 0.1f, 0.0f};
  const Image add = render_look(m, grey, 1.0f, true, true);
  for (int c = 0; c < 3; ++c)
    want[std::size_t(c)] = std::min(1.0, double(grey.background[std::size_t(c)]) + left[std::size_t(c)]);
  expect_near_rgb(add, int(pl[0]), int(pl[1]), want);
  // Additive and opacity 0.5: background + 0.5·colour.
  const Image add_half = render_look(m, grey, 0.5f, true, true);
  for (int c = 0; c < 3; ++c)
    want[std::size_t(c)] = std::min(1.0, double(grey.background[std::size_t(c)]) + 0.5 * left[std::size_t(c)]);
  expect_near_rgb(add_half, int(pl[0]), int(pl[1]), want);
  // Hidden: the background only.
  const Image hidden = render_look(m, grey, 1.0f, false, false);
  expect_near_rgb(hidden, int(pl[0]), int(pl[1]), {0.2, 0.1, 0.0}, 0);
}

}  // namespace
}  // namespace mmdkit::render::test
