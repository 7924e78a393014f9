// The Bullet bodies mmdkit makes (src/physics/bullet_objects.cpp): MMD's Bullet 2.75 rules.
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>
#include <memory>

#include "physics/bullet_objects.hpp"

namespace mmdkit::physics::detail {
namespace {

/// Angular velocity of a free asymmetric box spun about a non-principal axis after `steps` steps
/// of 1/60 s, no gravity, no damping.
btVector3 spin(bool gyroscopic, int steps) {
  BodyDesc d;
  d.shape = model::RigidBodyShape::box;
  d.size = {0.5f, 1.0f, 2.0f};
  d.mass = 1.0f;
  d.mode = model::RigidBodyMode::physics;
  d.bind.setIdentity();
  d.offset.setIdentity();
  d.offset_inverse.setIdentity();
  auto shape = make_shape(d);
  auto body = make_body(d, *shape, btTransform::getIdentity(), false);
  if (gyroscopic) body->setFlags(body->getFlags() | BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY);
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, 0));
  world.addRigidBody(body.get());
  body->setAngularVelocity(btVector3(1.0f, 2.0f, 0.5f));
  for (int i = 0; i < steps; ++i) world.stepSimulation(1.0f / 60.0f, 0, 1.0f / 60.0f);
  const btVector3 w = body->getAngularVelocity();
  world.removeRigidBody(body.get());
  return w;
}

// Bullet applies a gyroscopic term by default from 2.83 on (btRigidBody.h); MMD's Bullet 2.75 had
// none, so a torque-free body keeps its angular velocity exactly (Euler's equations would make an
// asymmetric body's ω precess). The second half shows the test can see the term.
TEST(Bodies, NoGyroscopicTermAsInMmdsBullet) {
  const btVector3 w = spin(false, 120);
  EXPECT_EQ(w.x(), 1.0f);
  EXPECT_EQ(w.y(), 2.0f);
  EXPECT_EQ(w.z(), 0.5f);
  const btVector3 g = spin(true, 120);
  EXPECT_GT((g - btVector3(1.0f, 2.0f, 0.5f)).length(), 1.0e-3f);
}

}  // namespace
}  // namespace mmdkit::physics::detail

namespace mmdkit::physics::detail {
namespace {

// PairStateBroadphase (src/physics/bullet_objects.hpp) = Bullet's btSimpleBroadphase: the same pair
// cache, pair for pair in the same order, after every step of random moving boxes (some filtered
// by group / mask, proxies removed and added again on the way).
TEST(Broadphase, PairStateBroadphaseKeepsBulletsSimplePairCache) {
  constexpr int kProxies = 40;
  btSimpleBroadphase ref(kProxies + 2);
  PairStateBroadphase ours(kProxies + 2);
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  std::vector<btBroadphaseProxy*> a(kProxies, nullptr), b(kProxies, nullptr);
  std::vector<btVector3> pos(kProxies), vel(kProxies);
  std::uint32_t seed = 12345;
  auto rnd = [&] {  // [0, 1)
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f;
  };
  int dummy = 0;
  auto add = [&](int i) {
    const btVector3 h(0.5f + rnd(), 0.5f + rnd(), 0.5f + rnd());
    const int group = 1 << (i % 5), mask = (i % 7 == 0) ? 0xFFFF & ~1 : 0xFFFF;
    a[static_cast<std::size_t>(i)] = ref.createProxy(pos[static_cast<std::size_t>(i)] - h, pos[static_cast<std::size_t>(i)] + h, 0, &dummy, group, mask, &dispatcher);
    b[static_cast<std::size_t>(i)] = ours.createProxy(pos[static_cast<std::size_t>(i)] - h, pos[static_cast<std::size_t>(i)] + h, 0, &dummy, group, mask, &dispatcher);
  };
  for (int i = 0; i < kProxies; ++i) {
    pos[static_cast<std::size_t>(i)] = btVector3(10 * rnd(), 10 * rnd(), 10 * rnd());
    vel[static_cast<std::size_t>(i)] = btVector3(rnd() - 0.5f, rnd() - 0.5f, rnd() - 0.5f) * 0.4f;
    add(i);
  }
  std::size_t most = 0;
  for (int step = 0; step < 400; ++step) {
    for (int i = 0; i < kProxies; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (step % 50 == 25 && i % 9 == step % 9) {  // out and back in: new handles, pairs dropped
        ref.destroyProxy(a[k], &dispatcher);
        ours.destroyProxy(b[k], &dispatcher);
        add(i);
        continue;
      }
      pos[k] += vel[k];
      for (int c = 0; c < 3; ++c)
        if (pos[k][c] < 0 || pos[k][c] > 10) vel[k][c] = -vel[k][c];
      const btVector3 h(0.8f, 0.8f, 0.8f);
      ref.setAabb(a[k], pos[k] - h, pos[k] + h, &dispatcher);
      ours.setAabb(b[k], pos[k] - h, pos[k] + h, &dispatcher);
    }
    ref.calculateOverlappingPairs(&dispatcher);
    ours.calculateOverlappingPairs(&dispatcher);
    const btBroadphasePairArray& x = ref.getOverlappingPairCache()->getOverlappingPairArray();
    const btBroadphasePairArray& y = ours.getOverlappingPairCache()->getOverlappingPairArray();
    ASSERT_EQ(x.size(), y.size()) << "step " << step;
    for (int p = 0; p < x.size(); ++p) {
      // Proxies are allocated alike (same handle order), so unique ids agree.
      ASSERT_EQ(x[p].m_pProxy0->getUid(), y[p].m_pProxy0->getUid()) << "step " << step << " pair " << p;
      ASSERT_EQ(x[p].m_pProxy1->getUid(), y[p].m_pProxy1->getUid()) << "step " << step << " pair " << p;
    }
    most = std::max(most, static_cast<std::size_t>(x.size()));
  }
  EXPECT_GT(most, 20u);  // the boxes do overlap
}

}  // namespace
}  // namespace mmdkit::physics::detail
