// Quaternion helpers: normalize edge cases, slerp (shortest arc, opposite, 180°), rotate.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "mmdkit/core/math.hpp"

namespace mmdkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

Quat rot_z(float degrees) { return quat_from_axis_angle({0, 0, 1}, degrees * kPi / 180.0f); }

// Same rotation (q or −q) within tolerance.
void expect_same_rotation(const Quat& a, const Quat& b, float tol = 2e-6f) {
  EXPECT_LT(quat_angle_between(a, b), tol * 4) << a[0] << " " << a[1] << " " << a[2] << " " << a[3];
}

TEST(Quaternion, NormalizeZeroAndNonFiniteGiveIdentity) {
  EXPECT_EQ(quat_normalize({0, 0, 0, 0}), kIdentityQuat);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(quat_normalize({nan, 0, 0, 1}), kIdentityQuat);
  EXPECT_EQ(quat_normalize({std::numeric_limits<float>::infinity(), 0, 0, 1}), kIdentityQuat);
  EXPECT_EQ(quat_normalize({0, 0, 0, 2}), kIdentityQuat);
  Quat q = quat_normalize({1, 1, 1, 1});
  for (float c : q) EXPECT_FLOAT_EQ(c, 0.5f);
}

TEST(Quaternion, SlerpEndpointsAndMidpoint) {
  expect_same_rotation(quat_slerp(kIdentityQuat, rot_z(90), 0.0f), kIdentityQuat);
  expect_same_rotation(quat_slerp(kIdentityQuat, rot_z(90), 1.0f), rot_z(90));
  expect_same_rotation(quat_slerp(kIdentityQuat, rot_z(90), 0.5f), rot_z(45));
  expect_same_rotation(quat_slerp(kIdentityQuat, rot_z(90), 0.25f), rot_z(22.5f));
}

TEST(Quaternion, SlerpTakesTheShortestArc) {
  // 170° → −170° (= 190°): the short way passes through 180°, not through 0°.
  expect_same_rotation(quat_slerp(rot_z(170), rot_z(-170), 0.5f), rot_z(180));
  expect_same_rotation(quat_slerp(rot_z(170), rot_z(-170), 0.25f), rot_z(175));
}

TEST(Quaternion, SlerpOfOppositeQuaternionsStaysPut) {
  // q and −q are the same rotation: every blend is that rotation.
  Quat a = quat_normalize({0.1f, 0.7f, -0.2f, 0.6f});
  Quat b{-a[0], -a[1], -a[2], -a[3]};
  for (float t : {0.0f, 0.3f, 0.5f, 1.0f}) expect_same_rotation(quat_slerp(a, b, t), a);
}

TEST(Quaternion, SlerpHalfTurn) {
  // identity and a 180° turn are orthogonal quaternions (dot exactly 0): both arcs are equally
  // short; with dot = 0 b is not negated, so halfway is +90°.
  expect_same_rotation(quat_slerp(kIdentityQuat, {0, 0, 1, 0}, 0.5f), rot_z(90));
  // A computed 180° turn has w = cos(π/2) ≈ −4e-8 < 0: b is negated and the blend goes −90°.
  expect_same_rotation(quat_slerp(kIdentityQuat, rot_z(180), 0.5f), rot_z(-90));
}

TEST(Quaternion, SlerpNormalizesInputsAndHandlesNaN) {
  expect_same_rotation(quat_slerp({0, 0, 0, 5}, {0, 0, 0, 0}, 0.5f), kIdentityQuat);
  EXPECT_EQ(quat_slerp(rot_z(30), rot_z(60), std::numeric_limits<float>::quiet_NaN()), quat_normalize(rot_z(30)));
}

TEST(Quaternion, RotateAndMultiply) {
  Vec3 v = quat_rotate(rot_z(90), {1, 0, 0});
  EXPECT_NEAR(v[0], 0, 1e-6);
  EXPECT_NEAR(v[1], 1, 1e-6);
  EXPECT_NEAR(v[2], 0, 1e-6);
  expect_same_rotation(quat_multiply(rot_z(30), rot_z(60)), rot_z(90));
  expect_same_rotation(quat_multiply(rot_z(30), quat_conjugate(rot_z(30))), kIdentityQuat);
  // b then a: rotate x by 90° about Z (→ y), then 90° about X (y → z).
  Quat q = quat_multiply(quat_from_axis_angle({1, 0, 0}, kPi / 2), rot_z(90));
  Vec3 w = quat_rotate(q, {1, 0, 0});
  EXPECT_NEAR(w[0], 0, 1e-6);
  EXPECT_NEAR(w[1], 0, 1e-6);
  EXPECT_NEAR(w[2], 1, 1e-6);
}

}  // namespace
}  // namespace mmdkit
