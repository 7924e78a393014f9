// Bone evaluation over caller-owned buffers (pose.hpp): prepass, schedule, matrices; the ISA
// choice (eval_isa.hpp) and the transform helpers (bone_math.hpp).
#include "mmdkit/anim/pose.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "anim/pose_internal.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"

namespace mmdkit::anim {

void PoseWorkspace::reset(const Skeleton& skeleton) {
  const std::size_t n = skeleton.bone_count();
  anim_rot_.assign(n, kIdentityQuat);
  anim_pos_.assign(n, Vec3{});
  append_rot_.assign(n, kIdentityQuat);
  append_pos_.assign(n, Vec3{});
  ik_rot_.assign(n, kIdentityQuat);
  local_rot_.assign(n, kIdentityQuat);
  local_pos_.assign(n, Vec3{});
  model_rot_.assign(n, kIdentityQuat);
  model_pos_.assign(n, Vec3{});
  model_mat_.assign(n, rigid_matrix(kIdentityQuat, Vec3{}));
  skin_mat_.assign(n, rigid_matrix(kIdentityQuat, Vec3{}));
  stage_.assign(n, 0);
  skeleton_id_ = skeleton.id();
  for (const ScheduleStep& st : skeleton.schedule_after_physics())
    if (st.kind == ScheduleStep::bone) stage_[st.index] = 1;
}

void PoseWorkspace::set_model_transform(std::size_t bone, const Quat& rotation, const Vec3& position) noexcept {
  if (bone >= model_rot_.size()) return;
  model_rot_[bone] = quat_normalize(rotation);
  model_pos_[bone] = position;
  model_mat_[bone] = rigid_matrix(model_rot_[bone], position);
}

Mat4 rigid_matrix(const Quat& q, const Vec3& t) noexcept {
  const float x = q[0], y = q[1], z = q[2], w = q[3];
  const float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y,
              wz = w * z;
  return {1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz),        2.0f * (xz - wy),        0.0f,
          2.0f * (xy - wz),        1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx),        0.0f,
          2.0f * (xz + wy),        2.0f * (yz - wx),        1.0f - 2.0f * (xx + yy), 0.0f,
          t[0],                    t[1],                    t[2],                    1.0f};
}

Quat project_to_axis(const Quat& rotation, const Vec3& axis) noexcept {
  const float al2 = pm::dot(axis, axis);
  if (!(al2 > 0.0f) || !std::isfinite(al2)) return kIdentityQuat;
  const Vec3 a = pm::scale(axis, 1.0f / std::sqrt(al2));
  const Quat q = quat_normalize(rotation);
  const Vec3 v{q[0], q[1], q[2]};
  const float len = std::sqrt(pm::dot(v, v));
  if (len < 1e-8f) return kIdentityQuat;
  float angle = 2.0f * std::atan2(len, q[3]);
  if (pm::dot(v, a) < 0.0f) angle = -angle;
  return pm::axis_angle(a, angle);
}

[[gnu::always_inline]] inline void PoseEvaluator::prepass(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) noexcept {
  const std::size_t n = s.bone_count();
  const Buffers b = Buffers::of(s, ws);
  const std::size_t nl = std::min(n, in.local.size()), nm = std::min(n, in.morph.size());
  const BonePose* local = in.local.data();
  const BoneMorphOffset* morph = in.morph.data();
  const pm::V4 identity = pm::load4(kIdentityQuat), zero{0.0f, 0.0f, 0.0f, 0.0f};
  for (std::size_t i = 0; i < n; ++i) {
    pm::V4 r = identity, t = zero;
    if (i < nl) {
      r = pm::load4(local[i].rotation);
      t = pm::load3(local[i].translation);
    }
    const BoneDesc& d = s.desc(i);
    if (d.has_fixed_axis) [[unlikely]]
      r = pm::load4(project_to_axis(pm::store4(r), d.fixed_axis));
    if (i < nm) {  // r = morph · r, t = t + morph t (pm::mul, pm::add)
      r = pm::mul4(pm::load4(morph[i].rotation), r);
      t = t + pm::load3(morph[i].translation);
    }
    b.anim_rot[i] = pm::store4(r);
    b.anim_pos[i] = pm::store3(t);
    b.append_rot[i] = kIdentityQuat;
    b.append_pos[i] = Vec3{};
    b.ik_rot[i] = kIdentityQuat;
    b.local_rot[i] = kIdentityQuat;
    b.local_pos[i] = Vec3{};
    b.model_rot[i] = kIdentityQuat;
    b.model_pos[i] = Vec3{};
  }
}

void PoseEvaluator::update_bone(const Skeleton& s, PoseWorkspace& ws, std::uint32_t i) noexcept {
  update_bone(s, ws, Buffers::of(s, ws), i);
}

void PoseEvaluator::recompose(const Skeleton& s, PoseWorkspace& ws, std::uint32_t i) noexcept {
  ws.local_rot_[i] = pm::mul(ws.ik_rot_[i], ws.append_rot_[i]);
  model_from_local(s, ws, i);
}

[[gnu::always_inline]] inline void PoseEvaluator::run(const Skeleton& s, std::span<const ScheduleStep> steps,
                                                     const PoseInput& in, PoseWorkspace& ws) noexcept {
  const Buffers b = Buffers::of(s, ws);
  for (const ScheduleStep& st : steps) {
    if (st.kind == ScheduleStep::bone) {
      update_bone(s, ws, b, st.index);
    } else if (st.kind == ScheduleStep::ik_group) {
      solve_ik_group(s, ws, s.ik_groups()[st.index], in.ik_enabled);
    } else {
      if (st.index < in.ik_enabled.size() && in.ik_enabled[st.index] == 0) continue;
      solve_ik(s, ws, st.index);
    }
  }
}

[[gnu::always_inline]] inline void PoseEvaluator::run_frames(const Skeleton& s, std::span<const ScheduleStep> steps,
                                                            const PoseInput* in, PoseWorkspace* const* ws,
                                                            std::uint32_t frames) noexcept {
  Buffers b[kMaxFrameBatch];
  for (std::uint32_t f = 0; f < frames; ++f) b[f] = Buffers::of(s, *ws[f]);
  for (const ScheduleStep& st : steps) {
    if (st.kind == ScheduleStep::bone) {
      for (std::uint32_t f = 0; f < frames; ++f) update_bone(s, *ws[f], b[f], st.index);
    } else if (st.kind == ScheduleStep::ik_group) {
      solve_ik_group_frames(s, ws, in, frames, s.ik_groups()[st.index]);
    } else {
      for (std::uint32_t f = 0; f < frames; ++f) {
        if (st.index < in[f].ik_enabled.size() && in[f].ik_enabled[st.index] == 0) continue;
        solve_ik(s, *ws[f], st.index);
      }
    }
  }
}

namespace {

using pm::V4;

// Rows of the 4×4 transpose of a, b, c, d (lanes: a0 b0 c0 d0 / a1 b1 c1 d1 / ...).
[[gnu::always_inline]] inline void transpose4(V4 a, V4 b, V4 c, V4 d, V4& r0, V4& r1, V4& r2, V4& r3) noexcept {
  const V4 ab01 = __builtin_shufflevector(a, b, 0, 4, 1, 5), cd01 = __builtin_shufflevector(c, d, 0, 4, 1, 5);
  const V4 ab23 = __builtin_shufflevector(a, b, 2, 6, 3, 7), cd23 = __builtin_shufflevector(c, d, 2, 6, 3, 7);
  r0 = __builtin_shufflevector(ab01, cd01, 0, 1, 4, 5);
  r1 = __builtin_shufflevector(ab01, cd01, 2, 3, 6, 7);
  r2 = __builtin_shufflevector(ab23, cd23, 0, 1, 4, 5);
  r3 = __builtin_shufflevector(ab23, cd23, 2, 3, 6, 7);
}

[[gnu::always_inline]] inline void store4(float* out, V4 v) noexcept { __builtin_memcpy(out, &v, sizeof v); }

}  // namespace

template <bool Skin>
[[gnu::always_inline]] inline void PoseEvaluator::finish(const Skeleton& s, PoseWorkspace& ws) noexcept {
  const std::size_t n = s.bone_count();
  const Vec3* bind = s.bind_positions().data();
  const Quat* rot = ws.model_rot_.data();
  const Vec3* pos = ws.model_pos_.data();
  Mat4* model = ws.model_mat_.data();
  Mat4* skin = ws.skin_mat_.data();
  // Four bones at a time, one bone per lane: every lane computes rigid_matrix's elements and
  // pm::rotate's translation with the same scalar operations (a − b is a + (−b), so no lane
  // differs from the one-bone formulas):
  //   model = rigid_matrix(q, p); skin = the same with translation p − rotate(q, bind).
  std::size_t i = 0;
  const V4 one{1.0f, 1.0f, 1.0f, 1.0f}, two{2.0f, 2.0f, 2.0f, 2.0f}, zero{0.0f, 0.0f, 0.0f, 0.0f};
  for (; i + 4 <= n; i += 4) {
    V4 x, y, z, w, px, py, pz, unused;
    transpose4(pm::load4(rot[i]), pm::load4(rot[i + 1]), pm::load4(rot[i + 2]), pm::load4(rot[i + 3]), x, y, z, w);
    transpose4(pm::load3(pos[i]), pm::load3(pos[i + 1]), pm::load3(pos[i + 2]), pm::load3(pos[i + 3]), px, py, pz, unused);
    const V4 xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    const V4 m0 = one - two * (yy + zz), m1 = two * (xy + wz), m2 = two * (xz - wy);
    const V4 m4 = two * (xy - wz), m5 = one - two * (xx + zz), m6 = two * (yz + wx);
    const V4 m8 = two * (xz + wy), m9 = two * (yz - wx), m10 = one - two * (xx + yy);
    V4 c0[4], c1[4], c2[4], c3[4];
    transpose4(m0, m1, m2, zero, c0[0], c0[1], c0[2], c0[3]);
    transpose4(m4, m5, m6, zero, c1[0], c1[1], c1[2], c1[3]);
    transpose4(m8, m9, m10, zero, c2[0], c2[1], c2[2], c2[3]);
    transpose4(px, py, pz, one, c3[0], c3[1], c3[2], c3[3]);
    for (std::size_t k = 0; k < 4; ++k) {
      float* m = model[i + k].data();
      store4(m, c0[k]);
      store4(m + 4, c1[k]);
      store4(m + 8, c2[k]);
      store4(m + 12, c3[k]);
    }
    if constexpr (Skin) {
      V4 bx, by, bz, k3[4];
      transpose4(pm::load3(bind[i]), pm::load3(bind[i + 1]), pm::load3(bind[i + 2]), pm::load3(bind[i + 3]), bx, by,
                 bz, unused);
      // pm::rotate(q, bind): t = 2(u × v), r = (v + w·t) + u × t.
      const V4 t0 = two * (y * bz - z * by), t1 = two * (z * bx - x * bz), t2 = two * (x * by - y * bx);
      const V4 rx = (bx + w * t0) + (y * t2 - z * t1), ry = (by + w * t1) + (z * t0 - x * t2),
               rz = (bz + w * t2) + (x * t1 - y * t0);
      transpose4(px - rx, py - ry, pz - rz, one, k3[0], k3[1], k3[2], k3[3]);
      for (std::size_t k = 0; k < 4; ++k) {
        float* sk = skin[i + k].data();
        store4(sk, c0[k]);
        store4(sk + 4, c1[k]);
        store4(sk + 8, c2[k]);
        store4(sk + 12, k3[k]);
      }
    }
  }
  for (; i < n; ++i) {
    const Quat& q = rot[i];
    const Vec3& p = pos[i];
    model[i] = rigid_matrix(q, p);
    if constexpr (!Skin) continue;
    Mat4& sk = skin[i];
    sk = model[i];
    const Vec3 rb = pm::rotate(q, bind[i]);
    sk[12] = p[0] - rb[0];
    sk[13] = p[1] - rb[1];
    sk[14] = p[2] - rb[2];
  }
}

Result<void> validate(const Skeleton& s, const PoseWorkspace& ws) {
  if (ws.skeleton_id() == 0 && s.id() != 0)
    return make_error(ErrorCode::invalid_argument, "the workspace was never sized (PoseWorkspace::reset)",
                      "pose workspace");
  if (ws.skeleton_id() != s.id())
    return make_error(ErrorCode::invalid_argument,
                      "the workspace was sized for another skeleton (id " + std::to_string(ws.skeleton_id()) +
                          ", " + std::to_string(ws.bone_count()) + " bones), not this one (id " +
                          std::to_string(s.id()) + ", " + std::to_string(s.bone_count()) + " bones)",
                      "pose workspace");
  if (ws.bone_count() != s.bone_count())
    return make_error(ErrorCode::invalid_argument,
                      "the workspace has " + std::to_string(ws.bone_count()) + " bones, the skeleton " +
                          std::to_string(s.bone_count()),
                      "pose workspace");
  return {};
}

// --- the two builds of a stage (eval_isa) -----------------------------------------------------

namespace {

bool cpu_has_avx() noexcept {
#ifdef MMDKIT_EVAL_HAVE_AVX
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx");
#else
  return false;
#endif
}

std::atomic<EvalIsa>& active_eval_isa() noexcept {
  static std::atomic<EvalIsa> isa{cpu_has_avx() ? EvalIsa::avx : EvalIsa::baseline};
  return isa;
}

void before_physics_baseline(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) noexcept {
  PoseEvaluator::prepass(s, in, ws);
  PoseEvaluator::run(s, s.plan_before_physics(), in, ws);
}
void after_physics_baseline(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) noexcept {
  PoseEvaluator::run(s, s.plan_after_physics(), in, ws);
  if (ws.skinning_matrices_on())
    PoseEvaluator::finish<true>(s, ws);
  else
    PoseEvaluator::finish<false>(s, ws);
}
// Several frames (frames ≤ kMaxFrameBatch): one body each, compiled into both builds below.
[[gnu::always_inline]] inline void frames_before_physics_body(const Skeleton& s, const PoseInput* in,
                                                              PoseWorkspace* const* ws, std::uint32_t frames) noexcept {
  for (std::uint32_t f = 0; f < frames; ++f) PoseEvaluator::prepass(s, in[f], *ws[f]);
  PoseEvaluator::run_frames(s, s.plan_before_physics(), in, ws, frames);
}
[[gnu::always_inline]] inline void frames_after_physics_body(const Skeleton& s, const PoseInput* in,
                                                             PoseWorkspace* const* ws, std::uint32_t frames) noexcept {
  PoseEvaluator::run_frames(s, s.plan_after_physics(), in, ws, frames);
  for (std::uint32_t f = 0; f < frames; ++f) {
    if (ws[f]->skinning_matrices_on())
      PoseEvaluator::finish<true>(s, *ws[f]);
    else
      PoseEvaluator::finish<false>(s, *ws[f]);
  }
}
void frames_before_physics_baseline(const Skeleton& s, const PoseInput* in, PoseWorkspace* const* ws,
                                    std::uint32_t frames) noexcept {
  frames_before_physics_body(s, in, ws, frames);
}
void frames_after_physics_baseline(const Skeleton& s, const PoseInput* in, PoseWorkspace* const* ws,
                                   std::uint32_t frames) noexcept {
  frames_after_physics_body(s, in, ws, frames);
}
#ifdef MMDKIT_EVAL_HAVE_AVX
[[gnu::target("avx")]] void frames_before_physics_avx(const Skeleton& s, const PoseInput* in, PoseWorkspace* const* ws,
                                                      std::uint32_t frames) noexcept {
  frames_before_physics_body(s, in, ws, frames);
}
[[gnu::target("avx")]] void frames_after_physics_avx(const Skeleton& s, const PoseInput* in, PoseWorkspace* const* ws,
                                                     std::uint32_t frames) noexcept {
  frames_after_physics_body(s, in, ws, frames);
}
#endif

// The spans of evaluate_frames*: equal lengths, distinct workspaces, each valid for s.
Result<void> validate_frames(const Skeleton& s, std::span<const PoseInput> in, std::span<PoseWorkspace* const> ws) {
  if (in.size() != ws.size())
    return make_error(ErrorCode::invalid_argument,
                      std::to_string(in.size()) + " inputs for " + std::to_string(ws.size()) + " workspaces",
                      "pose workspace");
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (ws[i] == nullptr)
      return make_error(ErrorCode::invalid_argument, "workspace " + std::to_string(i) + " is null", "pose workspace");
    for (std::size_t j = 0; j < i; ++j)
      if (ws[j] == ws[i])
        return make_error(ErrorCode::invalid_argument,
                          "workspaces " + std::to_string(j) + " and " + std::to_string(i) + " are the same",
                          "pose workspace");
    if (ws[i]->skeleton_id() != s.id() || ws[i]->bone_count() != s.bone_count() || s.id() == 0)
      if (auto v = validate(s, *ws[i]); !v) return v;
  }
  return {};
}

using FramesStage = void (*)(const Skeleton&, const PoseInput*, PoseWorkspace* const*, std::uint32_t) noexcept;

Result<void> run_frames_stage(const Skeleton& s, std::span<const PoseInput> in, std::span<PoseWorkspace* const> ws,
                              FramesStage baseline, [[maybe_unused]] FramesStage avx) {
  if (auto v = validate_frames(s, in, ws); !v) return v;
  FramesStage stage = baseline;
#ifdef MMDKIT_EVAL_HAVE_AVX
  if (eval_avx()) stage = avx;
#endif
  for (std::size_t i = 0; i < ws.size(); i += kMaxFrameBatch) {
    const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(kMaxFrameBatch, ws.size() - i));
    stage(s, in.data() + i, ws.data() + i, n);
  }
  return {};
}

#ifdef MMDKIT_EVAL_HAVE_AVX
// The same calls compiled for AVX (their bodies are always inlined): three-operand encodings, no
// FMA (not enabled), so every operation rounds as in the baseline build.
[[gnu::target("avx")]] void before_physics_avx(const Skeleton& s, const PoseInput& in,
                                                            PoseWorkspace& ws) noexcept {
  PoseEvaluator::prepass(s, in, ws);
  PoseEvaluator::run(s, s.plan_before_physics(), in, ws);
}
[[gnu::target("avx")]] void after_physics_avx(const Skeleton& s, const PoseInput& in,
                                                           PoseWorkspace& ws) noexcept {
  PoseEvaluator::run(s, s.plan_after_physics(), in, ws);
  if (ws.skinning_matrices_on())
    PoseEvaluator::finish<true>(s, ws);
  else
    PoseEvaluator::finish<false>(s, ws);
}
#endif

}  // namespace

bool eval_avx() noexcept { return active_eval_isa().load(std::memory_order_relaxed) == EvalIsa::avx; }

EvalIsa eval_isa() noexcept { return active_eval_isa().load(std::memory_order_relaxed); }

EvalIsa set_eval_isa(EvalIsa isa) noexcept {
  if (isa == EvalIsa::avx && !cpu_has_avx()) isa = EvalIsa::baseline;
  active_eval_isa().store(isa, std::memory_order_relaxed);
  return isa;
}

Result<void> evaluate_before_physics(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) {
  if (ws.skeleton_id() != s.id() || ws.bone_count() != s.bone_count() || s.id() == 0) {
    if (auto v = validate(s, ws); !v) return v;
  }
#ifdef MMDKIT_EVAL_HAVE_AVX
  if (eval_avx()) {
    before_physics_avx(s, in, ws);
    return {};
  }
#endif
  before_physics_baseline(s, in, ws);
  return {};
}

Result<void> evaluate_after_physics(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) {
  if (ws.skeleton_id() != s.id() || ws.bone_count() != s.bone_count() || s.id() == 0) {
    if (auto v = validate(s, ws); !v) return v;
  }
#ifdef MMDKIT_EVAL_HAVE_AVX
  if (eval_avx()) {
    after_physics_avx(s, in, ws);
    return {};
  }
#endif
  after_physics_baseline(s, in, ws);
  return {};
}

Result<void> evaluate(const Skeleton& s, const PoseInput& in, PoseWorkspace& ws) {
  if (auto r = evaluate_before_physics(s, in, ws); !r) return r;
  return evaluate_after_physics(s, in, ws);
}

Result<void> evaluate_frames_before_physics(const Skeleton& s, std::span<const PoseInput> in,
                                            std::span<PoseWorkspace* const> ws) {
#ifdef MMDKIT_EVAL_HAVE_AVX
  return run_frames_stage(s, in, ws, frames_before_physics_baseline, frames_before_physics_avx);
#else
  return run_frames_stage(s, in, ws, frames_before_physics_baseline, nullptr);
#endif
}

Result<void> evaluate_frames_after_physics(const Skeleton& s, std::span<const PoseInput> in,
                                           std::span<PoseWorkspace* const> ws) {
#ifdef MMDKIT_EVAL_HAVE_AVX
  return run_frames_stage(s, in, ws, frames_after_physics_baseline, frames_after_physics_avx);
#else
  return run_frames_stage(s, in, ws, frames_after_physics_baseline, nullptr);
#endif
}

Result<void> evaluate_frames(const Skeleton& s, std::span<const PoseInput> in, std::span<PoseWorkspace* const> ws) {
  if (auto r = evaluate_frames_before_physics(s, in, ws); !r) return r;
  return evaluate_frames_after_physics(s, in, ws);
}

}  // namespace mmdkit::anim
