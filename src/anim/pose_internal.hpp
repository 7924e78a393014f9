// Internal to the bone evaluation (pose.cpp, append.cpp, ik.cpp): float quaternion helpers that
// inline, and the evaluator that PoseWorkspace befriends.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "mmdkit/anim/pose.hpp"

namespace mmdkit::anim {

namespace pm {

inline Quat mul(const Quat& a, const Quat& b) noexcept {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}
inline Quat conj(const Quat& q) noexcept { return {-q[0], -q[1], -q[2], q[3]}; }
inline Vec3 rotate(const Quat& q, const Vec3& v) noexcept {
  // v + 2w(u × v) + 2u × (u × v)
  const float tx = 2.0f * (q[1] * v[2] - q[2] * v[1]);
  const float ty = 2.0f * (q[2] * v[0] - q[0] * v[2]);
  const float tz = 2.0f * (q[0] * v[1] - q[1] * v[0]);
  return {v[0] + q[3] * tx + (q[1] * tz - q[2] * ty), v[1] + q[3] * ty + (q[2] * tx - q[0] * tz),
          v[2] + q[3] * tz + (q[0] * ty - q[1] * tx)};
}
inline Vec3 add(const Vec3& a, const Vec3& b) noexcept { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 sub(const Vec3& a, const Vec3& b) noexcept { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 scale(const Vec3& a, float s) noexcept { return {a[0] * s, a[1] * s, a[2] * s}; }
inline float dot(const Vec3& a, const Vec3& b) noexcept { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) noexcept {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline Vec3 normalized(const Vec3& a) noexcept {
  const float l2 = dot(a, a);
  if (!(l2 > 0.0f)) return a;
  const float inv = 1.0f / std::sqrt(l2);
  return scale(a, inv);
}
inline float dist2(const Vec3& a, const Vec3& b) noexcept {
  const Vec3 d = sub(a, b);
  return dot(d, d);
}
inline Quat axis_angle(const Vec3& unit_axis, float angle) noexcept {
  const float h = 0.5f * angle, s = std::sin(h);
  return {unit_axis[0] * s, unit_axis[1] * s, unit_axis[2] * s, std::cos(h)};
}

}  // namespace pm

struct PoseEvaluator {
  static void prepass(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) noexcept;
  /// Append + local + model transform of one bone (append.cpp holds the append part).
  static void update_bone(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone) noexcept;
  /// Local rotation = IK · append rotation and model transform, without recomputing the append.
  static void recompose(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone) noexcept;
  static void apply_append(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone, Quat& rot, Vec3& pos) noexcept;
  static void solve_ik(const Skeleton& s, PoseWorkspace& ws, std::uint32_t solver) noexcept;
  static void run(const Skeleton& s, std::span<const ScheduleStep> steps, const PoseInput& in, PoseWorkspace& ws) noexcept;
  static void finish(const Skeleton& s, PoseWorkspace& ws) noexcept;
  [[gnu::always_inline]] static inline void model_from_local(const Skeleton& s, PoseWorkspace& ws,
                                                             std::uint32_t bone) noexcept {
    const std::int32_t p = s.parents()[bone];
    if (p < 0) {
      ws.model_rot_[bone] = ws.local_rot_[bone];
      ws.model_pos_[bone] = ws.local_pos_[bone];
    } else {
      const auto pi = static_cast<std::size_t>(p);
      ws.model_rot_[bone] = pm::mul(ws.model_rot_[pi], ws.local_rot_[bone]);
      ws.model_pos_[bone] = pm::add(ws.model_pos_[pi], pm::rotate(ws.model_rot_[pi], ws.local_pos_[bone]));
    }
  }
};

}  // namespace mmdkit::anim
