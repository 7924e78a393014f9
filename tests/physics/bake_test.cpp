// Bake: sampling the baked motion WITHOUT physics gives the physics run of the input, on every
// bone (1e-4 units, 0.01°), including bones that append from physics bones and IK chains through
// them (not transformed twice, unlike nanoem's bake).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/physics/bake.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "mmdkit/physics/character_stage.hpp"
#include "physics/physics_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;
using model::RigidBodyShape;

/// Model-space matrices of every bone for frames 0..last.
using Frames = std::vector<std::vector<anim::Mat4>>;

Frames physics_run(const model::Model& m, const anim::Skeleton& sk, const vmd::Motion& motion, std::uint32_t last) {
  const vmd::Motion* list[] = {&motion};
  auto sampler = anim::MotionSampler::create(sk, list);
  EXPECT_TRUE(sampler);
  World world;
  ModelPhysics& mp = world.add_model(m, sk);
  Replay replay(world, mp, sk);
  anim::PoseWorkspace ws(sk);
  std::vector<anim::BonePose> local(sk.bone_count());
  std::vector<std::uint8_t> ik(sk.ik_count(), 1);
  const Replay::Sampler sample = [&](std::uint32_t f, std::span<std::uint8_t> off) {
    sampler->sample(f, local, ik);
    anim::sample_physics_off(sampler->bound(), f, off);
  };
  Frames out;
  for (std::uint32_t f = 0; f <= last; ++f) {
    EXPECT_TRUE(replay.evaluate(f, {local, {}, ik}, ws, sample));
    out.emplace_back(ws.model_matrices().begin(), ws.model_matrices().end());
  }
  return out;
}

Frames plain_run(const anim::Skeleton& sk, const vmd::Motion& motion, std::uint32_t last, std::vector<std::uint8_t>* off_at_1 = nullptr) {
  const vmd::Motion* list[] = {&motion};
  auto sampler = anim::MotionSampler::create(sk, list);
  EXPECT_TRUE(sampler);
  anim::PoseWorkspace ws(sk);
  std::vector<anim::BonePose> local(sk.bone_count());
  std::vector<std::uint8_t> ik(sk.ik_count(), 1);
  Frames out;
  for (std::uint32_t f = 0; f <= last; ++f) {
    sampler->sample(f, local, ik);
    EXPECT_TRUE(anim::evaluate(sk, {local, {}, ik}, ws));
    out.emplace_back(ws.model_matrices().begin(), ws.model_matrices().end());
  }
  if (off_at_1) {
    off_at_1->assign(sk.bone_count(), 0);
    anim::sample_physics_off(sampler->bound(), 1, *off_at_1);
  }
  return out;
}

/// Worst position (units) and rotation (degrees, from the matrix columns) difference.
void expect_same(const Frames& a, const Frames& b, const anim::Skeleton& sk, std::uint32_t from) {
  ASSERT_EQ(a.size(), b.size());
  double worst_pos = 0, worst_deg = 0;
  for (std::size_t f = from; f < a.size(); ++f)
    for (std::size_t i = 0; i < a[f].size(); ++i) {
      const anim::Mat4& x = a[f][i];
      const anim::Mat4& y = b[f][i];
      const double dp = std::hypot(x[12] - y[12], x[13] - y[13], x[14] - y[14]);
      // Angle between the rotations from ‖X − Y‖ (Frobenius) = 2√2·sin(θ/2), well conditioned
      // for small angles (acos of the trace is not).
      double norm2 = 0;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
          const double d = static_cast<double>(x[4 * c + r]) - static_cast<double>(y[4 * c + r]);
          norm2 += d * d;
        }
      const double deg = 2 * std::asin(std::min(1.0, std::sqrt(norm2) / (2 * std::numbers::sqrt2))) * 180 / std::numbers::pi;
      worst_pos = std::max(worst_pos, dp);
      worst_deg = std::max(worst_deg, deg);
      ASSERT_LE(dp, 1e-4) << "frame " << f << " bone " << sk.names()[i];
      ASSERT_LE(deg, 0.01) << "frame " << f << " bone " << sk.names()[i];
    }
  std::printf("baked vs physics: worst %.2g units, %.2g degrees\n", worst_pos, worst_deg);
}

vmd::BoneKey key(std::uint32_t name, std::uint32_t frame, std::array<float, 3> pos, std::array<float, 4> rot) {
  vmd::BoneKey k;
  k.name = name;
  k.frame = frame;
  k.position = pos;
  k.rotation = rot;
  k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve);
  return k;
}

struct Generated {
  model::Model m;
  vmd::Motion motion;
};

/// A hair chain of two simulated bodies under a turning root, and a bone appending from hair1.
Generated generated() {
  Generated g;
  test::add_bone(g.m, "root", -1, {0, 20, 0});
  test::add_bone(g.m, "hair1", 0, {2, 20, 0});
  test::add_bone(g.m, "hair2", 1, {4, 20, 0});
  test::add_bone(g.m, "follow", 0, {0, 22, 0});  // appends half of hair1's rotation
  g.m.bones[3].append_rotation = true;
  g.m.bones[3].append_parent = 1;
  g.m.bones[3].append_ratio = 0.5f;
  test::add_bone(g.m, "tip", 3, {0, 24, 0});
  test::add_body(g.m, 0, RigidBodyMode::follow_bone, {0, 20, 0});
  g.m.rigid_bodies[0].collision_mask = 0;
  test::add_body(g.m, 1, RigidBodyMode::physics, {3, 20, 0});
  test::add_body(g.m, 2, RigidBodyMode::physics, {5, 20, 0});
  test::add_z_hinge(g.m, 0, 1, {1, 20, 0});
  test::add_z_hinge(g.m, 1, 2, {4, 20, 0});
  g.motion.bone_names.push_back({{'r', 'o', 'o', 't'}, "root"});
  g.motion.bone_names.push_back({{'f', 'o', 'l', 'l', 'o', 'w'}, "follow"});
  const float s = std::sin(0.6f), c = std::cos(0.6f);
  g.motion.bone_keys = {key(0, 0, {0, 0, 0}, {0, 0, 0, 1}), key(0, 30, {3, 1, 0}, {0, s, 0, c}),
                      key(0, 60, {0, 0, 0}, {0, 0, 0, 1}), key(1, 0, {0, 0, 0}, {s, 0, 0, c})};
  return g;
}

TEST(Bake, GeneratedChainWithAnAppenderReplaysExactly) {
  Generated g = generated();
  const model::Model& m = g.m;
  const vmd::Motion& motion = g.motion;
  test::Rig rig(m);
  const std::uint32_t last = 90;
  const Frames expected = physics_run(m, rig.skeleton, motion, last);
  BakeOptions options;
  options.last = last;
  const vmd::Motion* list[] = {&motion};
  auto baked = bake(m, list, options);
  ASSERT_TRUE(baked) << baked.error().to_string();
  EXPECT_EQ(baked->baked_bones, 3u);  // hair1, hair2 and the appender
  EXPECT_TRUE(baked->unkeyable.empty());
  std::vector<std::uint8_t> off;
  const Frames got = plain_run(rig.skeleton, baked->motion, last, &off);
  EXPECT_EQ(off, (std::vector<std::uint8_t>{0, 1, 1, 1, 0}));  // baked keys are physics-off
  expect_same(expected, got, rig.skeleton, 0);
  // The physics did something: hair2 is not where the plain motion puts it.
  const Frames plain = plain_run(rig.skeleton, motion, last);
  EXPECT_GT(std::abs(plain[45][2][13] - expected[45][2][13]), 0.5f);
}

TEST(Bake, LongNamesCannotBeKeyedAndAreListed) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 20, 0});
  test::add_bone(m, "a_very_long_hair_bone", 0, {2, 20, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 20, 0});
  test::add_body(m, 1, RigidBodyMode::physics, {3, 20, 0});
  test::add_z_hinge(m, 0, 1, {1, 20, 0});
  vmd::Motion motion;
  motion.bone_names.push_back({{'r', 'o', 'o', 't'}, "root"});
  motion.bone_keys = {key(0, 10, {0, 0, 0}, {0, 0, 0, 1})};
  const vmd::Motion* list[] = {&motion};
  auto baked = bake(m, list, {});
  ASSERT_TRUE(baked);
  EXPECT_EQ(baked->unkeyable, (std::vector<std::string>{"a_very_long_hair_bone"}));
  EXPECT_EQ(baked->baked_bones, 0u);
}

// miku_v2 + wavefile_v2, frames 0-120: hair and necktie (with their IK chains) replay exactly.
TEST(Bake, MikuWavefileReplaysExactly) {
  MMDKIT_REQUIRE_CORPUS();
  auto mf = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  auto vf = mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  ASSERT_TRUE(mf && vf);
  auto m = model::load(mmdkit::test::read_bytes(mf->path));
  ASSERT_TRUE(m);
  auto motion = vmd::read(mmdkit::test::read_bytes(vf->path));
  ASSERT_TRUE(motion);
  auto sk = anim::build_skeleton(*m);
  ASSERT_TRUE(sk);
  const std::uint32_t last = 120;
  const Frames expected = physics_run(*m, *sk, motion->motion, last);
  BakeOptions options;
  options.last = last;
  const vmd::Motion* list[] = {&motion->motion};
  auto baked = bake(*m, list, options);
  ASSERT_TRUE(baked) << baked.error().to_string();
  std::printf("miku_v2: %zu bones baked, %zu IK solvers switched off, %zu unkeyable\n", baked->baked_bones,
              baked->switched_ik, baked->unkeyable.size());
  EXPECT_GT(baked->baked_bones, 10u);
  const Frames got = plain_run(*sk, baked->motion, last);
  expect_same(expected, got, *sk, 0);
}

/// The generated model under its generated motion, bound for anim::Character.
Result<std::shared_ptr<const anim::CharacterData>> character_data(const Generated& g) {
  anim::MotionInputs inputs;
  inputs.motions = {&g.motion};
  return anim::CharacterData::create(std::make_shared<const model::Model>(g.m), inputs);
}

// The Character's physics slot gives the bytes of the Replay driver, frame by frame.
TEST(CharacterStage, EqualsReplayOnEveryFrame) {
  Generated g = generated();
  auto data = character_data(g);
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  World world;
  ModelPhysics& mp = world.add_model((*data)->model(), (*data)->skeleton());
  CharacterStage stage(world, mp, &(*data)->bone_motion().bound(), (*data)->skeleton().bone_count());
  character.set_physics(&stage);
  const Frames expected = physics_run(g.m, (*data)->skeleton(), g.motion, 60);
  for (std::uint32_t f = 0; f <= 60; ++f) {
    ASSERT_TRUE(character.evaluate(f));
    const auto got = character.pose().model_matrices();
    ASSERT_TRUE(std::equal(got.begin(), got.end(), expected[f].begin())) << "frame " << f;
  }
}

// CharacterPhysics: any frame asked, in any order (forward jumps, backward seeks, the same frame
// twice), equals that frame of one run from 0 (the Replay driver's bytes).
TEST(CharacterPhysics, AnyOrderOfFramesEqualsOneRunFromZero) {
  Generated g = generated();
  auto data = character_data(g);
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  const Frames expected = physics_run(g.m, (*data)->skeleton(), g.motion, 60);
  CharacterPhysics physics(character);
  EXPECT_GT(physics.body_count(), 0u);
  EXPECT_EQ(character.physics() != nullptr, true);
  for (std::uint32_t f : {40u, 10u, 11u, 60u, 60u, 0u, 25u}) {
    ASSERT_TRUE(physics.evaluate(f));
    EXPECT_EQ(physics.last_frame(), static_cast<std::int64_t>(f));
    const auto got = character.pose().model_matrices();
    ASSERT_TRUE(std::equal(got.begin(), got.end(), expected[f].begin())) << "frame " << f;
  }
  // Progress is reported on a long catch-up only.
  std::uint32_t calls = 0;
  ASSERT_TRUE(physics.evaluate(0));
  ASSERT_TRUE(physics.evaluate(50, [&](std::uint32_t done, std::uint32_t total) {
    ++calls;
    EXPECT_EQ(total, 50u);
    EXPECT_EQ(done % 10, 0u);
  }, 10));
  EXPECT_EQ(calls, 5u);
}

// Destroying the physics detaches it from the character (no dangling slot).
TEST(CharacterPhysics, DetachesOnDestruction) {
  Generated g = generated();
  auto model = std::make_shared<const model::Model>(g.m);
  auto data = anim::CharacterData::create(model, {});
  ASSERT_TRUE(data);
  anim::Character character(*data);
  {
    CharacterPhysics physics(character);
    EXPECT_NE(character.physics(), nullptr);
  }
  EXPECT_EQ(character.physics(), nullptr);
  EXPECT_TRUE(character.evaluate(3));
}

}  // namespace
}  // namespace mmdkit::physics
