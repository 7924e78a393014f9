// mmdkit physics internals: the validated description of a model's bodies and joints, and the
// Bullet objects built from it (src/physics only; Bullet never reaches public headers).
#pragma once

#include <btBulletDynamicsCommon.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics::detail {

inline btVector3 bt(const Vec3& v) noexcept { return {v[0], v[1], v[2]}; }
inline btQuaternion bt(const Quat& q) noexcept { return {q[0], q[1], q[2], q[3]}; }
inline Vec3 vec(const btVector3& v) noexcept { return {v.x(), v.y(), v.z()}; }
inline Quat quat(const btQuaternion& q) noexcept { return {q.x(), q.y(), q.z(), q.w()}; }

/// Rotation of MMD Euler angles (radians) applied as Y·X·Z (R = Ry · Rx · Rz; nanoem, babylon-mmd).
btQuaternion euler_yxz(const Vec3& e) noexcept;

/// A body, repaired (docs/PHYSICS.md "Bad input").
struct BodyDesc {
  std::string name;
  std::int32_t bone = -1;               ///< valid bone or -1
  std::int32_t group_bit = 1;           ///< 1 << group
  std::int32_t mask = 0xFFFF;           ///< collision mask (bit set = collides)
  model::RigidBodyShape shape = model::RigidBodyShape::sphere;
  Vec3 size{};
  bool contact = true;                  ///< false for zero-size shapes (no contact response)
  float mass = 0, linear_damping = 0, angular_damping = 0, restitution = 0, friction = 0;
  model::RigidBodyMode mode = model::RigidBodyMode::follow_bone;
  btTransform bind;                     ///< world transform at the bind pose
  btTransform offset;                   ///< bone bind⁻¹ · bind (the body in its bone's frame)
  btTransform offset_inverse;
};

/// A joint, repaired; only joints between two distinct bodies are kept.
struct JointDesc {
  std::string name;
  std::int64_t record = -1;
  model::JointType type = model::JointType::spring_6dof;
  std::int32_t a = -1, b = -1;
  btTransform frame;                    ///< joint world transform at the bind pose
  Vec3 linear_lower{}, linear_upper{}, angular_lower{}, angular_upper{};
  Vec3 linear_spring{}, angular_spring{};
};

/// Everything a model needs, built once by add_model.
struct ModelDesc {
  std::vector<BodyDesc> bodies;
  std::vector<JointDesc> joints;
  std::vector<std::int32_t> parents;     ///< per bone
  std::vector<std::uint32_t> driven;     ///< bones written by bodies of mode 1 / 2, ascending
  std::vector<std::int32_t> writer;      ///< per bone: the body writing it (last in file order), -1
  /// Bones recomputed after the write-back (descendants of driven bones, not driven, evaluated
  /// before physics), in evaluation order.
  std::vector<std::uint32_t> refresh;
};

/// Validates and repairs `model`'s bodies and joints; problems go to `warnings`.
ModelDesc describe(const model::Model& model, const anim::Skeleton& skeleton, std::size_t model_index,
                   std::vector<Warning>& warnings);

/// One transform target: rotation + position (kept apart so interpolation is cheap).
struct Target {
  btQuaternion rotation = btQuaternion::getIdentity();
  btVector3 position{0, 0, 0};
};

}  // namespace mmdkit::physics::detail

namespace mmdkit::physics {

struct ModelPhysics::Impl {
  std::size_t index = 0;
  detail::ModelDesc desc;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;  ///< per body (built once)
  std::vector<std::unique_ptr<btRigidBody>> bodies;       ///< per body (rebuilt by reset)
  std::vector<std::unique_ptr<btTypedConstraint>> constraints;
  std::vector<detail::Target> previous, target;           ///< per body
  std::vector<std::uint8_t> kinematic;                    ///< per body: kinematic now
  std::vector<std::uint8_t> off;                          ///< per body: its bone's physics is off
  std::vector<std::uint8_t> reported;                     ///< per body: blow-up reported
  bool built = false;
};

}  // namespace mmdkit::physics
