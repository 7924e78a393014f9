// Helpers for physics tests: small models built in code and one-frame evaluation.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics::test {

inline std::int32_t add_bone(model::Model& m, const std::string& name, std::int32_t parent, Vec3 position) {
  model::Bone b;
  b.name = name;
  b.binding_key.assign(name.begin(), name.end());
  b.parent = parent;
  b.position = position;
  b.movable = true;
  m.bones.push_back(b);
  return static_cast<std::int32_t>(m.bones.size() - 1);
}

inline std::int32_t add_body(model::Model& m, std::int32_t bone, model::RigidBodyMode mode, Vec3 position,
                             model::RigidBodyShape shape = model::RigidBodyShape::sphere, Vec3 size = {0.5f, 0.5f, 0.5f},
                             float mass = 1.0f) {
  model::RigidBody r;
  r.name = "body" + std::to_string(m.rigid_bodies.size());
  r.bone = bone;
  r.mode = mode;
  r.position = position;
  r.shape = shape;
  r.size = size;
  r.mass = mass;
  m.rigid_bodies.push_back(r);
  return static_cast<std::int32_t>(m.rigid_bodies.size() - 1);
}

/// A joint at `position` that keeps the two bodies' relative position and lets them turn freely
/// about Z only (a hinge made of a spring 6DOF: lower > upper on Z = free, Bullet's rule).
inline void add_z_hinge(model::Model& m, std::int32_t a, std::int32_t b, Vec3 position) {
  model::Joint j;
  j.name = "joint" + std::to_string(m.joints.size());
  j.rigid_body_a = a;
  j.rigid_body_b = b;
  j.position = position;
  j.angular_lower = {0, 0, 1};
  j.angular_upper = {0, 0, -1};
  m.joints.push_back(j);
}

/// A skeleton, workspace and pose input for one model.
struct Rig {
  anim::Skeleton skeleton;
  anim::PoseWorkspace ws;
  std::vector<anim::BonePose> local;
  explicit Rig(const model::Model& m) {
    auto s = anim::build_skeleton(m);
    EXPECT_TRUE(s.has_value());
    if (s) skeleton = std::move(*s);
    ws.reset(skeleton);
    local.assign(skeleton.bone_count(), {});
  }
  anim::PoseInput input() const { return anim::PoseInput{local, {}, {}}; }
  void before() { ASSERT_TRUE(anim::evaluate_before_physics(skeleton, input(), ws)); }
  void after() { ASSERT_TRUE(anim::evaluate_after_physics(skeleton, input(), ws)); }
};

/// One full frame of one model: before physics, targets, step (or reset), write, after physics.
inline void frame(World& world, ModelPhysics& mp, Rig& rig, bool reset = false, std::span<const std::uint8_t> off = {}) {
  rig.before();
  mp.set_targets(rig.ws, off);
  if (reset)
    world.reset();
  else
    world.step_frame();
  mp.write_bones(rig.ws);
  rig.after();
}

}  // namespace mmdkit::physics::test
