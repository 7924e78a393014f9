// Bullet objects of one body / joint (src/physics/bullet_objects.cpp).
#pragma once

#include <memory>

#include "physics/internal.hpp"

namespace mmdkit::physics::detail {

/// The collision shape of a (repaired) body.
std::unique_ptr<btCollisionShape> make_shape(const BodyDesc& d);
/// A body at `at`, kinematic (mass 0, CF_KINEMATIC_OBJECT) or dynamic; never sleeps; additional
/// damping on.
std::unique_ptr<btRigidBody> make_body(const BodyDesc& d, btCollisionShape& shape, const btTransform& at, bool kinematic);
/// Switches a body between kinematic and dynamic (physics-off keys).
void set_kinematic(btRigidBody& body, const BodyDesc& d, bool kinematic);
/// The Bullet constraint of a joint between bodies a and b.
std::unique_ptr<btTypedConstraint> make_constraint(const JointDesc& j, btRigidBody& a, const BodyDesc& da, btRigidBody& b,
                                                   const BodyDesc& db);

}  // namespace mmdkit::physics::detail
