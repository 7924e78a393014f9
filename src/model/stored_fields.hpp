// mmdkit model (internal) — the one mapping of the values the model view stores as a format does
// (as stored: colours, MMD units, Euler radians, masses, damping, spring stiffness): rigid bodies
// and joints (PMD, PMX), material colours (PMX), used by from_pmd, from_pmx, to_pmd and to_pmx in
// both directions. What differs per format stays at the call site: names (text encodings), the
// bone, rigid-body and texture indices (their checks and "none" values), PMD's rigid-body position
// relative to its bone, PMX's joint type.
#pragma once

#include <type_traits>

#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::model::detail {

template <class J>
inline constexpr bool kPmdJoint = std::is_same_v<std::remove_const_t<J>, pmd::Joint>;

// PMD's names for the joint limits and springs the model view and PMX call linear_lower ..
// angular_spring.
template <class J>
auto& linear_lower(J& j) { if constexpr (kPmdJoint<J>) return j.position_min; else return j.linear_lower; }
template <class J>
auto& linear_upper(J& j) { if constexpr (kPmdJoint<J>) return j.position_max; else return j.linear_upper; }
template <class J>
auto& angular_lower(J& j) { if constexpr (kPmdJoint<J>) return j.rotation_min; else return j.angular_lower; }
template <class J>
auto& angular_upper(J& j) { if constexpr (kPmdJoint<J>) return j.rotation_max; else return j.angular_upper; }
template <class J>
auto& linear_spring(J& j) { if constexpr (kPmdJoint<J>) return j.spring_position; else return j.linear_spring; }
template <class J>
auto& angular_spring(J& j) { if constexpr (kPmdJoint<J>) return j.spring_rotation; else return j.angular_spring; }

/// Copies a rigid body's shape, collision and physics values (model::RigidBody <-> pmd::RigidBody /
/// pmx::RigidBody): group, collision mask, shape, size, position (as stored: the caller adds or
/// removes PMD's bone offset), rotation, mass, damping, restitution, friction, mode.
template <class To, class From>
void copy_rigid_body_values(To& d, const From& s) {
  d.group = s.group;
  d.collision_mask = s.collision_mask;
  d.shape = static_cast<decltype(d.shape)>(s.shape);
  d.size = s.size;
  d.position = s.position;
  d.rotation = s.rotation;
  d.mass = s.mass;
  d.linear_damping = s.linear_damping;
  d.angular_damping = s.angular_damping;
  d.restitution = s.restitution;
  d.friction = s.friction;
  d.mode = static_cast<decltype(d.mode)>(s.mode);
}

/// Copies a joint's frame, limits and springs (model::Joint <-> pmd::Joint / pmx::Joint).
template <class To, class From>
void copy_joint_values(To& d, const From& s) {
  d.position = s.position;
  d.rotation = s.rotation;
  linear_lower(d) = linear_lower(s);
  linear_upper(d) = linear_upper(s);
  angular_lower(d) = angular_lower(s);
  angular_upper(d) = angular_upper(s);
  linear_spring(d) = linear_spring(s);
  angular_spring(d) = angular_spring(s);
}

/// Copies a material's colours, flags and edge (model::Material <-> pmx::Material): diffuse,
/// specular, specular power, ambient, drawing flags, edge colour and size.
template <class To, class From>
void copy_material_values(To& d, const From& s) {
  d.diffuse = s.diffuse;
  d.specular = s.specular;
  d.specular_power = s.specular_power;
  d.ambient = s.ambient;
  d.flags = s.flags;
  d.edge_color = s.edge_color;
  d.edge_size = s.edge_size;
}

}  // namespace mmdkit::model::detail
