// CCD IK with analytic checks: reachable goals, knee limit, IK off by property key, append from an
// IK link.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

BoneDesc bone(const char* name, Vec3 pos, std::int32_t parent = kNoBone) {
  BoneDesc b;
  b.name = name;
  b.name_bytes.assign(name, name + std::char_traits<char>::length(name));
  b.position = pos;
  b.parent = parent;
  return b;
}

float dist(const Vec3& a, const Vec3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// leg: 0 hip (0,10,0) → 1 knee (0,5,−0.2) → 2 ankle (0,0,0); 3 IK bone at (0,0,0) (root);
// links knee, hip. Both segments √25.04 long; the knee is slightly forward at rest, as in real
// models (a perfectly straight chain with the goal on its line gives CCD no rotation axis).
SkeletonDesc leg(bool knee_limit, std::uint32_t iterations = 40, float unit = 2.0f) {
  SkeletonDesc d;
  d.bones = {bone("hip", {0, 10, 0}), bone("knee", {0, 5, -0.2f}, 0), bone("ankle", {0, 0, 0}, 1), bone("legIK", {0, 0, 0})};
  BoneDesc& ik = d.bones[3];
  ik.ik_effector = 2;
  ik.ik_iterations = iterations;
  ik.ik_unit_angle = unit;
  IkLinkDesc k{1, false, {}, {}};
  if (knee_limit) {
    k.has_limits = true;
    k.lower = {-kPi, 0, 0};
    k.upper = {-0.5f * kPi / 180.0f, 0, 0};
  }
  ik.ik_links = {k, IkLinkDesc{0, false, {}, {}}};
  return d;
}

TEST(Ik, TwoLinkChainReachesAReachableGoal) {
  const Skeleton s = *build_skeleton(leg(false));
  PoseWorkspace ws(s);
  std::vector<BonePose> local(4);
  const Vec3 goal{2, 3, -1.5f};  // |goal − hip| = sqrt(4 + 49 + 2.25) < 2·√25.04
  local[3].translation = goal;
  evaluate(s, {local, {}, {}}, ws);
  const auto p = ws.model_positions();
  EXPECT_LT(dist(p[2], goal), 1e-3f);
  // Rigid: segment lengths are kept; the hip does not move.
  const float len = std::sqrt(25.04f);
  EXPECT_NEAR(dist(p[0], p[1]), len, 1e-4f);
  EXPECT_NEAR(dist(p[1], p[2]), len, 1e-4f);
  EXPECT_NEAR(dist(p[0], {0, 10, 0}), 0.0f, 1e-6f);
  EXPECT_NE(ws.ik_rotations()[1], kIdentityQuat);
}

TEST(Ik, GoalOnTheEffectorDoesNothing) {
  const Skeleton s = *build_skeleton(leg(false));
  PoseWorkspace ws(s);
  evaluate(s, {}, ws);
  EXPECT_EQ(ws.ik_rotations()[0], kIdentityQuat);
  EXPECT_EQ(ws.ik_rotations()[1], kIdentityQuat);
}

TEST(Ik, KneeLimitKeepsTheBendDirection) {
  // Goal straight below the hip, 6 units away: the knee must bend, and only about X with a
  // negative angle (the shin swings back to +Z, MMD's knee direction; model faces −Z).
  const Skeleton s = *build_skeleton(leg(true));
  PoseWorkspace ws(s);
  std::vector<BonePose> local(4);
  local[3].translation = {0, 4, 0};
  evaluate(s, {local, {}, {}}, ws);
  const Quat knee = ws.local_rotations()[1];
  EXPECT_NEAR(knee[1], 0.0f, 1e-5f);
  EXPECT_NEAR(knee[2], 0.0f, 1e-5f);
  const float angle = 2.0f * std::atan2(knee[0], knee[3]);
  EXPECT_LT(angle, -0.5f * kPi / 180.0f + 1e-6f);
  EXPECT_GT(angle, -kPi);
  // The knee turns by (rest angle between the segments) − (angle the law of cosines gives for a
  // hip–ankle distance of 6): cos θ1 = (2L² − 36) / (2L²), L² = 25.04; cos θ0 = (−25 + 0.04) / 25.04.
  const float theta0 = std::acos((-25.0f + 0.04f) / 25.04f);
  const float theta1 = std::acos((2.0f * 25.04f - 36.0f) / (2.0f * 25.04f));
  EXPECT_NEAR(std::fabs(angle), theta0 - theta1, 2e-3f);
  EXPECT_LT(dist(ws.model_positions()[2], {0, 4, 0}), 1e-2f);
  // The ankle swings back (+Z) relative to the knee, so the knee itself goes forward (−Z).
  EXPECT_LT(ws.model_positions()[1][2], 0.0f);
}

TEST(Ik, StretchedKneeStaysAtTheMinimumBend) {
  // Goal out of reach straight below: the knee is held at the −0.5° limit (not straight, not the
  // 28.6° babylon-mmd's degree/radian mix-up gives on PMD models).
  const Skeleton s = *build_skeleton(leg(true));
  PoseWorkspace ws(s);
  std::vector<BonePose> local(4);
  local[3].translation = {0, -5, 0};
  evaluate(s, {local, {}, {}}, ws);
  const Quat knee = ws.local_rotations()[1];
  const float angle = 2.0f * std::atan2(knee[0], knee[3]);
  EXPECT_NEAR(angle, -0.5f * kPi / 180.0f, 1e-4f);
}

TEST(Ik, DisabledSolverLeavesTheChainAlone) {
  const Skeleton s = *build_skeleton(leg(false));
  PoseWorkspace ws(s);
  std::vector<BonePose> local(4);
  local[3].translation = {2, 3, -1.5f};
  const std::uint8_t off[] = {0};
  evaluate(s, {local, {}, off}, ws);
  EXPECT_LT(dist(ws.model_positions()[2], {0, 0, 0}), 1e-6f);
}

vmd::Motion motion_with_ik_switch() {
  vmd::Motion m;
  vmd::TrackName n;
  n.raw = {'l', 'e', 'g', 'I', 'K'};
  m.bone_names = {n};
  vmd::BoneKey k;
  k.name = 0;
  k.frame = 0;
  k.position = {2, 3, -1.5f};
  k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                   vmd::kLinearCurve);
  m.bone_keys = {k};
  vmd::IkState off;
  off.name.raw = {'l', 'e', 'g', 'I', 'K', 0, 0x41};  // bytes after the NUL are ignored
  off.enabled = 0;
  vmd::IkState on = off;
  on.enabled = 1;
  m.property_keys = {vmd::PropertyKey{5, 1, {off}}, vmd::PropertyKey{10, 1, {on}}};
  return m;
}

TEST(Ik, PropertyKeysSwitchIkOffAndOn) {
  const Skeleton s = *build_skeleton(leg(false));
  const vmd::Motion m = motion_with_ik_switch();
  const vmd::Motion* list[] = {&m};
  auto sampler = MotionSampler::create(s, list);
  ASSERT_TRUE(sampler) << sampler.error().to_string();
  PoseWorkspace ws(s);
  std::vector<BonePose> local(4);
  std::vector<std::uint8_t> ik(1);
  const Vec3 goal{2, 3, -1.5f};
  // Before the first property key its state holds (off); off until frame 10; on from 10.
  for (double f : {0.0, 5.0, 9.5}) {
    sampler->sample(f, local, ik);
    EXPECT_EQ(ik[0], 0) << f;
    evaluate(s, {local, {}, ik}, ws);
    EXPECT_LT(dist(ws.model_positions()[2], {0, 0, 0}), 1e-6f) << f;
  }
  sampler->sample(10.0, local, ik);
  EXPECT_EQ(ik[0], 1);
  evaluate(s, {local, {}, ik}, ws);
  EXPECT_LT(dist(ws.model_positions()[2], goal), 1e-3f);
}

TEST(Ik, AppendFromAnIkLinkIncludesItsIkRotation) {
  // A bone appending (ratio 1) from the knee rotates with the knee's IK rotation, and bones below
  // the chain evaluated before the IK bone follow the solved chain.
  SkeletonDesc d = leg(false);
  BoneDesc f = bone("follow", {5, 0, 0});
  f.append_source = 1;
  f.append_ratio = 1.0f;
  f.append_rotation = true;
  f.deform_layer = 1;  // after the IK bone
  d.bones.push_back(f);
  d.bones.push_back(bone("toe", {0, 0, -1}, 2));  // child of the effector, evaluated before the IK bone
  const Skeleton s = *build_skeleton(d);
  PoseWorkspace ws(s);
  std::vector<BonePose> local(6);
  local[3].translation = {2, 3, -1.5f};
  evaluate(s, {local, {}, {}}, ws);
  EXPECT_NEAR(quat_angle_between(ws.model_rotations()[4], ws.local_rotations()[1]), 0.0f, 1e-5f);
  const Vec3 toe = ws.model_positions()[5];
  const Vec3 ankle = ws.model_positions()[2];
  const Vec3 off = quat_rotate(ws.model_rotations()[2], {0, 0, -1});
  EXPECT_LT(dist(toe, {ankle[0] + off[0], ankle[1] + off[1], ankle[2] + off[2]}), 1e-5f);
}

}  // namespace
}  // namespace mmdkit::anim
