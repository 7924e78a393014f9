// Evaluation + physics allocate nothing per frame after set-up: this executable counts global
// operator new (support/counting_new.hpp), and Bullet's own allocator (btAlignedAllocSetCustom:
// Bullet's objects and arrays do not use operator new) is routed through a counter too; frames of CharacterPhysics::evaluate (motion sampling, morphs,
// bones, physics-off flags, kinematic targets, Bullet substeps, write-back, bones after physics)
// after the first must not add to either count.

#include <LinearMath/btAlignedAllocator.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "physics/physics_test_util.hpp"
#include "support/counting_new.hpp"
#include "support/corpus.hpp"

namespace {
std::atomic<long> g_bullet_allocations{0};

void* bullet_alloc(std::size_t n) {
  g_bullet_allocations.fetch_add(1, std::memory_order_relaxed);

  return std::malloc(n ? n : 1);
}
void bullet_free(void* p) { std::free(p); }

// Installed before main (and before any Bullet object exists), so every Bullet block is counted
// and freed by the matching function.
[[maybe_unused]] const bool g_bullet_hooked = [] {
  btAlignedAllocSetCustom(bullet_alloc, bullet_free);
  return true;
}();
}  // namespace


namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;
using model::RigidBodyShape;

struct Counts {
  long news = 0, bullet = 0;
};
Counts counts() { return {::mmdkit::test::allocation_count(), g_bullet_allocations.load()}; }

vmd::BoneKey key(std::uint32_t name, std::uint32_t frame, std::array<float, 3> pos, std::array<float, 4> rot, bool off = false) {
  vmd::BoneKey k;
  k.name = name;
  k.frame = frame;
  k.position = pos;
  k.rotation = rot;
  // off: the per-key physics toggle (bytes 2-3 = 63 0F, docs/PHYSICS.md).
  k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, off);
  return k;
}

// A swinging chain that hits a box on its way (contacts appear and go), with a physics-off span on
// one of its bones (bodies turn kinematic and dynamic again), under a turning, moving root.
TEST(Allocation, EvaluateWithPhysicsAllocatesNothingPerFrame) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 20, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 20, 0});
  m.rigid_bodies[0].collision_mask = 0;
  std::int32_t prev = 0;
  for (int i = 1; i <= 4; ++i) {
    const Vec3 p{static_cast<float>(i) * 1.5f, 20, 0};
    test::add_bone(m, "b" + std::to_string(i), i - 1, p);
    const std::int32_t body = test::add_body(m, i, RigidBodyMode::physics, p, RigidBodyShape::capsule, {0.3f, 1.0f, 0});
    m.rigid_bodies.back().rotation = {0, 0, 1.5707963f};
    m.rigid_bodies.back().group = 1;
    test::add_z_hinge(m, prev, body, {p[0] - 0.75f, 20, 0});
    prev = body;
  }
  test::add_bone(m, "wall", -1, {3, 14, 0});
  test::add_body(m, 5, RigidBodyMode::follow_bone, {3, 14, 0}, RigidBodyShape::box, {4, 0.5f, 4});
  vmd::Motion motion;
  motion.bone_names.push_back({{'r', 'o', 'o', 't'}, "root"});
  motion.bone_names.push_back({{'b', '2'}, "b2"});
  const float s = std::sin(0.8f), c = std::cos(0.8f);
  motion.bone_keys = {key(0, 0, {0, 0, 0}, {0, 0, 0, 1}), key(0, 40, {4, 2, 0}, {0, s, 0, c}),
                      key(0, 80, {-3, 0, 0}, {0, -s, 0, c}), key(0, 120, {0, 0, 0}, {0, 0, 0, 1}),
                      key(1, 0, {0, 0, 0}, {0, 0, 0, 1}), key(1, 50, {0, 0, 0}, {0, 0, 0, 1}, true),
                      key(1, 70, {0, 0, 0}, {0, 0, 0, 1})};
  anim::MotionInputs inputs;
  inputs.motions = {&motion};
  auto data = anim::CharacterData::create(std::make_shared<const model::Model>(m), inputs);
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  CharacterPhysics physics(character);
  ASSERT_EQ(physics.body_count(), 6u);
  ASSERT_TRUE(physics.evaluate(0));  // set-up: the world is built, warm-up run
  const Counts before = counts();
  float moved = 0;
  const Vec3 start = character.pose().model_positions()[4];
  for (std::uint32_t f = 1; f <= 150; ++f) {
    ASSERT_TRUE(physics.evaluate(f));
    const Vec3 p = character.pose().model_positions()[4];
    moved = std::max(moved, std::hypot(p[0] - start[0], p[1] - start[1], p[2] - start[2]));
  }
  const Counts after = counts();
  EXPECT_EQ(after.news - before.news, 0) << "operator new calls in 150 frames";
  EXPECT_EQ(after.bullet - before.bullet, 0) << "Bullet allocations in 150 frames";
  EXPECT_GT(moved, 1.0f);  // the chain did move (the frames simulated something)
  EXPECT_GT(before.bullet, 0);  // the hook sees Bullet's set-up allocations
}

// The corpus case of the benchmark: miku_v2 (45 bodies, 27 joints) under the whole wavefile_v2.
TEST(Allocation, MikuWavefileAllocatesNothingAfterTheFirstFrame) {
  MMDKIT_REQUIRE_CORPUS();
  auto mf = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  auto vf = mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  ASSERT_TRUE(mf && vf);
  auto m = model::load(mmdkit::test::read_bytes(mf->path), model::LoadOptions{.encoding = {}, .strict = false, .geometry = false});
  ASSERT_TRUE(m) << m.error().to_string();
  auto v = vmd::read(mmdkit::test::read_bytes(vf->path));
  ASSERT_TRUE(v) << v.error().to_string();
  anim::MotionInputs inputs;
  inputs.motions = {&v->motion};
  auto data = anim::CharacterData::create(std::make_shared<const model::Model>(std::move(*m)), inputs);
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  CharacterPhysics physics(character);
  ASSERT_EQ(physics.body_count(), 45u);
  ASSERT_TRUE(physics.evaluate(0));
  const Counts before = counts();
  const std::uint32_t last = (*data)->last_frame();
  for (std::uint32_t f = 1; f <= last; ++f) ASSERT_TRUE(physics.evaluate(f));
  const Counts after = counts();
  EXPECT_EQ(after.news - before.news, 0) << "operator new calls in " << last << " frames";
  EXPECT_EQ(after.bullet - before.bullet, 0) << "Bullet allocations in " << last << " frames";
}

}  // namespace
}  // namespace mmdkit::physics
