// Evaluation allocates nothing per frame: this executable counts global operator new
// (support/counting_new.hpp), and frames of sampling + evaluation must not add to the count.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "support/counting_new.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/vmd.hpp"


namespace mmdkit::anim {
namespace {

TEST(PoseAllocation, SamplingAndEvaluationAllocateNothingPerFrame) {
  // Leg with IK + knee limit, an append bone and an after-physics bone.
  SkeletonDesc d;
  auto bone = [](const char* name, Vec3 pos, std::int32_t parent) {
    BoneDesc b;
    b.name = name;
    b.name_bytes.assign(name, name + std::char_traits<char>::length(name));
    b.position = pos;
    b.parent = parent;
    return b;
  };
  d.bones = {bone("hip", {0, 10, 0}, -1), bone("knee", {0, 5, 0}, 0), bone("ankle", {0, 0, 0}, 1),
             bone("legIK", {0, 0, 0}, -1), bone("follow", {1, 0, 0}, -1), bone("late", {0, 1, 0}, 0)};
  d.bones[3].ik_effector = 2;
  d.bones[3].ik_iterations = 40;
  d.bones[3].ik_unit_angle = 2.0f;
  d.bones[3].ik_links = {IkLinkDesc{1, true, {-3.14f, 0, 0}, {-0.01f, 0, 0}}, IkLinkDesc{0, false, {}, {}}};
  d.bones[4].append_source = 1;
  d.bones[4].append_ratio = -0.5f;
  d.bones[4].append_rotation = d.bones[4].append_translation = true;
  d.bones[5].after_physics = true;
  auto s = build_skeleton(d);
  ASSERT_TRUE(s);

  vmd::Motion m;
  vmd::TrackName n;
  n.raw = {'l', 'e', 'g', 'I', 'K'};
  m.bone_names = {n};
  for (std::uint32_t f = 0; f <= 100; f += 10) {
    vmd::BoneKey k;
    k.frame = f;
    k.position = {0.01f * static_cast<float>(f), 2.0f + 0.02f * static_cast<float>(f), -1.0f};
    k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                     vmd::Curve{60, 10, 70, 120});
    m.bone_keys.push_back(k);
  }
  const vmd::Motion* list[] = {&m};
  auto sampler = MotionSampler::create(*s, list);
  ASSERT_TRUE(sampler);
  PoseWorkspace ws(*s);
  std::vector<BonePose> local(s->bone_count());
  std::vector<std::uint8_t> ik(s->ik_count());
  std::vector<BoneMorphOffset> morph(s->bone_count());

  const long before = ::mmdkit::test::allocation_count();
  double checksum = 0;
  for (int f = 0; f <= 100; ++f) {
    sampler->sample(f * 1.0 + 0.25, local, ik);
    evaluate_before_physics(*s, {local, morph, ik}, ws);
    ws.set_model_transform(5, kIdentityQuat, {0, 11, 0});
    evaluate_after_physics(*s, {local, morph, ik}, ws);
    checksum += static_cast<double>(ws.model_positions()[2][1]);
  }
  EXPECT_EQ(::mmdkit::test::allocation_count() - before, 0);
  EXPECT_TRUE(std::isfinite(checksum));
  // The counter works: a vector allocates.
  const long c0 = ::mmdkit::test::allocation_count();
  std::vector<int> probe(10);
  EXPECT_GT(::mmdkit::test::allocation_count(), c0);
}

}  // namespace
}  // namespace mmdkit::anim
