// Skeleton building (order, schedule, validation) and forward kinematics with analytic results.
#include <gtest/gtest.h>

#include <limits>

#include <cmath>
#include <numbers>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/anim/vpd_binding.hpp"
#include "mmdkit/formats/vpd.hpp"

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

void expect_vec(const Vec3& got, const Vec3& want, float tol = 1e-5f) {
  EXPECT_NEAR(got[0], want[0], tol);
  EXPECT_NEAR(got[1], want[1], tol);
  EXPECT_NEAR(got[2], want[2], tol);
}

TEST(Skeleton, PmxOrderIsStableByAfterPhysicsThenLayerThenIndex) {
  SkeletonDesc d;
  d.bones = {bone("a", {}), bone("b", {}), bone("c", {}), bone("d", {}), bone("e", {})};
  d.bones[0].deform_layer = 1;
  d.bones[1].after_physics = true;
  d.bones[2].deform_layer = 0;
  d.bones[3].deform_layer = 1;
  d.bones[4].deform_layer = -1;
  auto s = build_skeleton(d);
  ASSERT_TRUE(s) << s.error().to_string();
  // (after, layer, index): e(0,-1,4) c(0,0,2) a(0,1,0) d(0,1,3) | b(1,0,1)
  const std::vector<std::uint32_t> want{4, 2, 0, 3, 1};
  EXPECT_EQ(std::vector<std::uint32_t>(s->order().begin(), s->order().end()), want);
  ASSERT_EQ(s->schedule_before_physics().size(), 4u);
  ASSERT_EQ(s->schedule_after_physics().size(), 1u);
  EXPECT_EQ(s->schedule_after_physics()[0].index, 1u);
}

TEST(Skeleton, PmdOrderPutsParentsFirst) {
  SkeletonDesc d;
  d.rule = OrderRule::pmd;
  d.bones = {bone("a", {}, 2), bone("b", {}), bone("c", {}, 1)};  // a's parent c comes later
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  const std::vector<std::uint32_t> want{1, 2, 0};
  EXPECT_EQ(std::vector<std::uint32_t>(s->order().begin(), s->order().end()), want);
}

TEST(Skeleton, RejectsBadIndicesAndLoops) {
  SkeletonDesc d;
  d.bones = {bone("a", {}, 5)};
  auto s = build_skeleton(d);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().section, "bones");
  EXPECT_EQ(s.error().record, 0);

  SkeletonDesc loop;
  loop.bones = {bone("a", {}, 1), bone("b", {}, 0)};
  auto l = build_skeleton(loop);
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().message.find("loops"), std::string::npos);

  SkeletonDesc app;
  app.bones = {bone("a", {})};
  app.bones[0].append_rotation = true;
  app.bones[0].append_source = 0;  // itself
  EXPECT_FALSE(build_skeleton(app));

  SkeletonDesc ik;
  ik.bones = {bone("a", {})};
  ik.bones[0].ik_effector = 0;
  ik.bones[0].ik_links = {IkLinkDesc{7, false, {}, {}}};
  auto e = build_skeleton(ik);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("IK link 0"), std::string::npos);
}

// A user's test: a PMD with a bone at position inf posed without an error, giving "inf" in the
// sample output. NaN / infinity in a bind position, fixed axis or IK data is now refused with the
// bone's record.
TEST(Skeleton, NonFiniteBoneDataIsRefusedWithTheRecord) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto refused = [](SkeletonDesc d, std::int64_t record, const char* what) {
    auto s = build_skeleton(std::move(d));
    ASSERT_FALSE(s) << what;
    EXPECT_EQ(s.error().code, ErrorCode::invalid_value) << what;
    EXPECT_EQ(s.error().section, "bones") << what;
    EXPECT_EQ(s.error().record, record) << what;
    EXPECT_NE(s.error().message.find("not finite"), std::string::npos) << s.error().message;
  };
  SkeletonDesc pos;
  pos.bones = {bone("a", {}), bone("b", {0, inf, 0}, 0)};
  refused(pos, 1, "position");
  SkeletonDesc axis;
  axis.bones = {bone("a", {})};
  axis.bones[0].has_fixed_axis = true;
  axis.bones[0].fixed_axis = {nan, 0, 1};
  refused(axis, 0, "fixed axis");
  SkeletonDesc unit;
  unit.bones = {bone("a", {}), bone("b", {}, 0), bone("ik", {})};
  unit.bones[2].ik_effector = 1;
  unit.bones[2].ik_links = {IkLinkDesc{0, false, {}, {}}};
  unit.bones[2].ik_unit_angle = nan;
  refused(unit, 2, "unit angle");
  SkeletonDesc limit = unit;
  limit.bones[2].ik_unit_angle = 0.5f;
  limit.bones[2].ik_links = {IkLinkDesc{0, true, {-1, 0, 0}, {inf, 0, 0}}};
  refused(limit, 2, "link limit");
  // The same model with finite values builds (the checks above are not refusing everything).
  limit.bones[2].ik_links = {IkLinkDesc{0, true, {-1, 0, 0}, {1, 0, 0}}};
  EXPECT_TRUE(build_skeleton(limit));
}

TEST(Skeleton, DeepChainsBuildAndPathologicalIkIsRefused) {
  // 100,000 bones in one chain: depths are memoized (no quadratic walk), evaluation is linear.
  SkeletonDesc deep;
  deep.bones.resize(100000);
  for (std::size_t i = 1; i < deep.bones.size(); ++i) {
    deep.bones[i].parent = static_cast<std::int32_t>(i - 1);
    deep.bones[i].position = {0, static_cast<float>(i), 0};
  }
  auto s = build_skeleton(deep);
  ASSERT_TRUE(s);
  PoseWorkspace ws(*s);
  evaluate(*s, {}, ws);
  EXPECT_EQ(ws.model_positions()[99999][1], 99999.0f);

  // 20,000 IK bones on 20,000 bones, each linking the root: preparing would cost 4e8 steps.
  SkeletonDesc ik;
  ik.bones.resize(20000);
  for (std::size_t i = 1; i < ik.bones.size(); ++i) {
    ik.bones[i].parent = 0;
    ik.bones[i].ik_effector = 0;
    ik.bones[i].ik_links = {IkLinkDesc{0, false, {}, {}}};
  }
  auto e = build_skeleton(ik);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, ErrorCode::limit_exceeded);
}

// Three bones in a line up the Y axis; root at (0,0,0), then (0,1,0), then (0,2,0).
Skeleton chain3() {
  SkeletonDesc d;
  d.bones = {bone("a", {0, 0, 0}), bone("b", {0, 1, 0}, 0), bone("c", {0, 2, 0}, 1)};
  return *build_skeleton(d);
}

TEST(Pose, RestPoseGivesBindPositionsAndIdentitySkinning) {
  const Skeleton s = chain3();
  PoseWorkspace ws(s);
  evaluate(s, {}, ws);
  expect_vec(ws.model_positions()[2], {0, 2, 0});
  for (const Mat4& m : ws.skinning_matrices())
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(m[i], (i % 5 == 0) ? 1.0f : 0.0f, 1e-6f);
}

TEST(Pose, ForwardKinematicsWithKnownRotations) {
  const Skeleton s = chain3();
  PoseWorkspace ws(s);
  std::vector<BonePose> local(3);
  // a: 90° about Z and moved by (1,2,3); b: 90° about X.
  local[0].rotation = quat_from_axis_angle({0, 0, 1}, kPi / 2);
  local[0].translation = {1, 2, 3};
  local[1].rotation = quat_from_axis_angle({1, 0, 0}, kPi / 2);
  evaluate(s, {local, {}, {}}, ws);
  // b = t + Rz(90)(0,1,0) = (1,2,3) + (-1,0,0)
  expect_vec(ws.model_positions()[1], {0, 2, 3});
  // c = b + Rz(90)·Rx(90)(0,1,0) = b + Rz(90)(0,0,1) = b + (0,0,1)
  expect_vec(ws.model_positions()[2], {0, 2, 4});
  // Matrix columns: c's X axis = Rz(90)Rx(90)(1,0,0) = (0,1,0); translation at 12..14.
  const Mat4& m = ws.model_matrices()[2];
  expect_vec({m[0], m[1], m[2]}, {0, 1, 0});
  expect_vec({m[12], m[13], m[14]}, {0, 2, 4});
  // Skinning matrix moves the bind head onto the posed head.
  const Mat4& k = ws.skinning_matrices()[2];
  const Vec3 bind{0, 2, 0};
  const Vec3 moved{k[0] * bind[0] + k[4] * bind[1] + k[8] * bind[2] + k[12],
                   k[1] * bind[0] + k[5] * bind[1] + k[9] * bind[2] + k[13],
                   k[2] * bind[0] + k[6] * bind[1] + k[10] * bind[2] + k[14]};
  expect_vec(moved, {0, 2, 4});
}

TEST(Pose, BoneSortedBeforeItsParentSeesIdentityParent) {
  // babylon-mmd resets model transforms each frame; a child in an earlier layer than its parent
  // is evaluated against the identity.
  SkeletonDesc d;
  d.bones = {bone("p", {0, 1, 0}), bone("c", {0, 3, 0}, 0)};
  d.bones[0].deform_layer = 1;
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  PoseWorkspace ws(*s);
  std::vector<BonePose> local(2);
  local[0].translation = {5, 0, 0};
  evaluate(*s, {local, {}, {}}, ws);
  expect_vec(ws.model_positions()[1], {0, 2, 0});  // bind offset only
  expect_vec(ws.model_positions()[0], {5, 1, 0});
}

TEST(Pose, MorphOffsetsAddTranslationAndComposeRotation) {
  const Skeleton s = chain3();
  PoseWorkspace ws(s);
  std::vector<BonePose> local(3);
  local[0].translation = {1, 0, 0};
  local[0].rotation = quat_from_axis_angle({0, 1, 0}, kPi / 4);
  std::vector<BoneMorphOffset> morph(3);
  morph[0].translation = {0, 0, 2};
  morph[0].rotation = quat_from_axis_angle({0, 1, 0}, kPi / 4);
  evaluate(s, {local, morph, {}}, ws);
  expect_vec(ws.model_positions()[0], {1, 0, 2});
  EXPECT_NEAR(quat_angle_between(ws.model_rotations()[0], quat_from_axis_angle({0, 1, 0}, kPi / 2)), 0.0f, 1e-5f);
}

TEST(Pose, FixedAxisProjectsKeyRotation) {
  SkeletonDesc d;
  d.bones = {bone("t", {})};
  d.bones[0].has_fixed_axis = true;
  d.bones[0].fixed_axis = {0, 0, -2};  // not unit length
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  PoseWorkspace ws(*s);
  std::vector<BonePose> local(1);
  // 0.4 rad about (1,0,1)/√2: the whole angle goes onto the fixed axis, signed by the side of the
  // key's axis: (1,0,1)·(0,0,−1) < 0, so −0.4 about −Z = 0.4 about +Z (babylon-mmd's rule).
  const float h = std::sqrt(0.5f);
  local[0].rotation = quat_from_axis_angle({h, 0, h}, 0.4f);
  evaluate(*s, {local, {}, {}}, ws);
  EXPECT_NEAR(quat_angle_between(ws.model_rotations()[0], quat_from_axis_angle({0, 0, 1}, 0.4f)), 0.0f, 1e-5f);
}

TEST(Pose, WorkspaceOfAnotherSkeletonIsRefusedAndLeftAlone) {
  const Skeleton s = chain3();
  SkeletonDesc d;
  d.bones = {bone("x", {0, 7, 0})};
  const Skeleton other = *build_skeleton(d);
  PoseWorkspace ws(other);
  auto r = evaluate(s, {}, ws);  // size mismatch: an error, no write, no crash
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(r.error().section, "pose workspace");
  expect_vec(ws.model_positions()[0], {0, 0, 0});
}

TEST(Pose, VpdPoseMatchesBonesByNameBytes) {
  const Skeleton s = chain3();
  vpd::Pose pose;
  pose.bones.resize(3);
  vpd::Bone& b = pose.bones[0];
  b.name.raw.push_back('b');
  b.translation = {1, 2, 3};
  b.rotation = {0, 0, 2, 0};  // unnormalized: 180° about Z
  vpd::Bone& z = pose.bones[1];
  z.name.raw.push_back('z');
  z.name.raw.push_back('z');
  vpd::Bone& t = pose.bones[2];  // text only (no raw bytes): encoded in the pose's encoding
  t.name.text = "c";
  t.rotation = {0, 0, 0, 1};
  t.translation = {0, 0, 5};
  std::vector<std::size_t> unmatched;
  const auto local = pose_from_vpd(s, pose, &unmatched);
  ASSERT_EQ(local.size(), 3u);
  EXPECT_EQ(local[1].translation, (Vec3{1, 2, 3}));
  EXPECT_EQ(local[1].rotation, (Quat{0, 0, 1, 0}));
  EXPECT_EQ(local[2].translation, (Vec3{0, 0, 5}));
  EXPECT_EQ(local[0].rotation, kIdentityQuat);
  EXPECT_EQ(unmatched, (std::vector<std::size_t>{1}));
  PoseWorkspace ws(s);
  evaluate(s, {local, {}, {}}, ws);
  // b at (0,1,0)+(1,2,3); c = b + Rz(180)·((0,1,0) + (0,0,5)) = (1,3,3) + (0,−1,5)
  expect_vec(ws.model_positions()[1], {1, 3, 3});
  expect_vec(ws.model_positions()[2], {1, 2, 8});
}

}  // namespace
}  // namespace mmdkit::anim
