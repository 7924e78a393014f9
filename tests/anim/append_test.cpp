// Append (付与) rules with analytic results: ratios 0.5 and −1, chains, local, translation.
#include <gtest/gtest.h>

#include <numbers>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"

namespace mmdkit::anim {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

BoneDesc bone(const char* name, Vec3 pos, std::int32_t parent = kNoBone) {
  BoneDesc b;
  b.name = name;
  b.position = pos;
  b.parent = parent;
  return b;
}

BoneDesc appender(const char* name, Vec3 pos, std::int32_t source, float ratio, bool rot, bool trans,
                  bool local = false) {
  BoneDesc b = bone(name, pos);
  b.append_source = source;
  b.append_ratio = ratio;
  b.append_rotation = rot;
  b.append_translation = trans;
  b.append_local = local;
  return b;
}

float angle_to(const Quat& q, const Vec3& axis, float angle) {
  return quat_angle_between(q, quat_from_axis_angle(axis, angle));
}

struct Fixture {
  Skeleton s;
  PoseWorkspace ws;
  std::vector<BonePose> local;
  explicit Fixture(SkeletonDesc d) : s(*build_skeleton(std::move(d))), ws(s), local(s.bone_count()) {}
  void run() { evaluate(s, {local, {}, {}}, ws); }
};

TEST(Append, RotationRatioHalfAndMinusOne) {
  SkeletonDesc d;
  d.bones = {bone("src", {}), appender("half", {1, 0, 0}, 0, 0.5f, true, false),
             appender("neg", {2, 0, 0}, 0, -1.0f, true, false)};
  Fixture f(d);
  f.local[0].rotation = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  f.run();
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[1], {0, 1, 0}, kPi / 4), 0.0f, 1e-5f);
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[2], {0, 1, 0}, -kPi / 2), 0.0f, 1e-5f);
}

TEST(Append, OwnKeyComesFirstThenAppend) {
  // rotation = own · slerp(I, source, ratio): own 90° about X, source 90° about Y, ratio 1.
  SkeletonDesc d;
  d.bones = {bone("src", {}), appender("b", {}, 0, 1.0f, true, false)};
  Fixture f(d);
  f.local[0].rotation = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  f.local[1].rotation = quat_from_axis_angle({1, 0, 0}, kPi / 2);
  f.run();
  const Quat want = quat_multiply(quat_from_axis_angle({1, 0, 0}, kPi / 2), quat_from_axis_angle({0, 1, 0}, kPi / 2));
  EXPECT_NEAR(quat_angle_between(f.ws.model_rotations()[1], want), 0.0f, 1e-5f);
}

TEST(Append, ChainedAppendUsesTheSourcesAppendResult) {
  // src 90° → mid (0.5) 45° → end (0.5 of mid's result) 22.5°.
  SkeletonDesc d;
  d.bones = {bone("src", {}), appender("mid", {}, 0, 0.5f, true, false), appender("end", {}, 1, 0.5f, true, false)};
  Fixture f(d);
  f.local[0].rotation = quat_from_axis_angle({0, 0, 1}, kPi / 2);
  f.run();
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[2], {0, 0, 1}, kPi / 8), 0.0f, 1e-5f);
}

TEST(Append, TranslationScaledByRatio) {
  SkeletonDesc d;
  d.bones = {bone("src", {0, 1, 0}), appender("t", {3, 0, 0}, 0, 0.5f, false, true),
             appender("n", {0, 0, 3}, 0, -1.0f, false, true)};
  Fixture f(d);
  f.local[0].translation = {2, 4, 6};
  f.local[1].translation = {0, 0, 1};  // own key adds
  f.run();
  const auto p = f.ws.model_positions();
  EXPECT_NEAR(p[1][0], 3 + 1, 1e-6f);
  EXPECT_NEAR(p[1][1], 0 + 2, 1e-6f);
  EXPECT_NEAR(p[1][2], 0 + 3 + 1, 1e-6f);
  EXPECT_NEAR(p[2][0], -2, 1e-6f);
  EXPECT_NEAR(p[2][1], -4, 1e-6f);
  EXPECT_NEAR(p[2][2], 3 - 6, 1e-6f);
}

TEST(Append, LocalUsesTheSourcesModelTransform) {
  // The source's parent turns 90° about Y; the source itself has no key. A plain append sees the
  // source's own (identity) rotation; a local append sees its model rotation (babylon-mmd).
  SkeletonDesc d;
  d.bones = {bone("parent", {0, 0, 0}), bone("src", {0, 1, 0}, 0), appender("plain", {5, 0, 0}, 1, 1.0f, true, true),
             appender("local", {6, 0, 0}, 1, 1.0f, true, true, true)};
  Fixture f(d);
  f.local[0].rotation = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  f.local[0].translation = {1, 0, 0};
  f.run();
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[2], {0, 1, 0}, 0), 0.0f, 1e-5f);
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[3], {0, 1, 0}, kPi / 2), 0.0f, 1e-5f);
  // Local translation = source model position − source bind position = (1,1,0) − (0,1,0).
  const auto p = f.ws.model_positions();
  EXPECT_NEAR(p[3][0], 7, 1e-5f);
  EXPECT_NEAR(p[3][1], 0, 1e-5f);
  EXPECT_NEAR(p[2][0], 5, 1e-5f);  // src has no own translation key
}

TEST(Append, SourceEvaluatedLaterGivesIdentityForChainedAppend) {
  // babylon-mmd resets append results each frame: a bone that appends from an appending bone
  // evaluated after it sees identity (order matters, as in MMD's layer system).
  SkeletonDesc d;
  d.bones = {bone("src", {}), appender("end", {}, 2, 1.0f, true, false), appender("mid", {}, 0, 1.0f, true, false)};
  d.bones[2].deform_layer = 1;  // mid after end
  Fixture f(d);
  f.local[0].rotation = quat_from_axis_angle({0, 0, 1}, kPi / 2);
  f.run();
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[1], {0, 0, 1}, 0), 0.0f, 1e-5f);
  EXPECT_NEAR(angle_to(f.ws.model_rotations()[2], {0, 0, 1}, kPi / 2), 0.0f, 1e-5f);
}

}  // namespace
}  // namespace mmdkit::anim
