// Box–capsule and box–sphere narrow phase (src/physics/box_capsule.hpp): the distance bound never claims a gap
// that is not there (checked against the exact distance), and a world using BoxCapsuleAlgorithm
// steps to exactly the bits of a world using Bullet's own algorithm.
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "body_states.hpp"
#include "physics/box_capsule.hpp"

namespace mmdkit::physics::detail {
namespace {

/// Distance from point p (box frame) to the box [-h, h], exact.
double point_box(const btVector3& p, const btVector3& h) {
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = std::max(0.0, std::fabs(static_cast<double>(p[k])) - static_cast<double>(h[k]));
    s += d * d;
  }
  return std::sqrt(s);
}

/// Distance between the box and the segment, by ternary search on the (convex) distance along
/// the segment, in double.
double segment_box(const btTransform& box, const btVector3& h, const btTransform& seg, int up, float half_height) {
  const btVector3 axis = seg.getBasis().getColumn(up) * half_height;
  const btVector3 a = box.invXform(seg.getOrigin() - axis), b = box.invXform(seg.getOrigin() + axis);
  double lo = 0, hi = 1;
  auto at = [&](double t) { return point_box(a + (b - a) * static_cast<float>(t), h); };
  for (int i = 0; i < 200; ++i) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (at(m1) < at(m2))
      hi = m2;
    else
      lo = m1;
  }
  return std::min({at(lo), at(0), at(1)});
}

TEST(BoxCapsule, DistanceBoundIsNeverAboveTheTrueDistance) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), pos(0.1f, 2.0f);
  int claimed = 0;
  for (int i = 0; i < 20000; ++i) {
    const btVector3 h(pos(rng), pos(rng), pos(rng));
    const btTransform box(btQuaternion(btVector3(u(rng), u(rng), u(rng) + 1.5f).normalized(), 3.0f * u(rng)),
                          btVector3(5 * u(rng), 5 * u(rng), 5 * u(rng)));
    const btTransform seg(btQuaternion(btVector3(u(rng) + 1.5f, u(rng), u(rng)).normalized(), 3.0f * u(rng)),
                          btVector3(5 * u(rng), 5 * u(rng), 5 * u(rng)));
    const float half_height = i % 4 == 0 ? 0.0f : pos(rng);  // 0: a sphere's centre
    const double d = segment_box(box, h, seg, 1, half_height);
    const float gap = 0.25f * pos(rng);
    if (box_segment_farther_than(box, h, seg, 1, half_height, gap)) {
      ++claimed;
      EXPECT_GT(d, gap) << "case " << i;
    }
  }
  EXPECT_GT(claimed, 5000);  // the bound does separate most of these pairs
  // Touching and overlapping pairs are never "farther than" any gap.
  const btTransform id = btTransform::getIdentity();
  EXPECT_FALSE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(1.0f, 0, 0)), 1,
                                        1.0f, 0.0f));
  EXPECT_FALSE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(0.5f, 1.5f, 0)),
                                        1, 1.0f, 0.0f));  // the segment enters the box
  EXPECT_TRUE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(0.5f, 3, 0)), 1,
                                       1.0f, 0.9f));  // 1 above it
  EXPECT_FALSE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(0.5f, 3, 0)), 1,
                                        1.0f, 1.1f));
  EXPECT_TRUE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(3, 0, 0)), 1,
                                       1.0f, 1.9f));
  EXPECT_FALSE(box_segment_farther_than(id, btVector3(1, 1, 1), btTransform(btQuaternion::getIdentity(), btVector3(3, 0, 0)), 1,
                                        1.0f, 2.1f));
}

/// Boxes, capsules and spheres of random sizes and orientations dropped onto each other and a floor, and
/// kinematic boxes sweeping through them; `ours`: box–capsule and box–sphere pairs use
/// BoxCapsuleAlgorithm (Bullet 3.24's configuration gives box–sphere pairs its convex–convex
/// algorithm as well: checked).
class Pile {
 public:
  explicit Pile(bool ours) {
    if (ours) {
      auto* cc = dynamic_cast<btConvexConvexAlgorithm::CreateFunc*>(
          config_.getCollisionAlgorithmCreateFunc(BOX_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE));
      create_ = std::make_unique<BoxCapsuleAlgorithm::CreateFunc>(*cc);
      for (const int round : {CAPSULE_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE}) {
        dispatcher_.registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, round, create_.get());
        dispatcher_.registerCollisionCreateFunc(round, BOX_SHAPE_PROXYTYPE, create_.get());
      }
    }
    world_.setGravity(btVector3(0, -98.0f, 0));
    shapes_.push_back(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0.0f));
    add(0, *shapes_.back(), btTransform::getIdentity(), false);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), size(0.2f, 0.8f);
    for (int i = 0; i < 40; ++i) {
      if (i % 3 == 1)
        shapes_.push_back(std::make_unique<btCapsuleShape>(size(rng), 2 * size(rng)));
      else if (i % 3 == 2)
        shapes_.push_back(std::make_unique<btSphereShape>(size(rng)));
      else
        shapes_.push_back(std::make_unique<btBoxShape>(btVector3(size(rng), size(rng), size(rng))));
      const btQuaternion q(btVector3(u(rng), u(rng) + 2.0f, u(rng)).normalized(), 3.0f * u(rng));
      add(1.0f, *shapes_.back(), btTransform(q, btVector3(3 * u(rng), 2.0f + 0.6f * static_cast<float>(i), 3 * u(rng))), false);
    }
    for (int i = 0; i < 3; ++i) {
      shapes_.push_back(std::make_unique<btBoxShape>(btVector3(0.5f, 1.5f, 0.3f)));
      sweepers_.push_back(add(0, *shapes_.back(), btTransform::getIdentity(), true));
    }
  }
  ~Pile() {
    for (auto& b : bodies_) world_.removeRigidBody(b.get());
  }
  void step(int i) {
    const float t = static_cast<float>(i) / 60.0f;
    for (std::size_t k = 0; k < sweepers_.size(); ++k) {
      const float phase = t + 2.0f * static_cast<float>(k);
      sweepers_[k]->setWorldTransform(btTransform(btQuaternion(btVector3(0, 1, 0), phase),
                                                  btVector3(4.0f * std::sin(phase), 1.5f + static_cast<float>(k), 4.0f * std::cos(1.3f * phase))));
    }
    world_.stepSimulation(1.0f / 60.0f, 0, 1.0f / 60.0f);
  }
  std::vector<float> state() const {
    return test::body_states(bodies_);
  }

 private:
  btRigidBody* add(float mass, btCollisionShape& shape, const btTransform& at, bool kinematic) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape.calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
    info.m_startWorldTransform = at;
    info.m_friction = 0.5f;
    auto body = std::make_unique<btRigidBody>(info);
    if (kinematic) body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    body->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(body.get());
    bodies_.push_back(std::move(body));
    return bodies_.back().get();
  }

  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  std::unique_ptr<BoxCapsuleAlgorithm::CreateFunc> create_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &config_};
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<btRigidBody*> sweepers_;
};

TEST(BoxCapsule, SkippedQueriesChangeNoBit) {
  {
    btDefaultCollisionConfiguration config;
    EXPECT_NE(dynamic_cast<btConvexConvexAlgorithm::CreateFunc*>(
                  config.getCollisionAlgorithmCreateFunc(SPHERE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE)),
              nullptr);
  }
  Pile bullet(false), ours(true);
  const unsigned long before = BoxCapsuleAlgorithm::skipped();
  int first_difference = -1;
  for (int i = 0; i < 600 && first_difference < 0; ++i) {
    bullet.step(i);
    ours.step(i);
    const auto a = bullet.state(), b = ours.state();
    if (std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) != 0) first_difference = i;
  }
  EXPECT_EQ(first_difference, -1);
  EXPECT_GT(BoxCapsuleAlgorithm::skipped() - before, 1000u);  // the shortcut was taken
}

}  // namespace
}  // namespace mmdkit::physics::detail
