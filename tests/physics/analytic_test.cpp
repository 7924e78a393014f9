// Analytic physics tests: Bullet's integrator in closed form, a pendulum's period, damping, and
// the MMD body rules (type 0 on its bone, type 2 keeps its translation, physics-off keys).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "physics/physics_test_util.hpp"

namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;
using model::RigidBodyShape;
using test::Rig;

Settings quiet(std::uint32_t steps_per_second = 60) {
  Settings s;
  s.steps_per_second = steps_per_second;
  s.warmup_steps = 0;
  return s;
}

// Semi-implicit Euler (Bullet: damping, then the gravity impulse, then x += v·dt): after n steps
// y = y0 − g·dt²·n(n+1)/2.
TEST(FreeFall, MatchesTheIntegratorClosedForm) {
  for (std::uint32_t sps : {60u, 120u, 240u}) {
    model::Model m;
    test::add_bone(m, "root", -1, {0, 0, 0});
    test::add_body(m, -1, RigidBodyMode::physics, {0, 100, 0});
    Rig rig(m);
    World world(quiet(sps));
    ModelPhysics& mp = world.add_model(m, rig.skeleton);
    test::frame(world, mp, rig, true);
    const double g = 98, dt = 1.0 / sps;
    for (int f = 1; f <= 30; ++f) {
      test::frame(world, mp, rig);
      const double n = static_cast<double>(world.steps());
      ASSERT_EQ(world.steps(), static_cast<std::uint64_t>(f) * (sps / 30));
      Quat q;
      Vec3 p;
      mp.body_transform(0, q, p);
      const double expected = 100.0 - g * dt * dt * n * (n + 1) / 2;
      EXPECT_NEAR(p[1], expected, 1e-4 * std::abs(100.0 - expected) + 1e-4) << sps << " steps/s, frame " << f;
      EXPECT_NEAR(mp.body_linear_velocity(0)[1], -g * dt * n, 1e-4 * g * dt * n);
      EXPECT_EQ(p[0], 0.0f);
    }
  }
}

// Linear damping d: each step v ← v·(1 − d)^dt (Bullet's applyDamping, before gravity), then
// v ← v − g·dt, y ← y + v·dt. Computed here step by step in double.
TEST(Damping, LinearDampingFollowsBulletsRule) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_body(m, -1, RigidBodyMode::physics, {0, 100, 0});
  m.rigid_bodies[0].linear_damping = 0.5f;
  Rig rig(m);
  World world(quiet());
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  double v = 0, y = 100;
  const double dt = 1.0 / 60, factor = std::pow(1.0 - 0.5, dt);
  for (int f = 1; f <= 60; ++f) {
    test::frame(world, mp, rig);
    for (int s = 0; s < 2; ++s) {
      v = v * factor - 98 * dt;
      y += v * dt;
    }
    Quat q;
    Vec3 p;
    mp.body_transform(0, q, p);
    EXPECT_NEAR(p[1], y, 1e-4 * std::abs(100 - y) + 1e-4) << "frame " << f;
    EXPECT_NEAR(mp.body_linear_velocity(0)[1], v, 1e-4 * std::abs(v));
  }
  // Terminal behaviour: damping makes the fall clearly slower than free fall.
  EXPECT_GT(y, 100 - 98.0 * 2 * 2 / 2 + 1);
}

// A sphere (radius r, mass m) on a joint at distance L swings with the compound pendulum period
// 2π√((I + mL²)/(m·g·L)), I = 2/5·m·r². MMD's joints are soft (limits corrected with stop ERP
// 0.475 only): the arm stretches under load, more with a long arm and a coarse step (L = 10 at
// 120 steps/s swings 4.7 % slow, at 240 within 2 %; L = 3 at 60 steps/s 2.9 % slow, at 120 within 2 %), docs/PHYSICS.md.
class Pendulum : public ::testing::TestWithParam<std::pair<float, std::uint32_t>> {};

TEST_P(Pendulum, PeriodWithinTwoPercent) {
  const float L = GetParam().first;
  const std::uint32_t sps = GetParam().second;
  // A 30° swing: Bullet's additional damping (on, as in MMD) stops bodies turning slower than
  // 0.01 rad/s, which a small swing does near its turning points for several steps.
  const float r = 0.5f, theta = 30.0f * std::numbers::pi_v<float> / 180;
  model::Model m;
  test::add_bone(m, "anchor", -1, {0, 20, 0});
  test::add_bone(m, "bob", 0, {L * std::sin(theta), 20 - L * std::cos(theta), 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 20, 0}, RigidBodyShape::sphere, {0.2f, 0, 0});
  test::add_body(m, 1, RigidBodyMode::physics, m.bones[1].position, RigidBodyShape::sphere, {r, 0, 0}, 1.0f);
  m.rigid_bodies[0].collision_mask = 0;  // the anchor touches nothing
  test::add_z_hinge(m, 0, 1, {0, 20, 0});
  Rig rig(m);
  World world(quiet(sps));
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  // Times (s) the bob crosses x = 0 going the same way, interpolated between frames.
  std::vector<double> crossings;
  float last_x = m.bones[1].position[0];
  for (int f = 1; f <= 300; ++f) {
    test::frame(world, mp, rig);
    const float x = rig.ws.model_positions()[1][0];
    if (last_x > 0 && x <= 0) crossings.push_back((f - 1 + static_cast<double>(last_x / (last_x - x))) / 30.0);
    last_x = x;
  }
  ASSERT_GE(crossings.size(), 3u);
  const double measured = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double Ld = static_cast<double>(L), rd = static_cast<double>(r), inertia = 0.4 * rd * rd;
  // Large-amplitude period: T0 / AGM(1, cos(θ/2)) (exact for a rigid pendulum).
  double a = 1, b = std::cos(static_cast<double>(theta) / 2);
  for (int k = 0; k < 8; ++k) {
    const double an = (a + b) / 2;
    b = std::sqrt(a * b);
    a = an;
  }
  const double expected = 2 * std::numbers::pi * std::sqrt((inertia + Ld * Ld) / (98.0 * Ld)) / a;
  EXPECT_NEAR(measured, expected, 0.02 * expected) << "measured " << measured << " s, expected " << expected << " s";
  // The joint holds: the bob stays at distance L from the pivot.
  const Vec3 p = rig.ws.model_positions()[1];
  EXPECT_NEAR(std::hypot(p[0], p[1] - 20, p[2]), L, 0.1f);
}

INSTANTIATE_TEST_SUITE_P(ArmAndRate, Pendulum,
                         ::testing::Values(std::pair<float, std::uint32_t>{3.0f, 120},
                                           std::pair<float, std::uint32_t>{10.0f, 240}));

Quat about_y(float angle) {
  return {0, std::sin(angle / 2), 0, std::cos(angle / 2)};
}

// Type 0 sits exactly on its bone: body = bone model transform × (body bind relative to the bone).
TEST(Modes, FollowBoneSitsExactlyOnItsBone) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 10, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {1, 12, 0.5f}, RigidBodyShape::box, {1, 2, 0.5f});
  m.rigid_bodies[0].rotation = {0.3f, 0, 0};
  Rig rig(m);
  World world(quiet());
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  for (int f = 1; f <= 10; ++f) {
    rig.local[0].rotation = about_y(0.2f * static_cast<float>(f));
    rig.local[0].translation = {0.5f * static_cast<float>(f), 0, 0};
    test::frame(world, mp, rig);
    // Expected: bone rotation R (about Y), position (0.5f, 10, 0); body = R·(1, 2, 0.5) + bone.
    const float a = 0.2f * static_cast<float>(f);
    const Vec3 expected_p{0.5f * static_cast<float>(f) + std::cos(a) * 1 + std::sin(a) * 0.5f, 12,
                          -std::sin(a) * 1 + std::cos(a) * 0.5f};
    Quat q;
    Vec3 p;
    mp.body_transform(0, q, p);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(p[static_cast<std::size_t>(k)], expected_p[static_cast<std::size_t>(k)], 1e-5f);
    const Quat expected_q = quat_multiply(about_y(a), Quat{std::sin(0.15f), 0, 0, std::cos(0.15f)});
    EXPECT_LT(quat_angle_between(q, expected_q), 1e-5f);
    EXPECT_EQ(rig.ws.model_positions()[0], (Vec3{0.5f * static_cast<float>(f), 10, 0}));  // the bone is not written
  }
}

// A model with a swinging child: bone 1 hangs below bone 0 on a mode `mode` body.
model::Model hanging(RigidBodyMode mode) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 20, 0});
  test::add_bone(m, "child", 0, {3, 20, 0});
  test::add_bone(m, "tip", 1, {6, 20, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 20, 0}, RigidBodyShape::sphere, {0.2f, 0, 0});
  test::add_body(m, 1, mode, {4, 20, 0}, RigidBodyShape::sphere, {0.5f, 0, 0});
  m.rigid_bodies[0].collision_mask = 0;
  test::add_z_hinge(m, 0, 1, {0, 20, 0});
  return m;
}

// Type 1: the bone follows the body; its child (no body) follows the bone.
TEST(Modes, PhysicsBoneFollowsItsBody) {
  model::Model m = hanging(RigidBodyMode::physics);
  Rig rig(m);
  World world(quiet());
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 10; ++f) test::frame(world, mp, rig);
  const Vec3 bone = rig.ws.model_positions()[1];
  EXPECT_LT(bone[1], 20 - 0.5f);  // fell
  // MMD's joints are soft: a body falling from the horizontal stretches its joint a little.
  EXPECT_NEAR(std::hypot(bone[0], bone[1] - 20), 3, 0.4f);
  Quat q;
  Vec3 p;
  mp.body_transform(1, q, p);
  // bone = body × offset⁻¹, offset = translation (1, 0, 0) (no bind rotation).
  const Vec3 back = quat_rotate(q, {-1, 0, 0});
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(bone[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(k)] + back[static_cast<std::size_t>(k)], 1e-5f);
  // The tip (no body) is recomputed from the written bone: 3 units along the rotated bone.
  const Vec3 tip = rig.ws.model_positions()[2];
  const Vec3 along = quat_rotate(rig.ws.model_rotations()[1], {3, 0, 0});
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(tip[static_cast<std::size_t>(k)], bone[static_cast<std::size_t>(k)] + along[static_cast<std::size_t>(k)], 1e-4f);
  EXPECT_EQ(mp.driven_bones().size(), 1u);
}

// Type 2 keeps the animated translation of its bone; only the rotation comes from the body.
TEST(Modes, PhysicsWithBoneKeepsTheAnimatedTranslation) {
  model::Model m = hanging(RigidBodyMode::physics_with_bone);
  Rig rig(m);
  World world(quiet());
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  rig.local[1].translation = {0, 0, 1.5f};
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 10; ++f) {
    rig.local[1].translation = {0, 0.1f * static_cast<float>(f), 1.5f};
    test::frame(world, mp, rig);
    EXPECT_EQ(rig.ws.model_positions()[1], (Vec3{3, 20 + 0.1f * static_cast<float>(f), 1.5f}));
  }
  EXPECT_GT(quat_angle_between(rig.ws.model_rotations()[1], kIdentityQuat), 0.05f);  // but it turned
}

// A bone whose key switches physics off follows its keys; its body follows the bone.
TEST(Modes, PhysicsOffBoneFollowsItsKeys) {
  model::Model m = hanging(RigidBodyMode::physics);
  Rig rig(m);
  World world(quiet());
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  const std::vector<std::uint8_t> off{0, 1, 0}, on{0, 0, 0};
  rig.local[1].rotation = about_y(0.5f);
  test::frame(world, mp, rig, true, off);
  for (int f = 0; f < 10; ++f) {
    test::frame(world, mp, rig, false, off);
    EXPECT_EQ(rig.ws.model_positions()[1], (Vec3{3, 20, 0}));
    EXPECT_LT(quat_angle_between(rig.ws.model_rotations()[1], about_y(0.5f)), 1e-6f);
    Quat q;
    Vec3 p;
    mp.body_transform(1, q, p);
    EXPECT_NEAR(p[0], 3 + std::cos(0.5f), 1e-5f);
    EXPECT_NEAR(p[2], -std::sin(0.5f), 1e-5f);
  }
  for (int f = 0; f < 10; ++f) test::frame(world, mp, rig, false, on);
  EXPECT_LT(rig.ws.model_positions()[1][1], 20 - 0.5f);  // physics on again: it falls
}

}  // namespace
}  // namespace mmdkit::physics
