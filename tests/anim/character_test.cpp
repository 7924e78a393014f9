// The evaluation pipeline (anim/character.hpp): bone morphs move bones, VPD names match whole,
// the binding report, workspace validation, the two physics halves, shared data, and one PMD conversion
// (geometry-free view = full view, bit for bit, on every corpus model).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <thread>

#include "anim/anim_test_util.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::anim {
namespace {

using test::bone_key;

// Same size and bytes (memcmp is not called on empty spans: their data may be null).
template <class T>
bool same_bytes(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

model::Bone view_bone(const std::string& name, model::Vec3 pos, std::int32_t parent) {
  model::Bone b;
  b.name = name;
  b.binding_key = *mmdkit::binding_key_of_text(name);
  b.position = pos;
  b.parent = parent;
  return b;
}

// Root at the origin, "arm" at (0, 1, 0) under it, "hand" at (0, 2, 0) under the arm; a bone morph
// "lift" moving the arm by (0, 0, 3) and turning it 90° about Z; a vertex morph "smile".
std::shared_ptr<const model::Model> small_model() {
  auto m = std::make_shared<model::Model>();
  m->bones = {view_bone("root", {0, 0, 0}, -1), view_bone("arm", {0, 1, 0}, 0), view_bone("hand", {0, 2, 0}, 1)};
  m->bone_order = {0, 1, 2};
  model::Morph lift;
  lift.name = "lift";
  lift.binding_key = *mmdkit::binding_key_of_text(lift.name);
  lift.type = model::MorphType::bone;
  const float h = std::sqrt(0.5f);
  lift.bone_offsets.push_back({1, {0, 0, 3}, {0, 0, h, h}});
  model::Morph smile;
  smile.name = "smile";
  smile.binding_key = *mmdkit::binding_key_of_text(smile.name);
  smile.type = model::MorphType::vertex;
  m->morphs = {lift, smile};
  return m;
}

vmd::TrackName name(const std::string& s) {
  vmd::TrackName n;
  n.raw.assign(s.begin(), s.end());
  n.text = s;
  return n;
}

TEST(Character, BoneMorphKeyedByTheMotionMovesTheBone) {
  vmd::Motion mo;
  mo.morph_names = {name("lift")};
  mo.morph_keys = {{0, 0, 0.0f}, {0, 10, 1.0f}};
  auto data = CharacterData::create(small_model(), MotionInputs{{&mo}});
  ASSERT_TRUE(data) << data.error().to_string();
  Character c(*data);
  ASSERT_TRUE(c.evaluate(10));
  EXPECT_EQ(c.morph_weights()[0], 1.0f);
  // arm = (0,1,0) + (0,0,3); hand = arm + Rz(90°)·(0,1,0) = arm + (−1,0,0).
  const auto p = c.pose().model_positions();
  EXPECT_NEAR(p[1][0], 0.0f, 1e-6f);
  EXPECT_NEAR(p[1][1], 1.0f, 1e-6f);
  EXPECT_NEAR(p[1][2], 3.0f, 1e-6f);
  EXPECT_NEAR(p[2][0], -1.0f, 1e-6f);
  EXPECT_NEAR(p[2][1], 1.0f, 1e-6f);
  EXPECT_NEAR(p[2][2], 3.0f, 1e-6f);
  ASSERT_TRUE(c.evaluate(5));  // half weight: translation (0,0,1.5)
  EXPECT_NEAR(c.pose().model_positions()[1][2], 1.5f, 1e-6f);
}

// Two bones whose names share their first 15 bytes: a VMD track (15-byte field) drives both, as
// MMD does; a VPD block names the whole name and drives one.
TEST(Character, VpdMatchesWholeNamesVmdTheFirst15Bytes) {
  auto m = std::make_shared<model::Model>();
  m->bones = {view_bone("LongBoneName_0001", {0, 0, 0}, -1), view_bone("LongBoneName_0002", {1, 0, 0}, -1)};
  m->bone_order = {0, 1};
  vpd::Pose pose;
  pose.bones.resize(1);
  const std::string full = "LongBoneName_0002";
  pose.bones[0].name.raw.assign(full.begin(), full.end());
  pose.bones[0].name.text = full;
  pose.bones[0].translation = {0, 5, 0};
  auto data = CharacterData::create(m, MotionInputs{{}, &pose});
  ASSERT_TRUE(data) << data.error().to_string();
  Character c(*data);
  ASSERT_TRUE(c.evaluate(0));
  EXPECT_EQ(c.pose().model_positions()[0][1], 0.0f);
  EXPECT_EQ(c.pose().model_positions()[1][1], 5.0f);
  EXPECT_EQ((*data)->report().unmatched_bones, 0u);

  vmd::Motion mo;
  mo.bone_names = {name(full.substr(0, 15))};
  mo.bone_keys = {bone_key(0, 0, {0, 7, 0})};
  auto both = CharacterData::create(m, MotionInputs{{&mo}});
  ASSERT_TRUE(both);
  Character d(*both);
  ASSERT_TRUE(d.evaluate(0));
  EXPECT_EQ(d.pose().model_positions()[0][1], 7.0f);
  EXPECT_EQ(d.pose().model_positions()[1][1], 7.0f);
}

// The pose replaces what the motion gives for the bones and morphs it names, at every frame.
TEST(Character, PoseOverridesTheMotionsAtEveryFrame) {
  vmd::Motion mo;
  mo.bone_names = {name("arm"), name("hand")};
  mo.bone_keys = {bone_key(0, 0, {1, 0, 0}), bone_key(1, 0, {0, 0, 0}), bone_key(1, 30, {0, 0, 3})};
  mo.morph_names = {name("lift")};
  mo.morph_keys = {{0, 0, 0.25f}};
  vpd::Pose pose;
  pose.bones.resize(1);
  pose.bones[0].name.raw = test::bytes("arm");
  pose.bones[0].translation = {0, 0, 2};
  pose.morphs.resize(1);
  pose.morphs[0].name.raw = test::bytes("lift");
  pose.morphs[0].weight = 0.0f;
  auto data = CharacterData::create(small_model(), MotionInputs{{&mo}, &pose});
  ASSERT_TRUE(data);
  Character c(*data);
  for (double f : {0.0, 15.0, 30.0}) {
    ASSERT_TRUE(c.evaluate(f));
    EXPECT_EQ(c.key_pose()[1].translation, (Vec3{0, 0, 2})) << f;
    EXPECT_EQ(c.morph_weights()[0], 0.0f) << f;
    EXPECT_NEAR(c.key_pose()[2].translation[2], static_cast<float>(f / 10.0), 1e-5f) << f;
  }
  EXPECT_EQ((*data)->last_frame(), 30u);
}

TEST(Character, ReportsTracksThatMatchNothing) {
  vmd::Motion a, b;
  a.bone_names = {name("arm"), name("tail")};
  a.bone_keys = {bone_key(0, 0, {}), bone_key(1, 0, {})};
  b.morph_names = {name("wink"), name("lift"), name("blink")};
  b.morph_keys = {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}};
  vpd::Pose pose;
  pose.bones.resize(1);
  pose.bones[0].name.raw = test::bytes("wing");
  pose.bones[0].name.text = "wing";
  auto data = CharacterData::create(small_model(), MotionInputs{{&a, nullptr, &b}, &pose, 1});
  ASSERT_TRUE(data);
  const BindingReport& r = (*data)->report();
  EXPECT_EQ(r.unmatched_bones, 2u);
  EXPECT_EQ(r.unmatched_morphs, 2u);
  ASSERT_EQ(r.unmatched.size(), 4u);
  EXPECT_EQ(r.unmatched[0].name, "tail");
  EXPECT_EQ(r.unmatched[0].input, 0u);
  EXPECT_EQ(r.unmatched[1].name, "wing");
  EXPECT_EQ(r.unmatched[1].input, 1u);
  EXPECT_EQ(r.unmatched[2].name, "wink");
  EXPECT_EQ(r.unmatched[2].input, 2u);
  EXPECT_TRUE(r.unmatched[2].morph);
  EXPECT_EQ(r.unmatched[3].name, "blink");
  // Driven: bone arm (VMD), morph lift (VMD); the pose's wing matches nothing.
  EXPECT_EQ(r.keyed_bones, 1u);
  EXPECT_EQ(r.keyed_morphs, 1u);
  EXPECT_EQ(unmatched_messages(r, std::vector<std::string>{"a.vmd", "p.vpd", "b.vmd"}, 1),
            (std::vector<std::string>{
                "a.vmd: 1 bone track of the motion matches no bone of the model and is ignored: 'tail'",
                "p.vpd: 1 bone track of the motion matches no bone of the model and is ignored: 'wing'",
                "b.vmd: 2 morph tracks of the motion match no morph of the model and are ignored: 'wink', ..."}));
  // All names: each input named once, before its names; no input: "of the motions", no name.
  EXPECT_EQ(unmatched_messages(r, std::vector<std::string>{"a.vmd", "p.vpd", "b.vmd"})[2],
            "b.vmd: 2 morph tracks of the motion match no morph of the model and are ignored: 'wink', 'blink'");
  EXPECT_EQ(unmatched_messages(r, {})[0], "1 bone track of the motions matches no bone of the model and is ignored: 'tail'");
}

// A PMD model's base morph (skin type 0) is not a morph of the view; MMD ignores a key of it, and
// motions made with PMD models carry one ("base" at frame 0): not an unmatched track. A PMX morph
// named "base" is an ordinary morph, and a PMX model without one reports the track.
TEST(Character, APmdBaseMorphTrackIsNotUnmatched) {
  vmd::Motion a;
  a.morph_names = {name("base"), name("wink")};
  a.morph_keys = {{0, 0, 0}, {1, 0, 1}};
  vpd::Pose pose;
  pose.morphs.resize(1);
  pose.morphs[0].name.raw = test::bytes("base");
  pose.morphs[0].name.text = "base";
  auto pmd = std::make_shared<model::Model>(*small_model());
  pmd->source = model::SourceFormat::pmd;
  pmd->pmd_base_morph = true;
  pmd->pmd_base_morph_key = test::bytes("base");
  auto d = CharacterData::create(pmd, MotionInputs{{&a}, &pose});
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)->report().unmatched_morphs, 1u);  // wink only
  ASSERT_EQ((*d)->report().unmatched.size(), 1u);
  EXPECT_EQ((*d)->report().unmatched[0].name, "wink");
  EXPECT_EQ((*d)->report().keyed_morphs, 0u);  // base drives nothing
  auto pmx = CharacterData::create(small_model(), MotionInputs{{&a}, &pose});
  ASSERT_TRUE(pmx);
  EXPECT_EQ((*pmx)->report().unmatched_morphs, 3u);  // base (VMD), wink, base (VPD)
}

TEST(Character, KeyedBonesAndMorphsCountEachOnce) {
  vmd::Motion a, b, cam;
  a.bone_names = {name("arm"), name("hand")};
  a.bone_keys = {bone_key(0, 0, {}), bone_key(0, 5, {}), bone_key(1, 0, {})};
  b.bone_names = {name("arm")};  // the same bone again: still one
  b.bone_keys = {bone_key(0, 3, {})};
  b.morph_names = {name("lift")};
  b.morph_keys = {{0, 0, 1}};
  vpd::Pose pose;  // arm again (keyed already), lift again
  pose.bones.resize(1);
  pose.bones[0].name.raw = test::bytes("arm");
  pose.morphs.resize(1);
  pose.morphs[0].name.raw = test::bytes("lift");
  auto data = CharacterData::create(small_model(), MotionInputs{{&a, &b}, &pose});
  ASSERT_TRUE(data);
  EXPECT_EQ((*data)->report().keyed_bones, 2u);
  EXPECT_EQ((*data)->report().keyed_morphs, 1u);
  // A pose alone drives what it names.
  data = CharacterData::create(small_model(), MotionInputs{{}, &pose});
  ASSERT_TRUE(data);
  EXPECT_EQ((*data)->report().keyed_bones, 1u);
  EXPECT_EQ((*data)->report().keyed_morphs, 1u);
  // A camera motion drives nothing of the model.
  cam.camera_keys.resize(2);
  cam.camera_keys[1].frame = 10;
  data = CharacterData::create(small_model(), MotionInputs{{&cam}});
  ASSERT_TRUE(data);
  EXPECT_EQ((*data)->report().keyed_bones, 0u);
  EXPECT_EQ((*data)->report().keyed_morphs, 0u);
  EXPECT_TRUE(unmatched_messages((*data)->report(), {}).empty());
}

TEST(Character, NonFiniteFrameIsAnError) {
  auto data = CharacterData::create(small_model(), {});
  ASSERT_TRUE(data);
  Character c(*data);
  auto r = c.evaluate(std::nan(""));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  auto s = c.skin();  // nothing evaluated yet
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::invalid_argument);
}

TEST(Character, SkinWithoutGeometryIsAnError) {
  auto m = std::make_shared<model::Model>(*small_model());
  m->has_geometry = false;
  auto data = CharacterData::create(m, {});
  ASSERT_TRUE(data);
  EXPECT_EQ((*data)->skinning(), nullptr);
  Character c(*data);
  ASSERT_TRUE(c.evaluate(0));
  auto s = c.skin();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::invalid_argument);
}

// The physics layer's place: between the two halves. Pinning the arm at (5, 5, 5) in
// physics_pose(): the hand (after physics) follows it, and the skinning matrix of the arm too.
TEST(Character, PhysicsRunsBetweenTheTwoHalves) {
  auto m = std::make_shared<model::Model>(*small_model());
  m->bones[2].after_physics = true;  // the hand follows the arm after physics
  auto data = CharacterData::create(m, {});
  ASSERT_TRUE(data);
  Character c(*data);
  for (double f : {0.0, 1.0, 2.0}) {
    ASSERT_TRUE(c.evaluate_before_physics(f));
    c.physics_pose().set_model_transform(1, kIdentityQuat, {5, 5, 5});
    ASSERT_TRUE(c.evaluate_after_physics());
  }
  EXPECT_EQ(c.frame(), 2.0);
  EXPECT_EQ(c.pose().model_positions()[1], (Vec3{5, 5, 5}));
  EXPECT_EQ(c.pose().model_positions()[2], (Vec3{5, 6, 5}));  // hand: arm + bind offset (0,1,0)
  EXPECT_EQ(c.pose().skinning_matrices()[1][13], 4.0f);        // 5 − bind y 1
}

// set_skinning_matrices(false) leaves every other output bit for bit as it was (seven bones: the
// four-bone pass and the one-bone tail of the matrices), and the skinning matrices untouched (their
// reset values); on, a skinning matrix is the model matrix with translation p − R·bind.
TEST(Character, SkinningMatricesOffChangesNothingElse) {
  auto m = std::make_shared<model::Model>();
  for (int i = 0; i < 7; ++i)
    m->bones.push_back(view_bone("b" + std::to_string(i), {0.5f * static_cast<float>(i), static_cast<float>(i), 0}, i - 1));
  for (int i = 0; i < 7; ++i) m->bone_order.push_back(i);
  vmd::Motion mo;
  for (int i = 0; i < 7; ++i) mo.bone_names.push_back(name("b" + std::to_string(i)));
  for (std::uint32_t i = 0; i < 7; ++i) {
    mo.bone_keys.push_back(bone_key(i, 0, {0, 0, 0}));
    mo.bone_keys.push_back(bone_key(i, 10, {0.1f * static_cast<float>(i), 0, 1}, quat_normalize({0.1f, 0.2f * static_cast<float>(i), 0.3f, 1})));
  }
  auto data = CharacterData::create(m, MotionInputs{{&mo}});
  ASSERT_TRUE(data) << data.error().to_string();
  Character on(*data), off(*data);
  off.set_skinning_matrices(false);
  EXPECT_TRUE(on.pose().skinning_matrices_on());
  EXPECT_FALSE(off.pose().skinning_matrices_on());
  const std::vector<Mat4> reset_values(off.pose().skinning_matrices().begin(), off.pose().skinning_matrices().end());
  for (double f : {0.0, 3.5, 7.0, 10.0}) {
    ASSERT_TRUE(on.evaluate(f));
    ASSERT_TRUE(off.evaluate(f));
    EXPECT_TRUE(same_bytes(on.pose().model_matrices(), off.pose().model_matrices())) << f;
    EXPECT_TRUE(same_bytes(on.pose().model_rotations(), off.pose().model_rotations())) << f;
    EXPECT_TRUE(same_bytes(on.pose().model_positions(), off.pose().model_positions())) << f;
    EXPECT_TRUE(same_bytes(off.pose().skinning_matrices(), std::span<const Mat4>(reset_values))) << f;
    for (std::size_t b = 0; b < 7; ++b) {
      const Mat4& mm = on.pose().model_matrices()[b];
      const Mat4& sk = on.pose().skinning_matrices()[b];
      const Vec3 bind{0.5f * static_cast<float>(b), static_cast<float>(b), 0};
      for (std::size_t r = 0; r < 3; ++r) {
        const float rb = mm[r] * bind[0] + mm[4 + r] * bind[1] + mm[8 + r] * bind[2];
        EXPECT_NEAR(sk[12 + r], mm[12 + r] - rb, 1e-4f) << f << " bone " << b;
      }
      EXPECT_TRUE(std::memcmp(sk.data(), mm.data(), 12 * sizeof(float)) == 0) << f << " bone " << b;
    }
  }
  EXPECT_FALSE(same_bytes(on.pose().skinning_matrices(), std::span<const Mat4>(reset_values)));
}

TEST(Pose, WorkspaceOfAnotherSkeletonWithTheSameBoneCountIsRefused) {
  auto a = build_skeleton(*small_model());
  auto b = build_skeleton(*small_model());
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->bone_count(), b->bone_count());
  PoseWorkspace ws(*b);
  auto r = evaluate(*a, {}, ws);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(r.error().section, "pose workspace");
  PoseWorkspace never;
  EXPECT_FALSE(evaluate(*a, {}, never));
  EXPECT_TRUE(validate(*b, ws));
  const Skeleton copy = *b;  // a copy holds the same bones: accepted
  EXPECT_TRUE(evaluate(copy, {}, ws));
}

// Several instances of one CharacterData on several threads give the bytes one instance gives.
TEST(Character, SharedDataOnThreadsGivesTheSameBytes) {
  vmd::Motion mo;
  mo.bone_names = {name("arm"), name("hand")};
  mo.bone_keys = {bone_key(0, 0, {1, 0, 0}, {0, 0, 0, 1}), bone_key(0, 40, {0, 2, 0}, {0, 0.6f, 0, 0.8f}),
                  bone_key(1, 0, {0, 0, 0}), bone_key(1, 30, {0, 0, 3}, {0.6f, 0, 0, 0.8f})};
  mo.morph_names = {name("lift")};
  mo.morph_keys = {{0, 0, 0.0f}, {0, 40, 1.0f}};
  auto data = CharacterData::create(small_model(), MotionInputs{{&mo}});
  ASSERT_TRUE(data);
  auto run = [&](std::vector<Mat4>& out) {
    Character c(*data);
    for (int f = 0; f <= 40; ++f) {
      if (!c.evaluate(f * 0.75)) return;
      for (const Mat4& m : c.pose().model_matrices()) out.push_back(m);
    }
  };
  std::vector<Mat4> one, two, three;
  run(one);
  std::thread t1([&] { run(two); }), t2([&] { run(three); });
  t1.join();
  t2.join();
  ASSERT_EQ(one.size(), 41u * 3u);
  EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(Mat4)), 0);
  EXPECT_EQ(std::memcmp(one.data(), three.data(), one.size() * sizeof(Mat4)), 0);
}

// Character::evaluate_frames gives each character what evaluate(frame) gives it alone: bones,
// morph weights, camera, frame; in passes (more characters than kMaxFrameBatch) and any order.
// set_morphs(false) / set_camera_and_light(false): bones bit for bit as when on, alone and frames together.
// With a bone morph ("lift") the morphs still run (weights as when on); with vertex morphs only
// they do not (weights stay 0, no vertex offset); the camera is not sampled (its defaults stay).
TEST(Character, MorphsAndSceneOffLeaveTheBonesAsTheyAre) {
  for (const bool bone_morph : {true, false}) {
    auto m = std::make_shared<model::Model>(*small_model());
    if (!bone_morph) m->morphs.erase(m->morphs.begin());  // "smile" only
    model::Morph& smile = m->morphs.back();
    smile.vertex_offsets.push_back({0, {0, 1, 0}});
    m->vertices.resize(1);
    vmd::Motion mo;
    mo.bone_names = {name("arm"), name("hand")};
    mo.bone_keys = {bone_key(0, 0, {1, 0, 0}, {0, 0, 0, 1}), bone_key(0, 40, {0, 2, 0}, {0, 0.6f, 0, 0.8f}),
                    bone_key(1, 0, {0, 0, 0}), bone_key(1, 30, {0, 0, 3}, {0.6f, 0, 0, 0.8f})};
    mo.morph_names = {name("lift"), name("smile")};
    mo.morph_keys = {{0, 0, 0.0f}, {0, 40, 1.0f}, {1, 0, 0.5f}};
    mo.camera_keys.resize(1);
    mo.camera_keys[0].distance = -30.0f;
    auto data = CharacterData::create(m, MotionInputs{{&mo}});
    ASSERT_TRUE(data) << data.error().to_string();
    EXPECT_EQ((*data)->morph_data().moves_bones_or_bodies(), bone_morph);
    Character on(*data), off(*data), off2(*data);
    for (Character* c : {&off, &off2}) {
      c->set_morphs(false);
      c->set_camera_and_light(false);
    }
    const CameraState rest = off.camera();
    const std::vector<double> frames{0, 20, 40};
    for (double f : frames) {
      ASSERT_TRUE(on.evaluate(f));
      ASSERT_TRUE(off.evaluate(f));
      EXPECT_TRUE(same_bytes(on.pose().model_matrices(), off.pose().model_matrices())) << f;
      EXPECT_TRUE(same_bytes(on.pose().skinning_matrices(), off.pose().skinning_matrices())) << f;
      EXPECT_EQ(on.camera().distance, -30.0f);
      EXPECT_EQ(off.camera().distance, rest.distance);
      const std::size_t smile_index = m->morphs.size() - 1;
      EXPECT_EQ(on.morph_weights()[smile_index], 0.5f);
      EXPECT_EQ(off.morph_weights()[smile_index], bone_morph ? 0.5f : 0.0f) << f;
      EXPECT_EQ(off.morphs().vertex_offsets()[0][1], bone_morph ? 0.5f : 0.0f) << f;
    }
    EXPECT_EQ(on.pose().model_positions()[1][2], bone_morph ? 3.0f : 0.0f);  // the lift moved the arm (at 40)
    Character* pair[] = {&off, &off2};
    const double two[] = {20, 40};
    ASSERT_TRUE(Character::evaluate_frames(pair, two));
    ASSERT_TRUE(on.evaluate(20));
    EXPECT_TRUE(same_bytes(on.pose().model_matrices(), off.pose().model_matrices()));
    ASSERT_TRUE(on.evaluate(40));
    EXPECT_TRUE(same_bytes(on.pose().model_matrices(), off2.pose().model_matrices()));
    EXPECT_EQ(off2.camera().distance, rest.distance);
  }
}

TEST(Character, FramesTogetherGiveTheBytesOfOneByOne) {
  vmd::Motion mo;
  mo.bone_names = {name("arm"), name("hand")};
  mo.bone_keys = {bone_key(0, 0, {1, 0, 0}, {0, 0, 0, 1}), bone_key(0, 40, {0, 2, 0}, {0, 0.6f, 0, 0.8f}),
                  bone_key(1, 0, {0, 0, 0}), bone_key(1, 30, {0, 0, 3}, {0.6f, 0, 0, 0.8f})};
  mo.morph_names = {name("lift")};
  mo.morph_keys = {{0, 0, 0.0f}, {0, 40, 1.0f}};
  mo.camera_keys.resize(2);
  mo.camera_keys[1].frame = 40;
  mo.camera_keys[1].distance = -30.0f;
  mo.camera_keys[1].target = {1, 10, 2};
  auto data = CharacterData::create(small_model(), MotionInputs{{&mo}});
  ASSERT_TRUE(data);
  const std::vector<double> frames{0, 7.5, 40, 3, 12.25, 39, 1};
  std::vector<std::unique_ptr<Character>> chars;
  std::vector<Character*> ptrs;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    chars.push_back(std::make_unique<Character>(*data));
    ptrs.push_back(chars.back().get());
  }
  ASSERT_TRUE(Character::evaluate_frames(ptrs, frames));
  Character alone(*data);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    ASSERT_TRUE(alone.evaluate(frames[i]));
    const Character& c = *chars[i];
    EXPECT_EQ(c.frame(), frames[i]);
    EXPECT_TRUE(same_bytes(c.pose().model_matrices(), alone.pose().model_matrices())) << frames[i];
    EXPECT_TRUE(same_bytes(c.pose().skinning_matrices(), alone.pose().skinning_matrices())) << frames[i];
    EXPECT_TRUE(same_bytes(c.morph_weights(), alone.morph_weights())) << frames[i];
    EXPECT_EQ(c.camera().target, alone.camera().target) << frames[i];
    EXPECT_EQ(c.camera().distance, alone.camera().distance) << frames[i];
  }
  // The morph moved the arm by frame 40 (the comparison above is not of rest poses only).
  EXPECT_NE(chars[2]->pose().model_positions()[1], chars[0]->pose().model_positions()[1]);
  EXPECT_EQ(chars[2]->camera().distance, -30.0f);
}

TEST(Character, FramesTogetherRefuseWhatCannotBeEvaluatedTogether) {
  auto data = CharacterData::create(small_model(), {});
  auto other = CharacterData::create(small_model(), {});
  ASSERT_TRUE(data && other);
  Character a(*data), b(*data), c(*other);
  auto refused = [](std::span<Character* const> cs, std::span<const double> fs, const char* what) {
    auto r = Character::evaluate_frames(cs, fs);
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument) << what;
  };
  Character* ab[] = {&a, &b};
  Character* aa[] = {&a, &a};
  Character* an[] = {&a, nullptr};
  Character* ac[] = {&a, &c};
  const double f2[] = {0, 1}, f1[] = {0}, fnan[] = {0, std::nan("")};
  refused(ab, f1, "one frame for two characters");
  refused(aa, f2, "the same character twice");
  refused(an, f2, "a null character");
  refused(ac, f2, "another skeleton");
  refused(ab, fnan, "a NaN frame");
  EXPECT_TRUE(std::isnan(a.frame()));  // nothing was evaluated
  EXPECT_TRUE(Character::evaluate_frames(ab, f2));
  EXPECT_EQ(b.frame(), 1.0);
}

// One PMD conversion: every corpus model evaluates through the geometry-free view exactly as
// through the full view (the skeleton's bone data and every transform, bit for bit), with a
// real motion; twist axes of PMD type-8 bones are unit length (normalised by the view).
TEST(Character, GeometryFreeViewEvaluatesLikeTheFullViewOnEveryCorpusModel) {
  MMDKIT_REQUIRE_CORPUS();
  auto motion_file = ::mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  if (!motion_file) GTEST_SKIP() << "wavefile_v2.vmd not in the corpus";
  auto motion = vmd::read(::mmdkit::test::read_bytes(motion_file->path));
  ASSERT_TRUE(motion);
  std::size_t models = 0, twist = 0;
  for (const std::string kind : {"pmd", "pmx"}) {
    for (const auto& f : ::mmdkit::test::corpus_files(kind)) {
      if (f.bytes > (std::uint64_t{8} << 20)) continue;  // keep the test fast
      const auto bytes = ::mmdkit::test::read_bytes(f.path);
      auto full = model::load(bytes);
      model::LoadOptions geometry_free;
      geometry_free.geometry = false;
      auto lite = model::load(bytes, geometry_free);
      ASSERT_EQ(full.has_value(), lite.has_value()) << f.local_path;
      if (!full) continue;
      EXPECT_FALSE(lite->has_geometry);
      EXPECT_TRUE(lite->vertices.empty() && lite->faces.empty());
      auto a = CharacterData::create(std::make_shared<const model::Model>(std::move(*full)), MotionInputs{{&motion->motion}, nullptr});
      auto b = CharacterData::create(std::make_shared<const model::Model>(std::move(*lite)), MotionInputs{{&motion->motion}, nullptr});
      ASSERT_EQ(a.has_value(), b.has_value()) << f.local_path;
      if (!a) continue;
      const Skeleton &sa = (*a)->skeleton(), &sb = (*b)->skeleton();
      ASSERT_EQ(sa.bone_count(), sb.bone_count()) << f.local_path;
      for (std::size_t i = 0; i < sa.bone_count(); ++i) {
        const BoneDesc &x = sa.desc(i), &y = sb.desc(i);
        EXPECT_TRUE(x.name_bytes == y.name_bytes && x.position == y.position && x.parent == y.parent &&
                    x.append_source == y.append_source && x.append_ratio == y.append_ratio &&
                    x.has_fixed_axis == y.has_fixed_axis && x.fixed_axis == y.fixed_axis &&
                    x.ik_effector == y.ik_effector && x.ik_unit_angle == y.ik_unit_angle &&
                    x.ik_links.size() == y.ik_links.size())
            << f.local_path << " bone " << i;
        if (kind == "pmd" && (*a)->model().bones[i].pmd_type == 8 && x.has_fixed_axis) {
          const float len = std::sqrt(x.fixed_axis[0] * x.fixed_axis[0] + x.fixed_axis[1] * x.fixed_axis[1] +
                                      x.fixed_axis[2] * x.fixed_axis[2]);
          EXPECT_NEAR(len, 1.0f, 1e-6f) << f.local_path << " twist bone " << i;
          ++twist;
        }
      }
      EXPECT_EQ((*a)->morph_names().size(), (*b)->morph_names().size());
      Character ca(*a), cb(*b);
      for (double fr : {0.0, 45.5, 300.0, 1200.0}) {
        ASSERT_TRUE(ca.evaluate(fr));
        ASSERT_TRUE(cb.evaluate(fr));
        ASSERT_TRUE(same_bytes(ca.pose().model_matrices(), cb.pose().model_matrices())) << f.local_path << " frame " << fr;
        ASSERT_TRUE(same_bytes(ca.morph_weights(), cb.morph_weights())) << f.local_path << " frame " << fr;
      }
      ++models;
    }
  }
  EXPECT_GE(models, 20u);
  EXPECT_GE(twist, 2u);  // miku_v2 and mei have twist bones
}

}  // namespace
}  // namespace mmdkit::anim
