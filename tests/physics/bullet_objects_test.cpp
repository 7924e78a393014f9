// The Bullet bodies mmdkit makes (src/physics/bullet_objects.cpp): MMD's Bullet 2.75 rules.
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <cstring>
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
