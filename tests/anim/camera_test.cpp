// Camera (cut, > 180° turns, curves, view matrix), light (linear), self-shadow (step).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/anim/self_shadow.hpp"

namespace mmdkit::anim {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

vmd::CameraKey cam(std::uint32_t frame, Vec3 target, Vec3 rot, float distance, std::uint32_t fov = 30,
                   std::uint8_t persp = 0, vmd::CameraInterpolation ip = {}) {
  vmd::CameraKey k;
  k.frame = frame;
  k.target = target;
  k.rotation = rot;
  k.distance = distance;
  k.view_angle = fov;
  k.perspective = persp;
  k.interpolation = vmd::encode_camera_interpolation(ip);
  return k;
}

// view · (p, 1)
Vec3 to_view(const Mat4& m, const Vec3& p) {
  Vec3 r;
  for (std::size_t i = 0; i < 3; ++i) r[i] = m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i];
  return r;
}

void expect_vec(const Vec3& a, const Vec3& b, float tol = 1e-4f) {
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], tol) << i;
}

TEST(Camera, EmptyTrackIsMmdInitialCamera) {
  std::uint32_t c = 0;
  CameraState s = sample_camera({}, 0.0, c);
  expect_vec(s.position, {0, 10, -45});
  EXPECT_EQ(s.fov_degrees, 30.0f);
  EXPECT_TRUE(s.perspective);
}

TEST(Camera, PositionAndLeftHandedViewMatrix) {
  std::vector<vmd::CameraKey> keys = {cam(0, {1, 2, 3}, {0, 0, 0}, -10)};
  auto t = build_camera_track(keys);
  std::uint32_t c = 0;
  CameraState s = sample_camera(t, 0.0, c);
  expect_vec(s.position, {1, 2, -7});
  expect_vec(to_view(s.view, s.position), {0, 0, 0});
  expect_vec(to_view(s.view, {1, 2, 3}), {0, 0, 10});  // target straight ahead on +Z
  expect_vec(to_view(s.view, {2, 2, 3}), {1, 0, 10});  // +X world is +X (right) in view
  expect_vec(to_view(s.view, {1, 3, 3}), {0, 1, 10});  // up is up

  // Stored rotation y = +90°: R = Ry(−90°) moves (0, 0, −10) to (10, 0, 0).
  keys = {cam(0, {0, 0, 0}, {0, kPi / 2, 0}, -10)};
  t = build_camera_track(keys);
  s = sample_camera(t, 0.0, c);
  expect_vec(s.position, {10, 0, 0});
  expect_vec(to_view(s.view, {0, 0, 0}), {0, 0, 10});
  // Stored rotation x = +90°: R = Rx(−90°) moves (0, 0, −10) to (0, −10, 0) (babylon-mmd).
  keys = {cam(0, {0, 0, 0}, {kPi / 2, 0, 0}, -10)};
  t = build_camera_track(keys);
  s = sample_camera(t, 0.0, c);
  expect_vec(s.position, {0, -10, 0});
  expect_vec(to_view(s.view, {0, 0, 0}), {0, 0, 10});
}

TEST(Camera, LinearEulerTurnsMoreThanHalfAround) {
  // 0° → 270° about Y over 30 frames: halfway is 135°, not the −45° a slerp would give.
  std::vector<vmd::CameraKey> keys = {cam(0, {}, {0, 0, 0}, -10), cam(30, {}, {0, 1.5f * kPi, 0}, -10)};
  auto t = build_camera_track(keys);
  std::uint32_t c = 0;
  CameraState s = sample_camera(t, 15.0, c);
  EXPECT_NEAR(s.rotation[1], 0.75f * kPi, 1e-6);
  // R = Ry(−135°) applied to (0, 0, −10): x = −sin(−135°)·(−10)·(−1)… computed directly:
  const double a = -0.75 * std::numbers::pi;
  expect_vec(s.position, {static_cast<float>(std::sin(a) * -10), 0, static_cast<float>(std::cos(a) * -10)});
}

TEST(Camera, KeysOneFrameApartAreACut) {
  std::vector<vmd::CameraKey> keys = {cam(10, {0, 0, 0}, {}, -10, 30), cam(11, {100, 0, 0}, {}, -50, 60),
                                      cam(21, {0, 0, 0}, {}, -50, 60, 1)};
  auto t = build_camera_track(keys);
  std::uint32_t c = 0;
  CameraState s = sample_camera(t, 10.5, c);
  EXPECT_EQ(s.target[0], 0.0f);
  EXPECT_EQ(s.distance, -10.0f);
  EXPECT_EQ(s.fov_degrees, 30.0f);
  s = sample_camera(t, 11.0, c);
  EXPECT_EQ(s.target[0], 100.0f);
  EXPECT_EQ(s.fov_degrees, 60.0f);
  s = sample_camera(t, 16.0, c);  // 10 frames apart: interpolated; perspective steps
  EXPECT_FLOAT_EQ(s.target[0], 50.0f);
  EXPECT_TRUE(s.perspective);
  s = sample_camera(t, 21.0, c);
  EXPECT_FALSE(s.perspective);
}

TEST(Camera, CurvesOfTheLaterKeyPerQuantity) {
  vmd::CameraInterpolation ip;
  ip.distance = vmd::Curve{0, 127, 0, 127};  // x = 1/8 → 0.875
  std::vector<vmd::CameraKey> keys = {cam(0, {0, 0, 0}, {}, -10, 20), cam(8, {8, 16, 0}, {}, -90, 60, 0, ip)};
  auto t = build_camera_track(keys);
  std::uint32_t c = 0;
  CameraState s = sample_camera(t, 1.0, c);
  EXPECT_NEAR(s.distance, -10 - 80 * 0.875f, 1e-4);
  EXPECT_NEAR(s.target[0], 1.0f, 1e-5);
  EXPECT_NEAR(s.target[1], 2.0f, 1e-5);
  EXPECT_NEAR(s.fov_degrees, 25.0f, 1e-5);
}

TEST(Light, LinearBetweenKeys) {
  std::vector<vmd::LightKey> keys = {{10, {1, 1, 1}, {0, -1, 0}}, {0, {0, 0, 0}, {1, 0, 0}}};
  auto t = build_light_track(keys);
  std::uint32_t c = 0;
  LightState s = sample_light(t, 2.5, c);
  expect_vec(s.color, {0.25f, 0.25f, 0.25f}, 1e-6f);
  expect_vec(s.direction, {0.75f, -0.25f, 0}, 1e-6f);
  s = sample_light({}, 2.5, c);
  EXPECT_EQ(s.color[0], 0.6015625f);
  EXPECT_EQ(s.direction[1], -1.0f);
}

TEST(SelfShadow, Steps) {
  std::vector<vmd::SelfShadowKey> keys = {{0, 1, 0.01f}, {10, 0, 0.05f}, {10, 2, 0.02f}};
  auto t = build_self_shadow_track(keys);
  ASSERT_EQ(t.size(), 2u);
  std::uint32_t c = 0;
  EXPECT_EQ(sample_self_shadow(t, 9.99, c).mode, 1);
  EXPECT_EQ(sample_self_shadow(t, 9.99, c).distance, 0.01f);
  EXPECT_EQ(sample_self_shadow(t, 10.0, c).mode, 2);  // last duplicate at frame 10
  EXPECT_EQ(sample_self_shadow(t, 50.0, c).distance, 0.02f);
  EXPECT_EQ(sample_self_shadow({}, 1.0, c).mode, 1);
}

}  // namespace
}  // namespace mmdkit::anim
