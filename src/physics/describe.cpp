// Validating a model's rigid bodies and joints for physics (docs/PHYSICS.md "Bad input").
#include <algorithm>
#include <cmath>
#include <string>

#include "mmdkit/anim/skeleton.hpp"
#include "physics/internal.hpp"

namespace mmdkit::physics::detail {

btQuaternion euler_yxz(const Vec3& e) noexcept {
  const btQuaternion qy(btVector3(0, 1, 0), e[1]);
  const btQuaternion qx(btVector3(1, 0, 0), e[0]);
  const btQuaternion qz(btVector3(0, 0, 1), e[2]);
  return qy * qx * qz;
}

namespace {

const char* axis_name(int k) { return k == 0 ? "x" : k == 1 ? "y" : "z"; }

struct Reporter {
  std::vector<Warning>& out;
  std::size_t model;
  const char* section;
  std::int64_t record;
  const std::string& name;
  void operator()(std::string message) const { out.push_back({model, section, record, name, std::move(message)}); }
};

/// Non-finite components become 0 (one warning naming the field).
void finite3(Vec3& v, const char* field, const Reporter& report) {
  bool bad = false;
  for (float& x : v)
    if (!std::isfinite(x)) {
      x = 0.0f;
      bad = true;
    }
  if (bad) report(std::string(field) + " is not finite; 0 used");
}
void finite1(float& v, const char* field, float fallback, const Reporter& report) {
  if (std::isfinite(v)) return;
  v = fallback;
  report(std::string(field) + " is not finite; " + std::to_string(fallback).substr(0, 4) + " used");
}

BodyDesc describe_body(const model::RigidBody& r, std::int64_t i, const model::Model& model, const Reporter& report) {
  BodyDesc d;
  d.name = r.name;
  d.bone = r.bone >= 0 && static_cast<std::size_t>(r.bone) < model.bones.size() ? r.bone : -1;
  if (r.bone != d.bone) report("bone " + std::to_string(r.bone) + " does not exist; the body affects no bone");
  std::uint8_t group = r.group;
  if (group > 15) {
    report("group " + std::to_string(group) + " is not 0..15; " + std::to_string(group & 15) + " used");
    group &= 15;
  }
  d.group_bit = 1 << group;
  d.mask = r.collision_mask;
  d.shape = r.shape;
  if (static_cast<unsigned>(r.shape) > 2) {
    report("shape " + std::to_string(static_cast<unsigned>(r.shape)) + " is unknown; sphere used");
    d.shape = model::RigidBodyShape::sphere;
  }
  d.mode = r.mode;
  if (static_cast<unsigned>(r.mode) > 2) {
    report("mode " + std::to_string(static_cast<unsigned>(r.mode)) + " is unknown; 0 (follow bone) used");
    d.mode = model::RigidBodyMode::follow_bone;
  }
  // Size: the components the shape uses must be finite and positive.
  d.size = r.size;
  const int used = d.shape == model::RigidBodyShape::sphere ? 1 : d.shape == model::RigidBodyShape::capsule ? 2 : 3;
  for (int k = 0; k < used; ++k) {
    float& s = d.size[static_cast<std::size_t>(k)];
    if (!std::isfinite(s) || s < 0.0f) {
      report(std::string("size.") + axis_name(k) + " is " + (std::isfinite(s) ? "negative" : "not finite") +
             "; its magnitude (or 0) used");
      s = std::isfinite(s) ? -s : 0.0f;
    }
  }
  bool zero = false;
  for (int k = 0; k < used; ++k)
    if (!(d.size[static_cast<std::size_t>(k)] > 1e-4f)) zero = true;
  // A capsule of height 0 is a sphere; only its radius must be positive.
  if (d.shape == model::RigidBodyShape::capsule && d.size[0] > 1e-4f) zero = false;
  if (zero) {
    report("zero-size shape; simulated with size 0.01 and no contact response");
    for (int k = 0; k < used; ++k) d.size[static_cast<std::size_t>(k)] = std::max(d.size[static_cast<std::size_t>(k)], 0.01f);
    d.contact = false;
  }
  d.mass = r.mass;
  if (d.mode != model::RigidBodyMode::follow_bone && !(std::isfinite(d.mass) && d.mass > 0.0f)) {
    report(std::string("mass is ") + (std::isfinite(d.mass) ? (d.mass < 0 ? "negative" : "zero") : "not finite") +
           " on a simulated body; 1 used");
    d.mass = 1.0f;
  }
  d.linear_damping = r.linear_damping;
  d.angular_damping = r.angular_damping;
  d.restitution = r.restitution;
  d.friction = r.friction;
  finite1(d.linear_damping, "linear damping", 0.0f, report);
  finite1(d.angular_damping, "angular damping", 0.0f, report);
  finite1(d.restitution, "restitution", 0.0f, report);
  finite1(d.friction, "friction", 0.0f, report);
  Vec3 position = r.position, rotation = r.rotation;
  finite3(position, "position", report);
  finite3(rotation, "rotation", report);
  d.bind = btTransform(euler_yxz(rotation), bt(position));
  // The bind pose of a bone has no rotation: its world transform is a translation.
  btVector3 bone_position(0, 0, 0);
  if (d.bone >= 0) {
    Vec3 bp = model.bones[static_cast<std::size_t>(d.bone)].position;
    for (float& x : bp)
      if (!std::isfinite(x)) x = 0.0f;
    bone_position = bt(bp);
  }
  d.offset = btTransform(d.bind.getRotation(), d.bind.getOrigin() - bone_position);
  d.offset_inverse = d.offset.inverse();
  (void)i;
  return d;
}

}  // namespace

ModelDesc describe(const model::Model& model, const anim::Skeleton& skeleton, std::size_t model_index,
                   std::vector<Warning>& warnings) {
  ModelDesc m;
  const std::size_t nb = skeleton.bone_count();
  m.parents.assign(skeleton.parents().begin(), skeleton.parents().end());
  m.bodies.reserve(model.rigid_bodies.size());
  for (std::size_t i = 0; i < model.rigid_bodies.size(); ++i) {
    const auto& r = model.rigid_bodies[i];
    const Reporter report{warnings, model_index, "rigid bodies", static_cast<std::int64_t>(i), r.name};
    m.bodies.push_back(describe_body(r, static_cast<std::int64_t>(i), model, report));
    if (m.bodies.back().bone >= 0 && static_cast<std::size_t>(m.bodies.back().bone) >= nb) m.bodies.back().bone = -1;
  }
  if (model.soft_body_count > 0) {
    const std::string none;
    Reporter{warnings, model_index, "soft bodies", -1, none}(
        std::to_string(model.soft_body_count) +
        " soft bod" + (model.soft_body_count == 1 ? "y (PMX 2.1) is" : "ies (PMX 2.1) are") +
        " not simulated: the vertices follow their bones only (skinning, no cloth; docs/PHYSICS.md)");
  }
  const auto nr = static_cast<std::int64_t>(m.bodies.size());
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    const model::Joint& j = model.joints[i];
    const Reporter report{warnings, model_index, "joints", static_cast<std::int64_t>(i), j.name};
    JointDesc d;
    d.name = j.name;
    d.record = static_cast<std::int64_t>(i);
    d.a = j.rigid_body_a;
    d.b = j.rigid_body_b;
    if (d.a < 0 || d.a >= nr || d.b < 0 || d.b >= nr) {
      report("rigid body " + std::to_string(d.a < 0 || d.a >= nr ? d.a : d.b) + " does not exist; joint ignored");
      continue;
    }
    if (d.a == d.b) {
      report("joins rigid body " + std::to_string(d.a) + " to itself; joint ignored");
      continue;
    }
    d.type = j.type;
    if (static_cast<unsigned>(j.type) > 5) {
      report("type " + std::to_string(static_cast<unsigned>(j.type)) + " is unknown; spring 6DOF used");
      d.type = model::JointType::spring_6dof;
    }
    Vec3 position = j.position, rotation = j.rotation;
    finite3(position, "position", report);
    finite3(rotation, "rotation", report);
    d.frame = btTransform(euler_yxz(rotation), bt(position));
    d.linear_lower = j.linear_lower;
    d.linear_upper = j.linear_upper;
    d.angular_lower = j.angular_lower;
    d.angular_upper = j.angular_upper;
    d.linear_spring = j.linear_spring;
    d.angular_spring = j.angular_spring;
    finite3(d.linear_lower, "linear lower limit", report);
    finite3(d.linear_upper, "linear upper limit", report);
    finite3(d.angular_lower, "angular lower limit", report);
    finite3(d.angular_upper, "angular upper limit", report);
    finite3(d.linear_spring, "linear spring", report);
    finite3(d.angular_spring, "angular spring", report);
    for (int k = 0; k < 3; ++k) {
      const auto u = static_cast<std::size_t>(k);
      if (d.linear_lower[u] > d.linear_upper[u])
        report(std::string("linear limit ") + axis_name(k) + " is inverted (lower > upper): the axis is free (Bullet's rule)");
      if (d.angular_lower[u] > d.angular_upper[u])
        report(std::string("angular limit ") + axis_name(k) + " is inverted (lower > upper): the axis is free (Bullet's rule)");
    }
    m.joints.push_back(std::move(d));
  }
  // babylon-mmd's rule (from a blog analysis of MMD): a joint between a simulated body A and a
  // mode-2 body B whose bone's parent is A's bone makes B behave as mode 1 (and the mirror case).
  auto promote = [&](BodyDesc& a, BodyDesc& b) {
    if (a.mode != model::RigidBodyMode::follow_bone && b.mode == model::RigidBodyMode::physics_with_bone && a.bone >= 0 &&
        b.bone >= 0 && m.parents[static_cast<std::size_t>(b.bone)] == a.bone)
      b.mode = model::RigidBodyMode::physics;
  };
  for (const JointDesc& j : m.joints) {
    promote(m.bodies[static_cast<std::size_t>(j.a)], m.bodies[static_cast<std::size_t>(j.b)]);
    promote(m.bodies[static_cast<std::size_t>(j.b)], m.bodies[static_cast<std::size_t>(j.a)]);
  }
  // Bones written back, and the bones below them recomputed afterwards.
  m.writer.assign(nb, -1);
  for (std::size_t i = 0; i < m.bodies.size(); ++i)
    if (m.bodies[i].mode != model::RigidBodyMode::follow_bone && m.bodies[i].bone >= 0)
      m.writer[static_cast<std::size_t>(m.bodies[i].bone)] = static_cast<std::int32_t>(i);
  for (std::size_t b = 0; b < nb; ++b)
    if (m.writer[b] >= 0) m.driven.push_back(static_cast<std::uint32_t>(b));
  std::vector<std::uint8_t> before(nb, 0), below(nb, 0);
  for (const anim::ScheduleStep& s : skeleton.schedule_before_physics())
    if (s.kind == anim::ScheduleStep::bone && s.index < nb) before[s.index] = 1;
  // Parent-first order (depth, then index): parents never loop (build_skeleton checks).
  std::vector<std::uint32_t> depth(nb, 0), order(nb);
  for (std::size_t b = 0; b < nb; ++b)
    for (std::int32_t p = m.parents[b]; p >= 0 && depth[b] <= nb; p = m.parents[static_cast<std::size_t>(p)]) ++depth[b];
  for (std::size_t b = 0; b < nb; ++b) order[b] = static_cast<std::uint32_t>(b);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return depth[x] < depth[y]; });
  for (std::uint32_t b : order) {
    const std::int32_t p = m.parents[b];
    const bool parent_moves = p >= 0 && (m.writer[static_cast<std::size_t>(p)] >= 0 || below[static_cast<std::size_t>(p)]);
    if (m.writer[b] < 0 && parent_moves && before[b]) {
      below[b] = 1;
      m.refresh.push_back(b);
    }
  }
  return m;
}

}  // namespace mmdkit::physics::detail
