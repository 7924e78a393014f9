// Which IK chains build_skeleton gathers into groups solved together (IkGroup, skeleton.hpp): only
// chains with local paths that share no bone one writes and the other reads, with every bone step
// scheduled between them independent of both. (That a group gives the floats of the schedule is
// checked bit for bit by eval_reference_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mmdkit/anim/skeleton.hpp"

namespace mmdkit::anim {
namespace {

BoneDesc bone(const char* name, Vec3 pos, std::int32_t parent = kNoBone) {
  BoneDesc b;
  b.name = name;
  b.name_bytes.assign(name, name + std::char_traits<char>::length(name));
  b.position = pos;
  b.parent = parent;
  return b;
}

BoneDesc ik_bone(const char* name, Vec3 pos, std::int32_t parent, std::int32_t effector, std::vector<std::int32_t> links,
                 std::int32_t file_order) {
  BoneDesc b = bone(name, pos, parent);
  b.ik_effector = effector;
  b.ik_iterations = 40;
  b.ik_unit_angle = 0.5f;
  b.ik_file_order = file_order;
  for (std::int32_t l : links) b.ik_links.push_back(IkLinkDesc{l, false, {}, {}});
  return b;
}

// 0 root; 1..3 left hip, knee, ankle; 4..6 right hip, knee, ankle.
std::vector<BoneDesc> legs() {
  return {bone("root", {0, 0, 0}),         bone("hipL", {1, 2, 0}, 0),  bone("kneeL", {1, 1, 0}, 1),
          bone("ankleL", {1, 0, 0}, 2),    bone("hipR", {-1, 2, 0}, 0), bone("kneeR", {-1, 1, 0}, 4),
          bone("ankleR", {-1, 0, 0}, 5)};
}

std::vector<std::uint32_t> members(const IkGroup& g) { return {g.solvers, g.solvers + g.count}; }

std::size_t group_steps(std::span<const ScheduleStep> plan) {
  std::size_t n = 0;
  for (const ScheduleStep& st : plan) n += st.kind == ScheduleStep::ik_group;
  return n;
}

TEST(IkGroup, DisjointLegsAreSolvedTogether) {
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->ik_groups().size(), 1u);
  EXPECT_EQ(members(s->ik_groups()[0]), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(s->solvers()[0].local_path);
  // The schedule keeps both IK steps; the plan runs the group instead, after every bone.
  std::size_t ik_steps = 0;
  for (const ScheduleStep& st : s->schedule_before_physics()) ik_steps += st.kind == ScheduleStep::ik;
  EXPECT_EQ(ik_steps, 2u);
  const auto plan = s->plan_before_physics();
  ASSERT_EQ(plan.size(), s->bone_count() + 1);
  EXPECT_EQ(plan.back().kind, ScheduleStep::ik_group);
  EXPECT_EQ(group_steps(s->schedule_before_physics()), 0u);
}

TEST(IkGroup, ChainsSharingABoneAreNotPaired) {
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikKnee", {1, 1, 0.5f}, 0, 2, {1}, 1));  // the left hip again
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->ik_groups().empty());
  EXPECT_EQ(group_steps(s->plan_before_physics()), 0u);
  EXPECT_EQ(s->plan_before_physics().size(), s->schedule_before_physics().size());
}

TEST(IkGroup, AChainReadingAnotherChainsBoneStartsANewGroup) {
  // Toe chains link the ankles, which the leg chains write: legs together, then toes together.
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones.push_back(bone("toeL", {1, 0, -1}, 3));   // 7
  d.bones.push_back(bone("toeR", {-1, 0, -1}, 6));  // 8
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  d.bones.push_back(ik_bone("toeIkL", {1, 0, -1.5f}, 9, 7, {3}, 2));
  d.bones.push_back(ik_bone("toeIkR", {-1, 0, -1.5f}, 10, 8, {6}, 3));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  ASSERT_EQ(s->ik_groups().size(), 2u);
  EXPECT_EQ(members(s->ik_groups()[0]), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(members(s->ik_groups()[1]), (std::vector<std::uint32_t>{2, 3}));
}

TEST(IkGroup, AChainFollowingAnotherChainsBoneIsNotPaired) {
  // The right leg's hip hangs below the left ankle: it reads what the left chain writes.
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones[4].parent = 3;
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->ik_groups().empty());
}

TEST(IkGroup, AGoalBelowTheOtherChainIsNotPaired) {
  // The left IK bone hangs below the right knee: the right solve refreshes it, the left reads it.
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 5, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->ik_groups().empty());
}

TEST(IkGroup, AnAppendBoneOnThePathKeepsTheChainAlone) {
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones[5].append_rotation = true;  // the right knee follows the root
  d.bones[5].append_source = 0;
  d.bones[5].append_ratio = 0.5f;
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->solvers()[0].local_path);
  EXPECT_FALSE(s->solvers()[1].local_path);
  EXPECT_TRUE(s->ik_groups().empty());
}

// PMX: each chain is solved right after its IK bone, so bone steps lie between the two solves.
// 7 ikL, 8 x (the bone between), 9 ikR.
Result<Skeleton> pmx_legs_with(BoneDesc x) {
  SkeletonDesc d{OrderRule::pmx, legs()};
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, -1));
  d.bones.push_back(std::move(x));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, -1));
  return build_skeleton(d);
}

TEST(IkGroup, PmxBoneStepsBetweenMoveAheadOnlyWhenIndependent) {
  {  // x under the root: independent of both chains; it runs before the group.
    auto s = pmx_legs_with(bone("x", {0, 3, 0}, 0));
    ASSERT_TRUE(s);
    ASSERT_EQ(s->ik_groups().size(), 1u);
    const auto plan = s->plan_before_physics();
    ASSERT_EQ(plan.size(), 11u);  // 10 bones + the group
    for (std::size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(plan[i].kind, ScheduleStep::bone);
      EXPECT_EQ(plan[i].index, i);
    }
    EXPECT_EQ(plan[10].kind, ScheduleStep::ik_group);
  }
  {  // x under the left ankle (which the left chain writes): evaluated after the left solve.
    auto s = pmx_legs_with(bone("x", {1, -1, 0}, 3));
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->ik_groups().empty());
    EXPECT_EQ(s->plan_before_physics().size(), s->schedule_before_physics().size());
  }
  {  // x appends from the left knee: the same.
    BoneDesc x = bone("x", {0, 3, 0}, 0);
    x.append_rotation = true;
    x.append_source = 2;
    x.append_ratio = 1.0f;
    auto s = pmx_legs_with(x);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->ik_groups().empty());
  }
  {  // The right IK bone (its goal) hangs below the left ankle: its bone step, between the two
     // solves, reads what the left chain writes.
    SkeletonDesc d{OrderRule::pmx, legs()};
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, -1));
    d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 3, 6, {5, 4}, -1));
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->ik_groups().empty());
  }
}

// IkSolver::path_prepared: the start of a solve skips re-evaluating a path the plan already left
// as it would make it (the values are checked bit for bit by eval_reference_test.cpp, which fails
// when the rule below is too generous).
TEST(IkPathPrepared, PathsEvaluatedJustBeforeTheSolveArePrepared) {
  SkeletonDesc d{OrderRule::pmd, legs()};
  d.bones.push_back(bone("toeL", {1, 0, -1}, 3));   // 7
  d.bones.push_back(bone("toeR", {-1, 0, -1}, 6));  // 8
  d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
  d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
  d.bones.push_back(ik_bone("toeIkL", {1, 0, -1.5f}, 9, 7, {3}, 2));
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->solvers()[0].path_prepared);
  EXPECT_TRUE(s->solvers()[1].path_prepared);
  EXPECT_FALSE(s->solvers()[2].path_prepared);  // its link, the left ankle, was moved by the left leg's solve
}

TEST(IkPathPrepared, AnEarlierSolveOnTheSameBonesOrTheirParentsIsNot) {
  {  // a second chain on the left hip, which the first chain turned
    SkeletonDesc d{OrderRule::pmd, legs()};
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
    d.bones.push_back(ik_bone("ikKnee", {1, 1, 0.5f}, 0, 2, {1}, 1));
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->solvers()[0].path_prepared);
    EXPECT_FALSE(s->solvers()[1].path_prepared);
  }
  {  // the right hip hangs below the left ankle
    SkeletonDesc d{OrderRule::pmd, legs()};
    d.bones[4].parent = 3;
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
    d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->solvers()[0].path_prepared);
    EXPECT_FALSE(s->solvers()[1].path_prepared);
  }
  {  // the right knee appends from the left knee
    SkeletonDesc d{OrderRule::pmd, legs()};
    d.bones[5].append_rotation = true;
    d.bones[5].append_source = 2;
    d.bones[5].append_ratio = 0.5f;
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, 0));
    d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, 1));
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->solvers()[1].path_prepared);
  }
}

TEST(IkPathPrepared, ABoneEvaluatedBeforeItsParentOrAfterPhysicsIsNot) {
  {  // PMX layers: the left knee (layer 0) before its hip (layer 1): the knee saw an identity hip
    SkeletonDesc d{OrderRule::pmx, legs()};
    for (BoneDesc& b : d.bones) b.deform_layer = 1;
    d.bones[2].deform_layer = 0;
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, -1));
    d.bones.back().deform_layer = 1;
    d.bones.push_back(ik_bone("ikR", {-1, 0, 0.5f}, 0, 6, {5, 4}, -1));
    d.bones.back().deform_layer = 1;
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->solvers()[0].path_prepared);
    EXPECT_TRUE(s->solvers()[1].path_prepared);
  }
  {  // after physics: the physics stage may have moved the path
    SkeletonDesc d{OrderRule::pmx, legs()};
    for (BoneDesc& b : d.bones) b.after_physics = true;
    d.bones.push_back(ik_bone("ikL", {1, 0, 0.5f}, 0, 3, {2, 1}, -1));
    d.bones.back().after_physics = true;
    auto s = build_skeleton(d);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->solvers()[0].path_prepared);
  }
}

}  // namespace
}  // namespace mmdkit::anim
