// The CCD step and chains solved on local copies (ik.cpp's internals, included by ik.cpp only):
// single-axis and Euler limits, 4-lane helpers, the CCD step's 4-lane form (Lanes4 over
// ik_ccd.inl: ccd_step, local_turn), LocalPaths / LocalChain and
// local_load / local_turn / local_advance / local_store. Rules: docs/EVALUATION-BONES.md "IK".
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

#include "anim/pose_internal.hpp"

namespace mmdkit::anim {
namespace {

float limit_angle(float angle, float lo, float hi, bool use_axis) noexcept {
  if (angle < lo) {
    const float diff = 2.0f * lo - angle;
    return (diff <= hi && use_axis) ? diff : lo;
  }
  if (angle > hi) {
    const float diff = 2.0f * hi - angle;
    return (diff >= lo && use_axis) ? diff : hi;
  }
  return angle;
}

constexpr Vec3 kX{1, 0, 0}, kY{0, 1, 0}, kZ{0, 0, 1};


// (IK · local) limited per Euler axis; returns the new rotation (IK · local, limited).
Quat limit_rotation(const IkLink& link, const Quat& q, bool use_axis) noexcept {
  const Mat4 m = rigid_matrix(q, Vec3{});  // column-major: m[4c + r]
  const float threshold = 88.0f * std::numbers::pi_v<float> / 180.0f;
  auto clampt = [&](float a) { return std::clamp(a, -threshold, threshold); };
  float rx = 0, ry = 0, rz = 0;
  switch (link.order) {
    case IkEulerOrder::yxz: {  // R = Ry · Rx · Rz
      rx = clampt(std::asin(std::clamp(-m[9], -1.0f, 1.0f)));
      float c = std::cos(rx);
      if (c != 0.0f) c = 1.0f / c;
      ry = std::atan2(m[8] * c, m[10] * c);
      rz = std::atan2(m[1] * c, m[5] * c);
      break;
    }
    case IkEulerOrder::zyx: {  // R = Rz · Ry · Rx
      ry = clampt(std::asin(std::clamp(-m[2], -1.0f, 1.0f)));
      float c = std::cos(ry);
      if (c != 0.0f) c = 1.0f / c;
      rx = std::atan2(m[6] * c, m[10] * c);
      rz = std::atan2(m[1] * c, m[0] * c);
      break;
    }
    case IkEulerOrder::xzy: {  // R = Rx · Rz · Ry
      rz = clampt(std::asin(std::clamp(-m[4], -1.0f, 1.0f)));
      float c = std::cos(rz);
      if (c != 0.0f) c = 1.0f / c;
      rx = std::atan2(m[6] * c, m[5] * c);
      ry = std::atan2(m[8] * c, m[0] * c);
      break;
    }
  }
  rx = limit_angle(rx, link.lower[0], link.upper[0], use_axis);
  ry = limit_angle(ry, link.lower[1], link.upper[1], use_axis);
  rz = limit_angle(rz, link.lower[2], link.upper[2], use_axis);
  const Quat qx = pm::axis_angle(kX, rx), qy = pm::axis_angle(kY, ry), qz = pm::axis_angle(kZ, rz);
  switch (link.order) {
    case IkEulerOrder::yxz: return pm::mul(pm::mul(qy, qx), qz);
    case IkEulerOrder::zyx: return pm::mul(pm::mul(qz, qy), qx);
    case IkEulerOrder::xzy: break;
  }
  return pm::mul(pm::mul(qx, qz), qy);
}

// Sine and cosine of half of atan2(a, b) (the half angle lies in [−π/2, π/2], cosine ≥ 0), from
// the half-angle identities: the larger of the two by a square root, the other from
// sin·cos = sin(angle) / 2, so that neither loses precision.
inline void half_angle(float a, float b, float& hs, float& hc) noexcept {
  const float r = std::sqrt(a * a + b * b);
  if (!(r > 0.0f)) {  // atan2(0, 0) = 0 (NaN stays NaN below)
    hs = r == 0.0f ? 0.0f : r;
    hc = 1.0f;
    return;
  }
  if (b >= 0.0f) {
    hc = std::sqrt((r + b) / (2.0f * r));
    hs = a / (2.0f * r * hc);
  } else {
    hs = std::copysign(std::sqrt((r - b) / (2.0f * r)), a);
    hc = a / (2.0f * r * hs);
  }
}

// Sine and cosine of 88° (the middle Euler angle's clamp) as float.
const float kSin88 = std::sin(88.0f * std::numbers::pi_v<float> / 180.0f);
const float kCos88 = std::cos(88.0f * std::numbers::pi_v<float> / 180.0f);

// Single-axis link (IkLink::axis_limit_valid): (IK · local) limited as limit_rotation does — the
// other two Euler angles are limited to [0, 0] and vanish — but on half angles: the link's angle
// θ = atan2(a, b) in its Euler order, limited with limit_angle's rules using precomputed sines and
// cosines (half angles in [−π/2, π/2] compare by their sines). Returns (IK · local), limited.
[[gnu::always_inline]] inline pm::V4 limit_single_axis(const IkLink& link, pm::V4 q, bool use_axis) noexcept {
  // Matrix elements of q as rigid_matrix computes them (m[4c + r]).
  const float x = q[0], y = q[1], z = q[2], w = q[3];
  float a = 0.0f, b = 1.0f;
  int axis = 0;
  switch (link.axis) {
    case IkSolveAxis::x:
      if (link.order == IkEulerOrder::zyx) {  // rx = atan2(m6, m10) (the middle angle's cosine > 0 cancels)
        a = 2.0f * (y * z + w * x);
        b = 1.0f - 2.0f * (x * x + y * y);
      } else {  // YXZ: rx = asin(−m9), the middle angle, clamped to ±88°
        const float sin_t = kSin88, cos_t = kCos88;
        const float s = std::clamp(-(2.0f * (y * z - w * x)), -1.0f, 1.0f);
        if (s > sin_t) {
          a = sin_t;
          b = cos_t;
        } else if (s < -sin_t) {
          a = -sin_t;
          b = cos_t;
        } else {
          a = s;
          b = std::sqrt(1.0f - s * s);
        }
      }
      break;
    case IkSolveAxis::y:  // YXZ: ry = atan2(m8, m10)
      axis = 1;
      a = 2.0f * (x * z + w * y);
      b = 1.0f - 2.0f * (x * x + y * y);
      break;
    case IkSolveAxis::z:  // YXZ: rz = atan2(m1, m5)
      axis = 2;
      a = 2.0f * (x * y + w * z);
      b = 1.0f - 2.0f * (x * x + z * z);
      break;
    case IkSolveAxis::none:
    case IkSolveAxis::fixed:
      return q;  // not called for these
  }
  float hs, hc;
  half_angle(a, b, hs, hc);
  const IkAxisLimit& k = link.axis_limit;
  if (hs < k.lo_half_sin) {  // below lower: reflect (2·lo − θ) or clamp
    if (use_axis && hs >= k.reflect_lo_half_sin) {
      const float s2 = k.lo_sin * hc - k.lo_cos * hs, c2 = k.lo_cos * hc + k.lo_sin * hs;  // half = lo − θ/2
      hs = s2;
      hc = c2;
    } else {
      hs = k.lo_half_sin;
      hc = k.lo_half_cos;
    }
  } else if (hs > k.hi_half_sin) {  // above upper
    if (use_axis && hs <= k.reflect_hi_half_sin) {
      const float s2 = k.hi_sin * hc - k.hi_cos * hs, c2 = k.hi_cos * hc + k.hi_sin * hs;
      hs = s2;
      hc = c2;
    } else {
      hs = k.hi_half_sin;
      hc = k.hi_half_cos;
    }
  }
  pm::V4 r{0.0f, 0.0f, 0.0f, hc};
  r[axis] = hs;
  return r;
}

// 4-lane helpers for the CCD step: each lane computes what the scalar pm:: functions compute, in
// the same order (lane 3 of a 3-vector is ignored: it never reaches lanes 0..2).
using pm::V4;
inline V4 splat(float v) noexcept { return V4{v, v, v, v}; }
// pm::conj: the sign of x, y, z flipped (negation, as the scalar code).
inline V4 conj4(V4 q) noexcept { return __builtin_shufflevector(-q, q, 0, 1, 2, 7); }
// pm::cross: {a1·b2 − a2·b1, a2·b0 − a0·b2, a0·b1 − a1·b0}.
inline V4 cross4(V4 a, V4 b) noexcept {
  return __builtin_shufflevector(a, a, 1, 2, 0, 3) * __builtin_shufflevector(b, b, 2, 0, 1, 3) -
         __builtin_shufflevector(a, a, 2, 0, 1, 3) * __builtin_shufflevector(b, b, 1, 2, 0, 3);
}
// pm::dot = (a0·b0 + a1·b1) + a2·b2 of the products p = a·b.
inline float hsum3(V4 p) noexcept { return p[0] + p[1] + p[2]; }
// The four pm::dot sums of the products p, q, r, t at once: {Σp, Σq, Σr, Σt}, each (x + y) + z.
inline V4 hsum3x4(V4 p, V4 q, V4 r, V4 t) noexcept {
  const V4 pq01 = __builtin_shufflevector(p, q, 0, 4, 1, 5), rt01 = __builtin_shufflevector(r, t, 0, 4, 1, 5);
  const V4 pq23 = __builtin_shufflevector(p, q, 2, 6, 3, 7), rt23 = __builtin_shufflevector(r, t, 2, 6, 3, 7);
  const V4 x = __builtin_shufflevector(pq01, rt01, 0, 1, 4, 5), y = __builtin_shufflevector(pq01, rt01, 2, 3, 6, 7);
  const V4 z = __builtin_shufflevector(pq23, rt23, 0, 1, 4, 5);
  return (x + y) + z;
}
constexpr V4 kIdentity4{0.0f, 0.0f, 0.0f, 1.0f};

// The 4-lane form of ik_ccd.inl's lane type: one chain, a 3-vector or quaternion in one V4 (lane 3
// of a 3-vector is ignored), F a float, M a bool; the Euler limit and the uncapped step (bad data)
// exist in this form only (ik_wide.inl's twins have neither).
struct Lanes4 {
  using F = float;
  using M = bool;
  using P = V4;
  using Q = V4;
  static constexpr bool kInnerOnly = false;
  const IkSolver& sv;
  std::size_t c;  // the link's index in its chain (the uncapped step's unit_angle × (c + 1))
  [[gnu::always_inline]] static F splat(float v) noexcept { return v; }
  [[gnu::always_inline]] static F sqrt(F v) noexcept { return std::sqrt(v); }
  [[gnu::always_inline]] static M lt(F a, F b) noexcept { return a < b; }
  [[gnu::always_inline]] static M ge(F a, F b) noexcept { return a >= b; }
  [[gnu::always_inline]] static M gt(F a, F b) noexcept { return a > b; }
  [[gnu::always_inline]] static bool all(M m) noexcept { return m; }
  [[gnu::always_inline]] static bool none(M m) noexcept { return !m; }
  template <class T>
  [[gnu::always_inline]] static T sel(M m, T a, T b) noexcept {
    return m ? a : b;
  }
  [[gnu::always_inline]] static P add(P a, P b) noexcept { return a + b; }
  [[gnu::always_inline]] static P sub(P a, P b) noexcept { return a - b; }
  [[gnu::always_inline]] static P scale(P a, F s) noexcept { return a * ::mmdkit::anim::splat(s); }
  [[gnu::always_inline]] static P cross(P a, P b) noexcept { return cross4(a, b); }
  [[gnu::always_inline]] static F dot(P a, P b) noexcept { return hsum3(a * b); }
  [[gnu::always_inline]] static void dots(P cr, P e, P g, F& cr2, F& n2, F& dt) noexcept {
    const V4 d = hsum3x4(cr * cr, e * e, g * g, e * g);  // |cr|², |e|², |g|², e·g
    cr2 = d[0];
    n2 = d[1] * d[2];
    dt = d[3];
  }
  [[gnu::always_inline]] static Q mul(Q a, Q b) noexcept { return pm::mul4(a, b); }
  [[gnu::always_inline]] static Q conj(Q q) noexcept { return conj4(q); }
  [[gnu::always_inline]] static P rotate(Q q, P v) noexcept { return pm::rotate4(q, v); }
  [[gnu::always_inline]] static P unit(IkSolveAxis a) noexcept {
    return a == IkSolveAxis::x ? V4{1.0f, 0.0f, 0.0f, 0.0f} : a == IkSolveAxis::y ? V4{0.0f, 1.0f, 0.0f, 0.0f}
                                                                                  : V4{0.0f, 0.0f, 1.0f, 0.0f};
  }
  [[gnu::always_inline]] static F sign(F d) noexcept { return d >= 0.0f ? 1.0f : -1.0f; }
  [[gnu::always_inline]] static Q axis_quat(P axis, F hs, F hc) noexcept {
    return __builtin_shufflevector(axis * ::mmdkit::anim::splat(hs), ::mmdkit::anim::splat(hc), 0, 1, 2, 4);
  }
  [[gnu::always_inline]] static M skip(F cr2, F n2) noexcept { return !(cr2 >= 1.0e-8f * n2) || n2 == 0.0f; }
  [[gnu::always_inline]] static bool cap_valid(const IkLink& link) noexcept { return link.cap_half_valid; }
  [[gnu::always_inline]] static F cap_s(const IkLink& link) noexcept { return link.cap_half_sin; }
  [[gnu::always_inline]] static F cap_c(const IkLink& link) noexcept { return link.cap_half_cos; }
  [[gnu::always_inline]] void uncapped(const IkLink&, F cl, F dt, F& hs, F& hc) const noexcept {
    const float angle = std::min(sv.unit_angle * static_cast<float>(c + 1), std::atan2(cl, dt));
    hs = std::sin(0.5f * angle);
    hc = std::cos(0.5f * angle);
  }
  [[gnu::always_inline]] static Q limit(const IkLink& link, Q q, bool use_axis) noexcept {
    return link.axis_limit_valid ? limit_single_axis(link, q, use_axis)
                                 : pm::load4(limit_rotation(link, pm::store4(q), use_axis));
  }
};

namespace ccd4 {
#define MMDKIT_CCD_FN [[gnu::always_inline]] inline
#include "anim/ik_ccd.inl"
#undef MMDKIT_CCD_FN
}  // namespace ccd4

// One CCD step of `link` (index c in its chain): the new IK rotation of the link, or false when the
// link is skipped (its two directions are parallel). e = link − effector, g = link − goal (model
// space), parent_rot = the link's parent's model rotation, ik = its current IK rotation,
// append_rot = its local rotation before IK.
[[gnu::always_inline]] inline bool ccd_step(const IkSolver& sv, const IkLink& link, std::size_t c, bool use_axis,
                                            V4 e, V4 g, V4 parent_rot, V4 ik, V4 append_rot, V4& out) noexcept {
  bool skipped;
  return ccd4::ccd_lanes(Lanes4{sv, c}, link, use_axis, e, g, parent_rot, ik, append_rot, skipped, out);
}

// Chains with a local path (IkSolver::local_path: at most kIkLocalPath bones, none with an append
// transform) are solved on local 4-lane copies of their transforms (the same arithmetic as
// model_from_local / recompose, without the workspace's indirections), then written back. A group
// (IkGroup) keeps its chains in one LocalPaths, each from its own `base`.
// Cap: the most path bones (kIkGroupPath for one frame's group, kMaxFrameBatch times that for the
// groups of a batch of frames, solve_ik_group_frames).
template <std::uint32_t Cap>
struct LocalPathsOf {
  static constexpr std::uint32_t kCap = Cap;
  static constexpr int kProt = static_cast<int>(Cap), kNoParentRow = static_cast<int>(2 * Cap);
  // rot: the path bones' model rotations, then (from kProt) the constant model rotation of each
  // path bone's parent when that is outside the path, then identity.
  V4 rot[2 * Cap + 1], pos[Cap], lrot[Cap], lpos[Cap], ik[Cap], arot[Cap];
  int parent[Cap];  // index in these arrays; −1: a bone outside the path (constant); −2: none
  int prow[Cap];    // where in rot the parent's model rotation is (identity for none)
};
using LocalPaths = LocalPathsOf<kIkGroupPath>;
using FramePaths = LocalPathsOf<kIkGroupPath * kMaxFrameBatch>;

// One chain's state and CCD cursor (iteration `it`, link `c`).
struct LocalChain {
  const IkSolver* sv;
  const IkLink* links;
  std::uint32_t nlinks, iterations, half, base, n, eff;
  // below[j]: the path bones below path bone base + j (its descendants within the path), as a bit
  // mask relative to base; inner: path bones that are the parent of another path bone (the others
  // need their model rotation only once, after the solve).
  std::uint32_t below[kIkLocalPath], inner;
  V4 goal4;
  std::uint32_t it, c;
  bool use_axis;
};

// Loads the chain `sv` (path evaluated, effector not at the goal) into st from `base`.
template <class St>
[[gnu::always_inline]] inline void local_load(const Skeleton& s, const PoseEvaluator::Buffers& ws, const IkSolver& sv,
                                              std::uint32_t base, const Vec3& goal, St& st, LocalChain& ch) noexcept {
  constexpr int kProt = St::kProt, kNoParentRow = St::kNoParentRow;
  const auto path = s.ik_bone_lists().subspan(sv.path_begin, sv.path_end - sv.path_begin);
  const std::size_t n = path.size();
  ch.sv = &sv;
  ch.links = s.ik_links().data() + sv.link_begin;
  ch.nlinks = sv.link_end - sv.link_begin;
  ch.iterations = sv.iterations;
  ch.half = sv.iterations >> 1;
  ch.base = base;
  ch.n = static_cast<std::uint32_t>(n);
  ch.eff = base;
  ch.inner = 0;
  ch.goal4 = pm::load3(goal);
  ch.it = 0;
  ch.c = 0;
  ch.use_axis = 0 < ch.half;
  st.rot[kNoParentRow] = kIdentity4;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t b = path[j];
    const std::size_t a = base + j;
    ch.below[j] = 0;
    if (b == sv.effector) ch.eff = static_cast<std::uint32_t>(a);
    st.rot[a] = pm::load4(ws.model_rot[b]);
    st.pos[a] = pm::load3(ws.model_pos[b]);
    st.lrot[a] = pm::load4(ws.local_rot[b]);
    st.lpos[a] = pm::load3(ws.local_pos[b]);
    st.ik[a] = pm::load4(ws.ik_rot[b]);
    st.arot[a] = pm::load4(ws.append_rot[b]);
    const std::int32_t p = s.parents()[b];
    int pj = p < 0 ? -2 : -1;
    for (std::size_t i = 0; i < j; ++i)
      if (static_cast<std::int32_t>(path[i]) == p) pj = static_cast<int>(i);
    if (pj == -1) st.rot[kProt + a] = pm::load4(ws.model_rot[static_cast<std::size_t>(p)]);
    st.parent[a] = pj >= 0 ? static_cast<int>(base) + pj : pj;
    st.prow[a] = pj >= 0 ? st.parent[a] : pj == -1 ? kProt + static_cast<int>(a) : kNoParentRow;
    if (pj >= 0) {
      ch.inner |= 1u << pj;
      for (int x = pj; x >= 0; x = st.parent[base + static_cast<std::size_t>(x)] - static_cast<int>(base))
        ch.below[x] |= 1u << j;  // parents come first
    }
  }
}

// One CCD turn of the chain's link at its cursor (local_step without the cursor's advance).
template <class St>
[[gnu::always_inline]] inline void local_turn(St& st, LocalChain& ch) noexcept {
  ccd4::ccd_turn(st, Lanes4{*ch.sv, ch.c}, ch.links[ch.c], ch.use_axis, ch.goal4, ch.base, ch.eff,
                 ch.below[ch.links[ch.c].path_index], ch.inner);
}

// The cursor advanced past a turn (the effector distance tested after the last link of an
// iteration); false when the chain is done.
template <class St>
[[gnu::always_inline]] inline bool local_advance(St& st, LocalChain& ch) noexcept {
  if (++ch.c < ch.nlinks) return true;
  ch.c = 0;
  const V4 d = ch.goal4 - st.pos[ch.eff];
  if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < 1.0e-8f) return false;
  if (++ch.it >= ch.iterations) return false;
  ch.use_axis = ch.it < ch.half;
  return true;
}

// One CCD turn of the chain's link at its cursor, then the cursor advanced; false when the chain
// is done. The same operations, in the same order, as the loop `for it: for c: turn; if reached: break`.
template <class St>
[[gnu::always_inline]] inline bool local_step(St& st, LocalChain& ch) noexcept {
  local_turn(st, ch);
  return local_advance(st, ch);
}

// The CCD turns of a group's running chains, one turn of each unfinished chain in turn (the
// baseline build; run_group_wide in ik_wide.inl adds twins in lockstep).
template <class St>
[[gnu::always_inline]] inline void run_group_narrow(St& st, LocalChain** active, std::uint32_t running) noexcept {
  while (running > 0) {
    for (std::uint32_t q = 0; q < running;) {
      if (local_step(st, *active[q]))
        ++q;
      else
        active[q] = active[--running];  // done: the last one takes its place
    }
  }
}

// After the solve: model rotations of the bones without a child on the path, then the chain
// written back to the workspace.
template <class St>
[[gnu::always_inline]] inline void local_store(const Skeleton& s, const PoseEvaluator::Buffers& ws, St& st,
                                               const LocalChain& ch) noexcept {
  const auto path = s.ik_bone_lists().subspan(ch.sv->path_begin, ch.n);
  for (std::size_t jl = 0; jl < ch.n; ++jl) {
    if (ch.inner >> jl & 1u) continue;
    const std::size_t j = ch.base + jl;
    st.rot[j] = st.parent[j] == -2 ? st.lrot[j] : pm::mul4(st.rot[st.prow[j]], st.lrot[j]);
  }
  for (std::size_t jl = 0; jl < ch.n; ++jl) {
    const std::uint32_t b = path[jl];
    const std::size_t j = ch.base + jl;
    ws.model_rot[b] = pm::store4(st.rot[j]);
    ws.model_pos[b] = pm::store3(st.pos[j]);
    ws.local_rot[b] = pm::store4(st.lrot[j]);
    ws.ik_rot[b] = pm::store4(st.ik[j]);
  }
}

}  // namespace
}  // namespace mmdkit::anim
