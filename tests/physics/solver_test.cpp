// The world's constraint solver (src/physics/solver.hpp): Bullet's iterations in level order give
// exactly the bits of Bullet's own btSequentialImpulseConstraintSolver, which is the reference here
// (the same scene stepped by both, every body's state compared bit for bit after every step):
// joint row set-up (convertJoints) and iterations.
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>
#include <BulletDynamics/ConstraintSolver/btConeTwistConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpringConstraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "body_states.hpp"
#include "physics/solver.hpp"

namespace mmdkit::physics::detail {
namespace {

/// Chains of capsules and boxes hanging from moving kinematic bodies on 6DOF spring joints (a
/// hair / skirt set-up: every joint's 6 rows share two bodies), close enough to collide with
/// each other, the other chains' kinematic bodies and a floor, so that contact and friction rows
/// come and go. `solver` steps it; `mode` is the solver mode.
class Scene {
 public:
  /// Joints: 6DOF springs, or (`mixed`) chain by chain 6DOF spring, hinge, point-to-point,
  /// slider, 6DOF and, with `cone_twist`, cone-twist.
  Scene(std::unique_ptr<btSequentialImpulseConstraintSolver> solver, int mode, int iterations, bool mixed = false,
        bool cone_twist = false)
      : solver_(std::move(solver)) {
    world_ = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher_, &broadphase_, solver_.get(), &config_);
    world_->setGravity(btVector3(0, -98.0f, 0));
    world_->getSolverInfo().m_numIterations = iterations;
    world_->getSolverInfo().m_solverMode = mode;
    shapes_.push_back(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0.0f));
    add(0, *shapes_.back(), btTransform::getIdentity(), false);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int chain = 0; chain < 6; ++chain) {
      const float x = static_cast<float>(chain) * 1.2f - 3.0f;
      shapes_.push_back(std::make_unique<btSphereShape>(0.5f));
      btRigidBody* root = add(0, *shapes_.back(), btTransform(btQuaternion::getIdentity(), btVector3(x, 8.0f, 0)), true);
      roots_.push_back(root);
      btRigidBody* prev = root;
      for (int link = 1; link <= 5; ++link) {
        if ((chain + link) % 2)
          shapes_.push_back(std::make_unique<btCapsuleShape>(0.3f, 0.8f));
        else
          shapes_.push_back(std::make_unique<btBoxShape>(btVector3(0.3f, 0.4f, 0.3f)));
        const btVector3 at(x + 0.3f * u(rng), 8.0f - 1.1f * static_cast<float>(link), 0.3f * u(rng));
        btRigidBody* body = add(1.0f, *shapes_.back(), btTransform(btQuaternion::getIdentity(), at), false);
        if (link == 3 && chain % 2 == 0) {  // non-unit factors (the solver's general impulse path)
          body->setLinearFactor(btVector3(1.0f, 0.5f, 1.0f));
          body->setAngularFactor(btVector3(0.5f, 1.0f, 0.25f));
        }
        const btVector3 pivot = (prev->getWorldTransform().getOrigin() + at) * 0.5f;
        btTransform fa(btQuaternion::getIdentity(), prev->getWorldTransform().inverse() * pivot);
        btTransform fb(btQuaternion::getIdentity(), body->getWorldTransform().inverse() * pivot);
        std::unique_ptr<btTypedConstraint> joint;
        switch (mixed ? chain : 0) {
          case 1: {
            auto h = std::make_unique<btHingeConstraint>(*prev, *body, fa, fb);
            h->setLimit(-0.6f, 0.6f);
            joint = std::move(h);
            break;
          }
          case 2:
            joint = std::make_unique<btPoint2PointConstraint>(*prev, *body, fa.getOrigin(), fb.getOrigin());
            break;
          case 3: {
            auto sl = std::make_unique<btSliderConstraint>(*prev, *body, fa, fb, true);
            sl->setLowerLinLimit(-0.1f);
            sl->setUpperLinLimit(0.1f);
            sl->setLowerAngLimit(-0.3f);
            sl->setUpperAngLimit(0.3f);
            joint = std::move(sl);
            break;
          }
          case 4: {
            auto d = std::make_unique<btGeneric6DofConstraint>(*prev, *body, fa, fb, true);
            d->setLinearLowerLimit(btVector3(0, -0.05f, 0));
            d->setLinearUpperLimit(btVector3(0, 0.05f, 0));
            d->setAngularLowerLimit(btVector3(-0.5f, -0.3f, -0.6f));
            d->setAngularUpperLimit(btVector3(0.5f, 0.3f, 0.6f));
            joint = std::move(d);
            break;
          }
          case 5:
            if (cone_twist) {
              auto ct = std::make_unique<btConeTwistConstraint>(*prev, *body, fa, fb);
              ct->setLimit(0.5f, 0.4f, 0.3f);
              joint = std::move(ct);
              break;
            }
            [[fallthrough]];
          default: {
            auto sp = std::make_unique<btGeneric6DofSpringConstraint>(*prev, *body, fa, fb, true);
            sp->setLinearLowerLimit(btVector3(0, 0, 0));
            sp->setLinearUpperLimit(btVector3(0, 0, 0));
            sp->setAngularLowerLimit(btVector3(-0.5f, -0.3f, -0.6f));
            sp->setAngularUpperLimit(btVector3(0.5f, 0.3f, 0.6f));
            for (int k = 3; k < 6; ++k) {
              sp->enableSpring(k, true);
              sp->setStiffness(k, 20.0f + 10.0f * static_cast<float>(link));
            }
            joint = std::move(sp);
          }
        }
        world_->addConstraint(joint.get(), false);
        joints_.push_back(std::move(joint));
        prev = body;
      }
    }
  }
  ~Scene() {
    for (auto& j : joints_) world_->removeConstraint(j.get());
    for (auto& b : bodies_) world_->removeRigidBody(b.get());
  }

  /// One step: the kinematic roots swing and turn, then Bullet steps 1/60 s.
  void step(int i) {
    const float t = static_cast<float>(i) / 60.0f;
    for (std::size_t r = 0; r < roots_.size(); ++r) {
      const float x = static_cast<float>(r) * 1.2f - 3.0f + 1.5f * std::sin(3.0f * t + static_cast<float>(r));
      const btQuaternion q(btVector3(0, 0, 1), 0.8f * std::sin(2.0f * t));
      roots_[r]->setWorldTransform(btTransform(q, btVector3(x, 8.0f, std::cos(2.5f * t))));
    }
    world_->stepSimulation(1.0f / 60.0f, 0, 1.0f / 60.0f);
  }

  /// Every body's transform and velocities, as bytes.
  std::vector<float> state() const {
    return test::body_states(bodies_);
  }
  int manifolds() const { return dispatcher_.getNumManifolds(); }

 private:
  btRigidBody* add(float mass, btCollisionShape& shape, const btTransform& at, bool kinematic) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape.calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
    info.m_startWorldTransform = at;
    info.m_linearDamping = 0.5f;
    info.m_angularDamping = 0.5f;
    info.m_friction = 0.5f;
    auto body = std::make_unique<btRigidBody>(info);
    if (kinematic) body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    body->setActivationState(DISABLE_DEACTIVATION);
    world_->addRigidBody(body.get());
    bodies_.push_back(std::move(body));
    return bodies_.back().get();
  }

  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> joints_;
  std::vector<btRigidBody*> roots_;
};

/// Steps the scene with Bullet's solver and with Solver side by side; returns the step of the
/// first difference (-1: none) and the scheduled iterations / the largest manifold count seen.
struct Comparison {
  int first_difference = -1;
  std::uint64_t scheduled = 0;
  int most_manifolds = 0;
};
Comparison compare(int mode, int iterations, int steps, bool mixed = false, bool cone_twist = false) {
  Scene reference(std::make_unique<btSequentialImpulseConstraintSolver>(), mode, iterations, mixed, cone_twist);
  auto owned = std::make_unique<Solver>();
  Solver* solver = owned.get();
  Scene scheduled(std::move(owned), mode, iterations, mixed, cone_twist);
  Comparison run;
  for (int i = 0; i < steps && run.first_difference < 0; ++i) {
    reference.step(i);
    scheduled.step(i);
    const auto a = reference.state(), b = scheduled.state();
    if (a.size() != b.size() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) != 0) run.first_difference = i;
    run.most_manifolds = std::max(run.most_manifolds, scheduled.manifolds());
  }
  run.scheduled = solver->scheduled_iterations();
  return run;
}

TEST(Solver, LevelOrderGivesBulletsBits) {
  const int mode = SOLVER_USE_WARMSTARTING | SOLVER_SIMD;  // Bullet's default
  const Comparison run = compare(mode, 10, 400);
  EXPECT_EQ(run.first_difference, -1);
  // Every iteration ran the schedule (a step may solve its islands in more than one batch, and a
  // batch without rows stops after one iteration: residual 0).
  EXPECT_GE(run.scheduled, 400u * 10u);
  EXPECT_GT(run.most_manifolds, 5);       // contacts (and their friction rows) were in it
}

TEST(Solver, OtherIterationCountsAndTwoFrictionDirections) {
  const Comparison one = compare(SOLVER_USE_WARMSTARTING | SOLVER_SIMD, 1, 200);
  EXPECT_EQ(one.first_difference, -1);
  EXPECT_GE(one.scheduled, 200u);
  const Comparison two = compare(SOLVER_USE_WARMSTARTING | SOLVER_USE_2_FRICTION_DIRECTIONS, 7, 200);
  EXPECT_EQ(two.first_difference, -1);
  EXPECT_GE(two.scheduled, 200u * 7u);
}

// Every joint type mmdkit makes (its rows set up by Solver::convertJoints); with a cone-twist
// joint (an obsolete solve step in Bullet's iteration) Bullet's own iteration runs.
TEST(Solver, AllJointTypesGiveBulletsBits) {
  const Comparison mixed = compare(SOLVER_USE_WARMSTARTING | SOLVER_SIMD, 10, 300, true);
  EXPECT_EQ(mixed.first_difference, -1);
  EXPECT_GE(mixed.scheduled, 300u * 10u);
  const Comparison cone = compare(SOLVER_USE_WARMSTARTING | SOLVER_SIMD, 10, 300, true, true);
  EXPECT_EQ(cone.first_difference, -1);
  EXPECT_LT(cone.scheduled, 300u * 10u / 2);  // the batches holding it ran Bullet's iteration
}

// Modes whose row order is not Bullet's fixed one run Bullet's own iteration.
TEST(Solver, InterleavedModeRunsBulletsIteration) {
  const Comparison run = compare(SOLVER_USE_WARMSTARTING | SOLVER_INTERLEAVE_CONTACT_AND_FRICTION_CONSTRAINTS, 10, 100);
  EXPECT_EQ(run.first_difference, -1);
  EXPECT_EQ(run.scheduled, 0u);
}

}  // namespace
}  // namespace mmdkit::physics::detail
