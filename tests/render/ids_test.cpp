// Mask and depth read-back (Renderer::draw_ids): two models of one picture, each a quad facing
// MMD's default camera at a known world z, checked against the pinhole projection and the view
// depth z + 45 of that camera (eye at z = −45 looking +Z), computed here independently.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render/render_fixture.hpp"

namespace mmdkit::render {
namespace {

using test::add_quad;
using test::default_camera_pixel;
using test::empty_model;

constexpr int kW = 160, kH = 120;

struct Ids {
  std::vector<std::uint8_t> mask;
  std::vector<float> depth;
  std::uint8_t m(int x, int y) const { return mask[static_cast<std::size_t>(y * kW + x)]; }
  float d(int x, int y) const { return depth[static_cast<std::size_t>(y * kW + x)]; }
};

// Model 0: quad x −4..0, y 6..14 at z = 0. Model 1: quad x −4..4, y 6..14 at z = 10 (behind model 0
// on its left half). A third model without a framebuffer is drawn nowhere on screen (material
// alpha 0): its id never appears.
Ids draw_two(const anim::CameraState* camera = nullptr) {
  Ids out;
  Context* ctx = test::context();
  if (!ctx) return out;
  model::Model a = empty_model(), b = empty_model(), c = empty_model();
  add_quad(a, -4, 6, 0, 14, 0);
  add_quad(b, -4, 6, 4, 14, 10);
  add_quad(c, -10, -10, 10, 30, -5).diffuse = {1, 1, 1, 0};  // not drawn (alpha 0)
  std::vector<Warning> w;
  RenderSettings s = test::small(kW, kH);
  s.msaa = 4;
  auto ra = Renderer::create(*ctx, a, {}, s, w);
  s.framebuffer = false;
  auto rb = Renderer::create(*ctx, b, {}, s, w);
  auto rc = Renderer::create(*ctx, c, {}, s, w);
  EXPECT_TRUE(ra && rb && rc);
  if (!ra || !rb || !rc) return out;
  std::vector<std::vector<Vec3>> pos(3), nrm(3);
  const model::Model* models[] = {&a, &b, &c};
  std::vector<ModelFrame> frames(3);
  for (std::size_t k = 0; k < 3; ++k) {
    for (const auto& v : models[k]->vertices) {
      pos[k].push_back(v.position);
      nrm[k].push_back(v.normal);
    }
    frames[k].positions = pos[k];
    frames[k].normals = nrm[k];
  }
  SceneFrame scene = test::default_scene();
  if (camera) scene.camera = *camera;
  Renderer* rs[] = {&*ra, &*rb, &*rc};
  EXPECT_TRUE(Renderer::draw_scene(rs, frames, scene));
  auto r = Renderer::draw_ids(rs, frames, scene, &out.mask, &out.depth);
  EXPECT_TRUE(r) << (r ? "" : r.error().to_string());
  return out;
}

TEST(RenderIds, MaskAndDepthOfTwoModels) {
  const Ids ids = draw_two();
  ASSERT_EQ(ids.mask.size(), std::size_t(kW * kH));
  ASSERT_EQ(ids.depth.size(), std::size_t(kW * kH));
  // Model 0's centre (−2, 10, 0): id 1, depth 45 (in front of model 1 there).
  const auto p0 = default_camera_pixel(-2, 10, 0, kW, kH);
  const int x0 = int(p0[0]), y0 = int(p0[1]);
  EXPECT_EQ(ids.m(x0, y0), 1);
  EXPECT_NEAR(ids.d(x0, y0), 45.0f, 0.01f);
  // Model 1's right half (2, 10, 10): id 2, depth 55.
  const auto p1 = default_camera_pixel(2, 10, 10, kW, kH);
  const int x1 = int(p1[0]), y1 = int(p1[1]);
  EXPECT_EQ(ids.m(x1, y1), 2);
  EXPECT_NEAR(ids.d(x1, y1), 55.0f, 0.01f);
  // Background (top-left corner): 0 and +inf; no pixel of the undrawn third model.
  EXPECT_EQ(ids.m(0, 0), 0);
  EXPECT_EQ(ids.d(0, 0), std::numeric_limits<float>::infinity());
  std::size_t ones = 0, twos = 0;
  for (std::size_t i = 0; i < ids.mask.size(); ++i) {
    EXPECT_LE(ids.mask[i], 2);
    EXPECT_EQ(ids.mask[i] == 0, std::isinf(ids.depth[i])) << i;
    ones += ids.mask[i] == 1;
    twos += ids.mask[i] == 2;
  }
  // Areas against the projection: model 0 spans 4 × 8 units at depth 45, model 1's visible right
  // half 4 × 8 at depth 55 (its left half is behind model 0, partly visible around it).
  const auto a0 = default_camera_pixel(-4, 14, 0, kW, kH), b0 = default_camera_pixel(0, 6, 0, kW, kH);
  const double area0 = (b0[0] - a0[0]) * (b0[1] - a0[1]);
  EXPECT_NEAR(double(ones), area0, 0.05 * area0);
  EXPECT_GT(twos, 0u);
}

TEST(RenderIds, OrthographicDepthIsFromTheEyePlane) {
  anim::CameraState cam;
  cam.perspective = false;
  anim::update_camera_view(cam);  // MMD's default: target (0, 10, 0), distance 45 → eye z = −45
  const Ids ids = draw_two(&cam);
  ASSERT_EQ(ids.depth.size(), std::size_t(kW * kH));
  // Orthographic: the middle column's pixels near the centre see model 1 at x > 0 (depth 55) and
  // model 0 at x < 0 (depth 45); find both values among the finite depths.
  bool saw45 = false, saw55 = false;
  for (float d : ids.depth) {
    if (std::isinf(d)) continue;
    saw45 = saw45 || std::abs(d - 45.0f) < 0.02f;
    saw55 = saw55 || std::abs(d - 55.0f) < 0.02f;
    EXPECT_TRUE(std::abs(d - 45.0f) < 0.02f || std::abs(d - 55.0f) < 0.02f) << d;
  }
  EXPECT_TRUE(saw45);
  EXPECT_TRUE(saw55);
}

}  // namespace
}  // namespace mmdkit::render
