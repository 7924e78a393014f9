// Internal to the bone evaluation (pose.cpp, append.cpp, ik.cpp): float quaternion helpers that
// inline, and the evaluator that PoseWorkspace befriends.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/eval_isa.hpp"
#include "mmdkit/anim/pose.hpp"
#include "core/quat_product.hpp"

// x86-64: the evaluation is compiled a second time with AVX encodings (eval_isa(), pose.hpp).
#if defined(__x86_64__) && defined(__GNUC__)
#define MMDKIT_EVAL_HAVE_AVX 1
#endif

namespace mmdkit::anim {

/// True when the AVX build of the evaluation runs (eval_isa() == EvalIsa::avx).
bool eval_avx() noexcept;

namespace pm {

// Quaternion product and rotation on 4-lane GCC/Clang vectors (SSE on x86-64, NEON on ARM). Each lane
// adds the same products in the same order as the scalar formulas in the comments (negation and
// multiplication by ±1 are exact), so the results are the same floats, bit for bit.
using V4 = float __attribute__((vector_size(16)));
inline V4 load4(const Quat& q) noexcept {
  V4 v;
  __builtin_memcpy(&v, q.data(), sizeof v);
  return v;
}
inline V4 load3(const Vec3& a) noexcept { return V4{a[0], a[1], a[2], 0.0f}; }
inline Quat store4(V4 v) noexcept {
  Quat q;
  __builtin_memcpy(q.data(), &v, sizeof v);
  return q;
}
inline Vec3 store3(V4 v) noexcept { return {v[0], v[1], v[2]}; }

// a·b: x = aw·bx + ax·bw + ay·bz − az·by, y = aw·by − ax·bz + ay·bw + az·bx,
//      z = aw·bz + ax·by − ay·bx + az·bw, w = aw·bw − ax·bx − ay·by − az·bz.
inline V4 mul4(V4 a, V4 b) noexcept {  // core/quat_product.hpp's lane form
  V4 r;
  ::mmdkit::detail::quat_product_lanes(a, b, r);
  return r;
}
inline Quat mul(const Quat& a, const Quat& b) noexcept { return store4(mul4(load4(a), load4(b))); }
inline Quat conj(const Quat& q) noexcept { return {-q[0], -q[1], -q[2], q[3]}; }
// v + 2w(u × v) + 2u × (u × v): t = 2(u × v), result = (v + w·t) + u × t.
inline V4 rotate4(V4 q, V4 v) noexcept {
  const V4 qyzx = __builtin_shufflevector(q, q, 1, 2, 0, 3), qzxy = __builtin_shufflevector(q, q, 2, 0, 1, 3);
  const V4 t = V4{2.0f, 2.0f, 2.0f, 2.0f} * (qyzx * __builtin_shufflevector(v, v, 2, 0, 1, 3) - qzxy * __builtin_shufflevector(v, v, 1, 2, 0, 3));
  return (v + __builtin_shufflevector(q, q, 3, 3, 3, 3) * t) + (qyzx * __builtin_shufflevector(t, t, 2, 0, 1, 3) - qzxy * __builtin_shufflevector(t, t, 1, 2, 0, 3));
}
inline Vec3 rotate(const Quat& q, const Vec3& v) noexcept { return store3(rotate4(load4(q), load3(v))); }

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
  /// The workspace's and skeleton's arrays as plain pointers, taken once per pass (the loops over
  /// bones then need no reloads through the vectors).
  struct Buffers {
    Quat* anim_rot;
    Vec3* anim_pos;
    Quat* append_rot;
    Vec3* append_pos;
    Quat* ik_rot;
    Quat* local_rot;
    Vec3* local_pos;
    Quat* model_rot;
    Vec3* model_pos;
    const std::int32_t* parent;
    const Vec3* offset;
    static Buffers of(const Skeleton& s, PoseWorkspace& ws) noexcept {
      return {ws.anim_rot_.data(),  ws.anim_pos_.data(),  ws.append_rot_.data(), ws.append_pos_.data(),
              ws.ik_rot_.data(),    ws.local_rot_.data(), ws.local_pos_.data(),  ws.model_rot_.data(),
              ws.model_pos_.data(), s.parents().data(),   s.bind_offsets().data()};
    }
  };
  /// update_bone over Buffers: the same operations (pm::mul / rotate / add on 4 lanes).
  [[gnu::always_inline]] static inline void update_bone(const Skeleton& s, PoseWorkspace& ws, const Buffers& b,
                                                         std::uint32_t i) noexcept {
    const BoneDesc& d = s.desc(i);
    pm::V4 r, t;
    if (d.append_rotation || d.append_translation) [[unlikely]] {
      Quat rq = b.anim_rot[i];
      Vec3 tv = b.anim_pos[i];
      apply_append(s, ws, i, rq, tv);
      r = pm::load4(rq);
      t = pm::load3(tv);
    } else {
      r = pm::load4(b.anim_rot[i]);
      t = pm::load3(b.anim_pos[i]);
    }
    b.append_rot[i] = pm::store4(r);
    b.append_pos[i] = pm::store3(t);
    const pm::V4 lrot = pm::mul4(pm::load4(b.ik_rot[i]), r), lpos = pm::load3(b.offset[i]) + t;
    b.local_rot[i] = pm::store4(lrot);
    b.local_pos[i] = pm::store3(lpos);
    const std::int32_t p = b.parent[i];
    if (p < 0) {
      b.model_rot[i] = b.local_rot[i];
      b.model_pos[i] = b.local_pos[i];
    } else {
      const auto pi = static_cast<std::size_t>(p);
      const pm::V4 prot = pm::load4(b.model_rot[pi]);
      b.model_rot[i] = pm::store4(pm::mul4(prot, lrot));
      b.model_pos[i] = pm::store3(pm::load3(b.model_pos[pi]) + pm::rotate4(prot, lpos));
    }
  }
  // prepass, run, finish and solve_ik_body are defined (always inlined) in pose.cpp / ik.cpp, into
  // a baseline and an AVX build of each stage.
  static inline void prepass(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) noexcept;
  /// Append + local + model transform of one bone (append.cpp holds the append part).
  static void update_bone(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone) noexcept;
  /// Local rotation = IK · append rotation and model transform, without recomputing the append.
  static void recompose(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone) noexcept;
  static void apply_append(const Skeleton& s, PoseWorkspace& ws, std::uint32_t bone, Quat& rot, Vec3& pos) noexcept;
  static void solve_ik(const Skeleton& s, PoseWorkspace& ws, std::uint32_t solver) noexcept;
  static inline void solve_ik_body(const Skeleton& s, PoseWorkspace& ws, std::uint32_t solver) noexcept;
  /// The enabled chains of an IkGroup, interleaved (ik.cpp); `enabled` as PoseInput::ik_enabled.
  static void solve_ik_group(const Skeleton& s, PoseWorkspace& ws, const IkGroup& g,
                             std::span<const std::uint8_t> enabled) noexcept;
  template <bool Wide>
  static inline void solve_ik_group_body(const Skeleton& s, PoseWorkspace& ws, const IkGroup& g,
                                         std::span<const std::uint8_t> enabled) noexcept;
  /// The enabled chains of an IkGroup in `frames` (≤ kMaxFrameBatch) workspaces at once, every
  /// frame's chains interleaved as one group (ik.cpp); each frame gets solve_ik_group's floats.
  static void solve_ik_group_frames(const Skeleton& s, PoseWorkspace* const* ws, const PoseInput* in,
                                    std::uint32_t frames, const IkGroup& g) noexcept;
  template <bool Wide>
  static inline void solve_ik_group_frames_body(const Skeleton& s, PoseWorkspace* const* ws, const PoseInput* in,
                                                std::uint32_t frames, const IkGroup& g) noexcept;
  /// run() over `frames` workspaces: each bone step for every frame, IK groups together.
  static inline void run_frames(const Skeleton& s, std::span<const ScheduleStep> steps, const PoseInput* in,
                                PoseWorkspace* const* ws, std::uint32_t frames) noexcept;
  /// Start of a solve (reset, effector and path evaluated, goal tests); false: nothing more to do.
  static inline bool ik_prepare(const Skeleton& s, PoseWorkspace& ws, const Buffers& buf, const IkSolver& sv,
                                Vec3& goal) noexcept;
  static inline void run(const Skeleton& s, std::span<const ScheduleStep> steps, const PoseInput& in,
                         PoseWorkspace& ws) noexcept;
  /// Model matrices, and with Skin the skinning matrices (PoseWorkspace::set_skinning_matrices).
  template <bool Skin>
  static inline void finish(const Skeleton& s, PoseWorkspace& ws) noexcept;
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
