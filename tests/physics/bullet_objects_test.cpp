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

namespace mmdkit::physics::detail {
namespace {

/// The rows a constraint gives the solver for one step (btTypedConstraint::getInfo1 / getInfo2),
/// in arrays of `kRowSkip` scalars per row.
struct Rows {
  static constexpr int kRowSkip = 4;
  static constexpr int kMax = 6;
  float j1[kMax * kRowSkip] = {}, a1[kMax * kRowSkip] = {}, j2[kMax * kRowSkip] = {}, a2[kMax * kRowSkip] = {};
  float error[kMax * kRowSkip] = {}, cfm[kMax * kRowSkip] = {}, lower[kMax * kRowSkip] = {}, upper[kMax * kRowSkip] = {};
  int count = 0;
  explicit Rows(btTypedConstraint& c) {
    btTypedConstraint::btConstraintInfo1 i1{};
    c.getInfo1(&i1);
    count = i1.m_numConstraintRows;
    btTypedConstraint::btConstraintInfo2 i2{};
    i2.fps = 60;
    i2.erp = 0.2f;
    i2.m_J1linearAxis = j1;
    i2.m_J1angularAxis = a1;
    i2.m_J2linearAxis = j2;
    i2.m_J2angularAxis = a2;
    i2.rowskip = kRowSkip;
    i2.m_constraintError = error;
    i2.cfm = cfm;
    i2.m_lowerLimit = lower;
    i2.m_upperLimit = upper;
    i2.m_damping = 1;
    i2.m_numIterations = 10;
    c.getInfo2(&i2);
  }
  btVector3 at(const float* v, int row) const { return {v[row * kRowSkip], v[row * kRowSkip + 1], v[row * kRowSkip + 2]}; }
};

// A spring 6DOF joint without the frame offset (Settings::bullet_275_joint_frames) torn open (the
// two bodies' pivots 1.1 apart, as when a contact pushes a hair body away): each linear row must
// push body A at A's own pivot, its angular Jacobian
// (pA − xA) × axis, the derivative of the error (pB − pA)·axis it corrects. Bullet 3.24 without
// the frame offset uses B's pivot, (pB − xA) × axis (the joint then turns A about a point it is not
// attached at: 巡音ルカ's shoulder hair fell away, docs/PHYSICS.md "Joints"). Every other number of
// every row is Bullet's, bit for bit.
TEST(Joints, LinearRowsPushBodyAAtItsOwnPivot) {
  auto capsule = [](Vec3 at, float radius, float height) {
    BodyDesc d;
    d.shape = model::RigidBodyShape::capsule;
    d.size = {radius, height, 0};
    d.mass = 0.5f;
    d.mode = model::RigidBodyMode::physics;
    d.bind = btTransform(btQuaternion(btVector3(1, 0, 0), 0.3f), bt(at));
    d.offset.setIdentity();
    d.offset_inverse.setIdentity();
    return d;
  };
  const BodyDesc da = capsule({0, 9.5f, 0}, 0.1f, 0.8f), db = capsule({0, 8, 0}, 0.2f, 1.6f);
  auto sa = make_shape(da), sb = make_shape(db);
  auto a = make_body(da, *sa, da.bind, false), b = make_body(db, *sb, db.bind, false);
  JointDesc j;
  j.a = 0;
  j.b = 1;
  j.frame = btTransform(btQuaternion::getIdentity(), btVector3(0, 9, 0));
  j.angular_lower = {-0.175f, -0.175f, -0.175f};
  j.angular_upper = {0.175f, 0.175f, 0.175f};
  j.angular_spring = {1, 1, 1};
  auto ours = make_constraint(j, *a, da, *b, db, false);  // Settings::bullet_275_joint_frames
  // Bullet's own joint on the same bodies, as make_constraint sets it up.
  const btTransform fa = da.bind.inverse() * j.frame, fb = db.bind.inverse() * j.frame;
  btGeneric6DofSpringConstraint bullet(*a, *b, fa, fb, true);
  bullet.setUseFrameOffset(false);
  bullet.setLinearLowerLimit(btVector3(0, 0, 0));
  bullet.setLinearUpperLimit(btVector3(0, 0, 0));
  bullet.setAngularLowerLimit(bt(j.angular_lower));
  bullet.setAngularUpperLimit(bt(j.angular_upper));
  for (int axis = 0; axis < 6; ++axis) bullet.setParam(BT_CONSTRAINT_STOP_ERP, 0.475f, axis);
  for (int k = 0; k < 3; ++k) {
    bullet.enableSpring(k + 3, true);
    bullet.setStiffness(k + 3, 1);
  }
  // Tear the joint open: B moved and turned away from A.
  b->setCenterOfMassTransform(btTransform(btQuaternion(btVector3(0, 0, 1), 0.9f), btVector3(1.2f, 7.6f, 0.9f)));
  a->setAngularVelocity(btVector3(0.5f, -1, 2));
  b->setLinearVelocity(btVector3(3, -2, 1));

  const Rows got(*ours), want(bullet);
  ASSERT_EQ(got.count, want.count);
  const auto* six = dynamic_cast<const btGeneric6DofConstraint*>(ours.get());
  ASSERT_NE(six, nullptr);
  const btVector3 pa = six->getCalculatedTransformA().getOrigin(), pb = six->getCalculatedTransformB().getOrigin();
  ASSERT_GT((pb - pa).length(), 1.0f);  // torn open (1.1 units)
  const btVector3 xa = a->getCenterOfMassPosition(), xb = b->getCenterOfMassPosition();
  int linear = 0;
  for (int r = 0; r < got.count; ++r) {
    const btVector3 axis = got.at(got.j1, r);
    if (axis.isZero()) continue;  // an angular row
    ++linear;
    const btVector3 arm_a = (pa - xa).cross(axis), arm_b = -(pb - xb).cross(axis);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got.at(got.a1, r)[k], arm_a[k], 1e-5f) << "row " << r << " component " << k << " (Bullet's "
                                                         << want.at(want.a1, r)[k] << ")";
      EXPECT_NEAR(got.at(got.a2, r)[k], arm_b[k], 1e-5f) << "row " << r << " component " << k;
    }
  }
  EXPECT_EQ(linear, 3);  // the gap has a component on every axis of A's frame
  // Everything else is Bullet's.
  for (int r = 0; r < got.count; ++r) {
    const int s = r * Rows::kRowSkip;
    const bool is_linear = !got.at(got.j1, r).isZero();
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(got.j1[s + k], want.j1[s + k]) << "row " << r;
      EXPECT_EQ(got.j2[s + k], want.j2[s + k]) << "row " << r;
      EXPECT_EQ(got.a2[s + k], want.a2[s + k]) << "row " << r;
      if (!is_linear) {
        EXPECT_EQ(got.a1[s + k], want.a1[s + k]) << "row " << r;
      }
    }
    EXPECT_EQ(got.error[s], want.error[s]) << "row " << r;
    EXPECT_EQ(got.cfm[s], want.cfm[s]) << "row " << r;
    EXPECT_EQ(got.lower[s], want.lower[s]) << "row " << r;
    EXPECT_EQ(got.upper[s], want.upper[s]) << "row " << r;
  }
}

}  // namespace
}  // namespace mmdkit::physics::detail
