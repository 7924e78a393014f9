// Bake: sampling the baked motion WITHOUT physics gives the physics run of the input, on every
// bone (1e-4 units, 0.01°), including bones that append from physics bones and IK chains through
// them (not transformed twice, unlike nanoem's bake).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/physics/bake.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "physics/physics_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;
using model::RigidBodyShape;

/// Model-space matrices of every bone for frames 0..last.
using Frames = std::vector<std::vector<Mat4>>;

/// The physics run by hand, on the layers below Character (the reference CharacterPhysics and
/// bake are held to): frames `from`..last of a run that starts at `from` (earlier entries empty).
Frames physics_run(const model::Model& m, const anim::Skeleton& sk, const vmd::Motion& motion, std::uint32_t last,
                   std::uint32_t from = 0) {
  const vmd::Motion* list[] = {&motion};
  auto sampler = anim::MotionSampler::create(sk, list);
  EXPECT_TRUE(sampler);
  World world;
  ModelPhysics& mp = world.add_model(m, sk);
  anim::PoseWorkspace ws(sk);
  std::vector<anim::BonePose> local(sk.bone_count());
  std::vector<std::uint8_t> ik(sk.ik_count(), 1), off(sk.bone_count(), 0);
  Frames out(from);
  for (std::uint32_t f = from; f <= last; ++f) {
    sampler->sample(f, local, ik);
    std::fill(off.begin(), off.end(), std::uint8_t{0});
    anim::sample_physics_off(sampler->bound(), f, off);
    const anim::PoseInput in{local, {}, ik};
    EXPECT_TRUE(anim::evaluate_before_physics(sk, in, ws));
    mp.set_targets(ws, off);
    if (f == from)
      world.reset();
    else
      world.step_frame();
    mp.write_bones(ws);
    EXPECT_TRUE(anim::evaluate_after_physics(sk, in, ws));
    out.emplace_back(ws.model_matrices().begin(), ws.model_matrices().end());
  }
  return out;
}

/// bake on a model and motions (CharacterData made here, as `mmdkit bake` does).
Result<BakeResult> bake_model(const model::Model& m, std::span<const vmd::Motion* const> motions,
                              const BakeOptions& options) {
  anim::MotionInputs inputs;
  inputs.motions.assign(motions.begin(), motions.end());
  auto data = anim::CharacterData::create(std::make_shared<const model::Model>(m), inputs);
  if (!data) return std::unexpected(data.error());
  return bake(*data, motions, options);
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
      const Mat4& x = a[f][i];
      const Mat4& y = b[f][i];
      const double dp = static_cast<double>(std::hypot(x[12] - y[12], x[13] - y[13], x[14] - y[14]));
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
  auto baked = bake_model(m, list, options);
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

/// Frames 0..last of `motion` on `model` through anim::Character (bone morphs applied), with
/// physics (CharacterPhysics, from frame 0) or without.
Frames character_run(const model::Model& model, const vmd::Motion& motion, std::uint32_t last, bool physics) {
  anim::MotionInputs inputs;
  inputs.motions = {&motion};
  auto data = anim::CharacterData::create(std::make_shared<const model::Model>(model), inputs);
  EXPECT_TRUE(data);
  if (!data) return {};
  anim::Character c(*data);
  std::optional<CharacterPhysics> ph;
  if (physics) ph.emplace(c);
  Frames out;
  for (std::uint32_t f = 0; f <= last; ++f) {
    EXPECT_TRUE(ph ? ph->evaluate(f) : c.evaluate(f));
    out.emplace_back(c.pose().model_matrices().begin(), c.pose().model_matrices().end());
  }
  return out;
}

// A bone morph on baked bones (hair1, driven by physics; the appender): the playback applies the
// motion's morph keys again, so their keys leave the morph out and the playback equals the run.
TEST(Bake, BoneMorphsOnBakedBonesAreNotAppliedTwice) {
  Generated g = generated();
  model::Morph bend;
  bend.name = "bend";
  bend.binding_key = {'b', 'e', 'n', 'd'};
  bend.type = model::MorphType::bone;
  const float s = std::sin(0.3f), c = std::cos(0.3f);
  bend.bone_offsets = {{1, {0.5f, 0, 0}, {0, 0, s, c}}, {3, {0, 0.25f, 0}, {s, 0, 0, c}}};
  g.m.morphs.push_back(bend);
  g.motion.morph_names.push_back({{'b', 'e', 'n', 'd'}, "bend"});
  g.motion.morph_keys = {{0, 0, 1.0f}, {0, 60, 0.25f}};
  const std::uint32_t last = 90;
  const Frames expected = character_run(g.m, g.motion, last, true);
  BakeOptions options;
  options.last = last;
  const vmd::Motion* list[] = {&g.motion};
  auto baked = bake_model(g.m, list, options);
  ASSERT_TRUE(baked) << baked.error().to_string();
  EXPECT_EQ(baked->baked_bones, 3u);
  test::Rig rig(g.m);
  expect_same(expected, character_run(g.m, baked->motion, last, false), rig.skeleton, 0);
  // The morph moves the bones: the run with it differs from the one without.
  const Frames unmorphed = physics_run(g.m, rig.skeleton, g.motion, last);
  EXPECT_GT(std::abs(unmorphed[10][3][13] - expected[10][3][13]) + std::abs(unmorphed[10][1][12] - expected[10][1][12]),
            0.1f);
}

/// generated() plus the bones the first bakes left out or got wrong:
///  - "local" (5): a "local" appender (PMX 0x80) of hair1, rotation and translation, ratio 0.5,
///    with a child "local_tip";
///  - a two-link IK chain leg → knee → foot whose IK bone "goal" (10) hangs under hair2, so
///    physics moves the goal after IK solved the chain (a playback with IK on would solve it again);
///  - "knee_twin" (11): appends knee's rotation (an appender that is an IK link's follower).
Generated generated_hard() {
  Generated g = generated();
  const auto local = test::add_bone(g.m, "local", 0, {0, 23, 0});
  g.m.bones[static_cast<std::size_t>(local)].append_rotation = true;
  g.m.bones[static_cast<std::size_t>(local)].append_translation = true;
  g.m.bones[static_cast<std::size_t>(local)].append_local = true;
  g.m.bones[static_cast<std::size_t>(local)].append_parent = 1;
  g.m.bones[static_cast<std::size_t>(local)].append_ratio = 0.5f;
  test::add_bone(g.m, "local_tip", local, {0, 25, 0});
  const auto leg = test::add_bone(g.m, "leg", 0, {0, 10, 0});
  const auto knee = test::add_bone(g.m, "knee", leg, {0, 5, 0});
  const auto foot = test::add_bone(g.m, "foot", knee, {0, 0, 0});
  const auto goal = test::add_bone(g.m, "goal", 2, {3, 4, 0});
  model::IkChain chain;
  chain.ik_bone = goal;
  chain.effector = foot;
  chain.iterations = 20;
  chain.unit_angle = 1.0f;
  chain.links = {model::IkLink{knee, false, {}, {}}, model::IkLink{leg, false, {}, {}}};
  g.m.bones[static_cast<std::size_t>(goal)].is_ik = true;
  g.m.bones[static_cast<std::size_t>(goal)].ik_chain = 0;
  g.m.ik_chains.push_back(chain);
  const auto twin = test::add_bone(g.m, "knee_twin", 0, {1, 5, 0});
  g.m.bones[static_cast<std::size_t>(twin)].append_rotation = true;
  g.m.bones[static_cast<std::size_t>(twin)].append_parent = knee;
  g.m.bones[static_cast<std::size_t>(twin)].append_ratio = 1.0f;
  return g;
}

// Local appenders of physics bones, IK chains whose goal physics moves and followers of their
// links replay exactly (the first bake left the local appender and the chain to the playback:
// both moved by up to several units).
TEST(Bake, LocalAppendAndIkGoalUnderPhysicsReplayExactly) {
  Generated g = generated_hard();
  test::Rig rig(g.m);
  ASSERT_EQ(rig.skeleton.ik_count(), 1u);
  const std::uint32_t last = 90;
  const Frames expected = physics_run(g.m, rig.skeleton, g.motion, last);
  BakeOptions options;
  options.last = last;
  const vmd::Motion* list[] = {&g.motion};
  auto baked = bake_model(g.m, list, options);
  ASSERT_TRUE(baked) << baked.error().to_string();
  // hair1, hair2, follow, local, knee, leg, knee_twin; the goal needs no key (IK is off).
  EXPECT_EQ(baked->baked_bones, 7u);
  EXPECT_EQ(baked->switched_ik, 1u);
  EXPECT_TRUE(baked->fixed_axis_loss.empty());
  const Frames got = plain_run(rig.skeleton, baked->motion, last);
  expect_same(expected, got, rig.skeleton, 0);
  // The cases are real: without the local appender's keys, or with the IK solver left on, the
  // playback of the baked motion leaves the physics run (the first bake did both).
  auto worst_at = [&](const Frames& a, std::size_t bone) {
    double worst = 0;
    for (std::uint32_t f = 0; f <= last; ++f)
      worst = std::max(worst, static_cast<double>(std::hypot(a[f][bone][12] - expected[f][bone][12],
          a[f][bone][13] - expected[f][bone][13],
                                                            a[f][bone][14] - expected[f][bone][14])));
    return worst;
  };
  vmd::Motion no_local = baked->motion;
  std::erase_if(no_local.bone_keys, [&](const vmd::BoneKey& k) { return no_local.bone_names[k.name].text == "local"; });
  EXPECT_GT(worst_at(plain_run(rig.skeleton, no_local, last), 6), 0.1);  // local_tip
  vmd::Motion ik_on = baked->motion;
  ik_on.property_keys.clear();
  EXPECT_GT(worst_at(plain_run(rig.skeleton, ik_on, last), 9), 0.1);  // foot
}

// A physics bone with a fixed axis that physics turns about another axis: a VMD key of it is
// projected onto its axis when played back, so the bake reports it (one warning) instead of
// claiming an exact replay; about its own axis it replays exactly.
TEST(Bake, FixedAxisBonesAreExactOnTheirAxisAndReportedOffIt) {
  for (const bool on_axis : {true, false}) {
    Generated g = generated();
    // The root moves in the XY plane only, so the hinges turn hair1 / hair2 about Z alone.
    g.motion.bone_keys[1].rotation = {0, 0, 0, 1};
    g.m.bones[2].has_fixed_axis = true;
    g.m.bones[2].fixed_axis = on_axis ? Vec3{0, 0, 2} : Vec3{1, 0, 0};
    test::Rig rig(g.m);
    const std::uint32_t last = 90;
    BakeOptions options;
    options.last = last;
    const vmd::Motion* list[] = {&g.motion};
    auto baked = bake_model(g.m, list, options);
    ASSERT_TRUE(baked) << baked.error().to_string();
    if (on_axis) {
      EXPECT_TRUE(baked->fixed_axis_loss.empty());
      expect_same(physics_run(g.m, rig.skeleton, g.motion, last), plain_run(rig.skeleton, baked->motion, last), rig.skeleton, 0);
    } else {
      EXPECT_EQ(baked->fixed_axis_loss, (std::vector<std::string>{"hair2"}));
      std::size_t n = 0;
      for (const Warning& w : baked->warnings)
        if (w.section == "bake" && w.record == 2 && w.message.find("fixed axis") != std::string::npos) {
          std::printf("%s\n", w.to_string().c_str());
          ++n;
        }
      EXPECT_EQ(n, 1u);
    }
  }
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
  auto baked = bake_model(m, list, {});
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
  auto baked = bake_model(*m, list, options);
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

// CharacterPhysics gives the bytes of the hand-run physics, frame by frame, from frame 0 or from
// the first frame it is given (export --physics starts there).
TEST(CharacterPhysics, EqualsTheHandRunFromTheFirstFrame) {
  Generated g = generated();
  auto data = character_data(g);
  ASSERT_TRUE(data) << data.error().to_string();
  for (std::uint32_t from : {0u, 17u}) {
    anim::Character character(*data);
    CharacterPhysics physics(character);
    physics.set_first_frame(from);
    const Frames expected = physics_run(g.m, (*data)->skeleton(), g.motion, 60, from);
    for (std::uint32_t f = from; f <= 60; ++f) {
      ASSERT_TRUE(physics.evaluate(f));
      const auto got = character.pose().model_matrices();
      ASSERT_TRUE(std::equal(got.begin(), got.end(), expected[f].begin())) << "from " << from << " frame " << f;
    }
    if (from > 0) {
      auto before = physics.evaluate(from - 1);
      ASSERT_FALSE(before);
      EXPECT_EQ(before.error().code, ErrorCode::invalid_argument);
    }
  }
}

// CharacterPhysics: any frame asked, in any order (forward jumps, backward seeks, the same frame
// twice), equals that frame of one run from 0 (the hand run's bytes).
TEST(CharacterPhysics, AnyOrderOfFramesEqualsOneRunFromZero) {
  Generated g = generated();
  auto data = character_data(g);
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  const Frames expected = physics_run(g.m, (*data)->skeleton(), g.motion, 60);
  CharacterPhysics physics(character);
  EXPECT_GT(physics.body_count(), 0u);
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

}  // namespace
}  // namespace mmdkit::physics
