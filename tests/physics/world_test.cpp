// World rules: the collision group / mask truth table, several models in one world, bad input
// (warnings, never NaN), determinism and reset.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "physics/physics_test_util.hpp"

namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;
using model::RigidBodyShape;
using test::Rig;

// Two boxes overlapping at the start, no gravity: they push apart iff the pair collides, i.e.
// each one's mask has the other's group bit (saba; Bullet's broadphase rule).
TEST(Collision, GroupMaskTruthTable) {
  for (int a_sees_b = 0; a_sees_b < 2; ++a_sees_b)
    for (int b_sees_a = 0; b_sees_a < 2; ++b_sees_a) {
      model::Model m;
      test::add_bone(m, "root", -1, {0, 0, 0});
      test::add_body(m, -1, RigidBodyMode::physics, {0, 0, 0}, RigidBodyShape::box, {1, 1, 1});
      test::add_body(m, -1, RigidBodyMode::physics, {0.5f, 0, 0}, RigidBodyShape::box, {1, 1, 1});
      m.rigid_bodies[0].group = 3;
      m.rigid_bodies[1].group = 7;
      m.rigid_bodies[0].collision_mask = static_cast<std::uint16_t>(a_sees_b ? 0xFFFF : 0xFFFF & ~(1 << 7));
      m.rigid_bodies[1].collision_mask = static_cast<std::uint16_t>(b_sees_a ? 0xFFFF : 0xFFFF & ~(1 << 3));
      Rig rig(m);
      Settings s;
      s.gravity = {0, 0, 0};
      s.warmup_steps = 0;
      World world(s);
      ModelPhysics& mp = world.add_model(m, rig.skeleton);
      test::frame(world, mp, rig, true);
      for (int f = 0; f < 10; ++f) test::frame(world, mp, rig);
      Quat q;
      Vec3 a, b;
      mp.body_transform(0, q, a);
      mp.body_transform(1, q, b);
      const bool collides = a_sees_b && b_sees_a;
      if (collides)
        EXPECT_GT(b[0] - a[0], 1.0f) << "pushed apart";
      else
        EXPECT_EQ(b[0] - a[0], 0.5f) << "a_sees_b " << a_sees_b << " b_sees_a " << b_sees_a;
    }
}

TEST(Collision, FloorStopsAFallingBody) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_body(m, -1, RigidBodyMode::physics, {0, 5, 0}, RigidBodyShape::sphere, {1, 0, 0});
  Rig rig(m);
  Settings s;
  s.floor = true;
  s.warmup_steps = 0;
  World world(s);
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 60; ++f) test::frame(world, mp, rig);
  Quat q;
  Vec3 p;
  mp.body_transform(0, q, p);
  EXPECT_NEAR(p[1], 1.0f, 0.1f);  // resting on y = 0 with its radius
}

// Two models in one world collide with each other like bodies of one model.
TEST(World, SeveralModelsShareTheWorld) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_body(m, -1, RigidBodyMode::physics, {0, 0, 0}, RigidBodyShape::box, {1, 1, 1});
  model::Model n = m;
  n.rigid_bodies[0].position = {0.5f, 0, 0};
  Rig ra(m), rb(n);
  Settings s;
  s.gravity = {0, 0, 0};
  s.warmup_steps = 0;
  World world(s);
  ModelPhysics& a = world.add_model(m, ra.skeleton);
  ModelPhysics& b = world.add_model(n, rb.skeleton);
  ASSERT_EQ(world.model_count(), 2u);
  for (int f = 0; f < 10; ++f) {
    ra.before();
    rb.before();
    a.set_targets(ra.ws);
    b.set_targets(rb.ws);
    if (f == 0)
      world.reset();
    else
      world.step_frame();
  }
  Quat q;
  Vec3 pa, pb;
  a.body_transform(0, q, pa);
  b.body_transform(0, q, pb);
  EXPECT_GT(pb[0] - pa[0], 1.0f);
}

bool finite(const anim::PoseWorkspace& ws) {
  for (const Mat4& mat : ws.model_matrices())
    for (float x : mat)
      if (!std::isfinite(x)) return false;
  return true;
}

// Bad records: a warning naming each, no crash, no NaN.
TEST(BadInput, RepairedWithWarningsAndNoNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  model::Model m;
  test::add_bone(m, "root", -1, {0, 10, 0});
  test::add_bone(m, "a", 0, {0, 8, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 10, 0});
  test::add_body(m, 1, RigidBodyMode::physics, {0, 8, 0}, RigidBodyShape::sphere, {0.5f, 0, 0}, nan);   // 1 NaN mass
  test::add_body(m, 1, RigidBodyMode::physics, {0, 8, 0}, RigidBodyShape::box, {0, 0, 0}, -2.0f);       // 2 zero size, negative mass
  test::add_body(m, 7, RigidBodyMode::physics, {0, 6, 0}, RigidBodyShape::capsule, {nan, -1, 0}, 1.0f); // 3 missing bone, bad size
  m.rigid_bodies[3].linear_damping = nan;
  test::add_z_hinge(m, 0, 1, {0, 10, 0});
  test::add_z_hinge(m, 0, 9, {0, 10, 0});  // missing body
  test::add_z_hinge(m, 2, 2, {0, 10, 0});  // to itself
  m.joints[0].linear_lower = {1, 0, 0};    // inverted
  m.joints[0].angular_spring = {nan, 0, 0};
  m.rigid_bodies[3].bone = 7;
  Rig rig(m);
  World world;
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  std::vector<std::string> seen;
  for (const Warning& w : world.warnings()) seen.push_back(w.to_string());
  auto has = [&](const std::string& s) {
    for (const auto& w : seen)
      if (w.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("rigid bodies 1 'body1': mass is not finite")) << ::testing::PrintToString(seen);
  EXPECT_TRUE(has("rigid bodies 2 'body2': zero-size shape"));
  EXPECT_TRUE(has("rigid bodies 2 'body2': mass is negative"));
  EXPECT_TRUE(has("rigid bodies 3 'body3': bone 7 does not exist"));
  EXPECT_TRUE(has("rigid bodies 3 'body3': size.x is not finite"));
  EXPECT_TRUE(has("rigid bodies 3 'body3': size.y is negative"));
  EXPECT_TRUE(has("rigid bodies 3 'body3': linear damping is not finite"));
  EXPECT_TRUE(has("joints 0 'joint0': linear limit x is inverted"));
  EXPECT_TRUE(has("joints 0 'joint0': angular spring is not finite"));
  EXPECT_TRUE(has("joints 1 'joint1': rigid body 9 does not exist"));
  EXPECT_TRUE(has("joints 2 'joint2': joins rigid body 2 to itself"));
  EXPECT_EQ(mp.joint_count(), 1u);
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 30; ++f) {
    rig.local[0].translation = {static_cast<float>(f), 0, 0};
    test::frame(world, mp, rig);
    ASSERT_TRUE(finite(rig.ws)) << "frame " << f;
  }
}

// A body shot away beyond max_distance is put back on its bone, reported once.
TEST(BadInput, RunawayBodyIsPutBackAndReportedOnce) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_body(m, 0, RigidBodyMode::physics, {0, 0, 0});
  Rig rig(m);
  Settings s;
  s.max_distance = 1.0f;
  s.warmup_steps = 0;
  World world(s);
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 30; ++f) test::frame(world, mp, rig);
  std::size_t reports = 0;
  for (const Warning& w : world.warnings()) reports += w.section == "simulation" ? 1 : 0;
  EXPECT_EQ(reports, 1u);
  EXPECT_GT(rig.ws.model_positions()[0][1], -1.01f);
}

// A simulation that turns non-finite (an infinite gravity here: the velocity and then the position
// overflow on the first step) puts the body back on its bone at every step, reports it once with
// "non-finite", and no output holds a NaN or infinity.
TEST(BadInput, NonFiniteBodyIsPutBackAndReportedOnce) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_bone(m, "hang", 0, {0, -2, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 0, 0});
  test::add_body(m, 1, RigidBodyMode::physics, {0, -2, 0});
  test::add_z_hinge(m, 0, 1, {0, 0, 0});
  Rig rig(m);
  Settings s;
  s.gravity = {0, -std::numeric_limits<float>::infinity(), 0};
  s.warmup_steps = 5;
  World world(s);
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  for (int f = 0; f < 20; ++f) {
    rig.local[0].translation = {0.1f * static_cast<float>(f), 0, 0};
    test::frame(world, mp, rig);
    ASSERT_TRUE(finite(rig.ws)) << "frame " << f;
    Quat q;
    Vec3 p;
    mp.body_transform(1, q, p);
    for (float x : p) ASSERT_TRUE(std::isfinite(x)) << "frame " << f;
    // Put back on its bone: the bone's model position (root + (0, -2, 0)).
    EXPECT_NEAR(p[0], 0.1f * static_cast<float>(f), 1e-5f);
    EXPECT_NEAR(p[1], -2.0f, 1e-5f);
  }
  std::vector<std::string> reports;
  for (const Warning& w : world.warnings())
    if (w.section == "simulation") reports.push_back(w.to_string());
  ASSERT_EQ(reports.size(), 1u) << ::testing::PrintToString(reports);
  EXPECT_EQ(reports[0], "simulation 1 'body1': the rigid body became non-finite; put back on its bone (reported once)");
}

// A body put back keeps simulating: Bullet takes a body whose bounding box overflows out of the
// simulation (btDiscreteDynamicsWorld::updateSingleAabb, "Overflow in AABB"); after the reset it
// must swing again. Here the root jumps 1e7 units for one frame and comes back; the joint yanks
// the hanging body away (put back, reported once), then it swings down as a pendulum again.
TEST(BadInput, BodyPutBackKeepsSimulating) {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 0, 0});
  test::add_bone(m, "arm", 0, {3, 0, 0});
  test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 0, 0});
  test::add_body(m, 1, RigidBodyMode::physics, {3, 0, 0});
  for (auto& r : m.rigid_bodies) r.collision_mask = 0;
  test::add_z_hinge(m, 0, 1, {0, 0, 0});
  Rig rig(m);
  Settings s;
  s.warmup_steps = 0;
  World world(s);
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  test::frame(world, mp, rig, true);
  rig.local[0].translation = {1e7f, 0, 0};
  test::frame(world, mp, rig);
  rig.local[0].translation = {0, 0, 0};
  test::frame(world, mp, rig);
  std::size_t reports = 0;
  for (const Warning& w : world.warnings()) reports += w.section == "simulation" ? 1 : 0;
  EXPECT_EQ(reports, 1u);
  Quat q;
  Vec3 start, p;
  mp.body_transform(1, q, start);
  ASSERT_NEAR(start[0], 3.0f, 1e-3f);  // back on its bone (the arm's bind place)
  ASSERT_NEAR(start[1], 0.0f, 1e-3f);
  for (int f = 0; f < 10; ++f) test::frame(world, mp, rig);
  mp.body_transform(1, q, p);
  // A 3-unit pendulum released horizontally falls well over a unit in 1/3 s (free fall: 5.4).
  EXPECT_LT(p[1], start[1] - 1.0f);
  EXPECT_NEAR(std::hypot(p[0], p[1]), 3.0f, 0.15f);  // on its arm
}

// Bytes of every model matrix of one frame.
std::vector<float> snapshot(const anim::PoseWorkspace& ws) {
  std::vector<float> out;
  for (const Mat4& mat : ws.model_matrices()) out.insert(out.end(), mat.begin(), mat.end());
  return out;
}

model::Model chain() {
  model::Model m;
  test::add_bone(m, "root", -1, {0, 20, 0});
  std::int32_t prev_body = test::add_body(m, 0, RigidBodyMode::follow_bone, {0, 20, 0});
  m.rigid_bodies[0].collision_mask = 0;
  for (int i = 1; i <= 5; ++i) {
    const Vec3 p{static_cast<float>(i) * 1.5f, 20, 0};
    test::add_bone(m, "b" + std::to_string(i), i - 1, p);
    const std::int32_t body = test::add_body(m, i, RigidBodyMode::physics, p, RigidBodyShape::capsule, {0.3f, 1.0f, 0});
    m.rigid_bodies.back().rotation = {0, 0, 1.5707963f};
    model::Joint j;
    j.name = "j" + std::to_string(i);
    j.rigid_body_a = prev_body;
    j.rigid_body_b = body;
    j.position = {p[0] - 0.75f, 20, 0};
    j.angular_lower = {-0.5f, -0.5f, -1.0f};
    j.angular_upper = {0.5f, 0.5f, 1.0f};
    j.angular_spring = {10, 10, 10};
    m.joints.push_back(j);
    prev_body = body;
  }
  return m;
}

void animate(Rig& rig, int f) {
  const float a = 0.1f * static_cast<float>(f);
  rig.local[0].rotation = {0, std::sin(a), 0, std::cos(a)};
  rig.local[0].translation = {std::sin(a) * 3, 0, 0};
}

std::vector<std::vector<float>> run(int reset_at, int from, int to) {
  model::Model m = chain();
  Rig rig(m);
  World world;
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  std::vector<std::vector<float>> frames;
  for (int f = from; f <= to; ++f) {
    animate(rig, f);
    test::frame(world, mp, rig, f == from || f == reset_at);
    frames.push_back(snapshot(rig.ws));
  }
  return frames;
}

TEST(Determinism, TwoRunsGiveIdenticalBytes) {
  const auto a = run(-1, 0, 60), b = run(-1, 0, 60);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t f = 0; f < a.size(); ++f)
    ASSERT_EQ(std::memcmp(a[f].data(), b[f].data(), a[f].size() * sizeof(float)), 0) << "frame " << f;
  EXPECT_NE(a[10], a[40]);  // it moves
}

TEST(Determinism, ResetAtNEqualsAFreshStartAtN) {
  const auto continued = run(30, 0, 60);  // runs 0..29, resets at 30, continues
  const auto fresh = run(-1, 30, 60);
  for (std::size_t k = 0; k < fresh.size(); ++k)
    ASSERT_EQ(std::memcmp(continued[30 + k].data(), fresh[k].data(), fresh[k].size() * sizeof(float)), 0) << "frame " << 30 + k;
}

}  // namespace
}  // namespace mmdkit::physics
