// Twin chains turned in lockstep on 8-lane AVX vectors (ik.cpp's internals, included by ik.cpp
// only): AoS pairs (two chains) and SoA bundles (three to eight: the same chain of several frames,
// solve_ik_group_frames), and run_group_wide, which interleaves them with single chains.
// docs/EVALUATION-BONES.md "twin chains in lockstep" and "frames together".
#pragma once

#include <bit>

#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "anim/ik_local.inl"

namespace mmdkit::anim {
namespace {
#ifdef MMDKIT_EVAL_HAVE_AVX
// Bundles: up to 8 chains of the same shape (twins: the left and right leg, hair or toe of one
// frame, and the same chains of the other frames of a batch, solve_ik_group_frames) turned in
// lockstep on 8-lane AVX vectors in SoA form: lane k holds chain k, one vector per component
// (x of every chain's position, y, ...). Every lane runs the scalar operations the 4-lane code
// above runs on its chain (AVX, no FMA: each sum and product rounds as there; a·(−b) is −(a·b)
// and a + (−b) is a − b in IEEE arithmetic, so the 4-lane code's sign vectors become
// subtractions), so each chain gets the floats it gets alone. Where that code branches on a
// chain's value (the half-angle formula's sign, the cap, the limit's reflect-or-clamp, the 88°
// clamp, a skipped turn), both sides are computed and each lane takes its own (blends). A chain
// that reaches its goal stops being written; the bundle runs until every chain is done.
using V8 = float __attribute__((vector_size(32)));
#define MMDKIT_WIDE [[gnu::always_inline, gnu::target("avx")]] inline

MMDKIT_WIDE V8 splat8(float v) noexcept { return V8{v, v, v, v, v, v, v, v}; }
// Per-lane select: m's lanes all ones (a comparison's result) take a, zero take b.
// One vblendvps, written as inline assembly: GCC 12 folds _mm256_blendv_ps into a vector
// condition, which it then splits into per-lane scalar branches inside a target("avx") function of
// a baseline build (seen where the blended values were constants).
MMDKIT_WIDE V8 sel(V8 m, V8 a, V8 b) noexcept {
  V8 r;
  asm("vblendvps %3, %1, %2, %0" : "=x"(r) : "x"(a), "x"(b), "x"(m));
  return r;
}
MMDKIT_WIDE V8 lt(V8 a, V8 b) noexcept { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
MMDKIT_WIDE V8 ge(V8 a, V8 b) noexcept { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
MMDKIT_WIDE V8 gt(V8 a, V8 b) noexcept { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
MMDKIT_WIDE V8 le(V8 a, V8 b) noexcept { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
MMDKIT_WIDE V8 eq(V8 a, V8 b) noexcept { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
MMDKIT_WIDE V8 or8(V8 a, V8 b) noexcept { return _mm256_or_ps(a, b); }
MMDKIT_WIDE int lanes(V8 m) noexcept { return _mm256_movemask_ps(m); }
MMDKIT_WIDE V8 sqrt8(V8 v) noexcept { return _mm256_sqrt_ps(v); }
MMDKIT_WIDE V8 copysign8(V8 mag, V8 sgn) noexcept {
  const V8 sign = splat8(-0.0f);
  return _mm256_or_ps(_mm256_andnot_ps(sign, mag), _mm256_and_ps(sign, sgn));
}

struct P8 {
  V8 x, y, z;
};
using Q8 = ::mmdkit::detail::QuatOf<V8>;  // core/quat_product.hpp
MMDKIT_WIDE P8 sub(const P8& a, const P8& b) noexcept { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
MMDKIT_WIDE P8 add(const P8& a, const P8& b) noexcept { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
MMDKIT_WIDE P8 scale(const P8& a, V8 s) noexcept { return {a.x * s, a.y * s, a.z * s}; }
// pm::dot's (x + y) + z.
MMDKIT_WIDE V8 dot(const P8& a, const P8& b) noexcept { return (a.x * b.x + a.y * b.y) + a.z * b.z; }
// cross4 per lane.
MMDKIT_WIDE P8 cross(const P8& a, const P8& b) noexcept {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// pm::mul4 per lane: core/quat_product.hpp's scalar form on lane vectors (SoA).
MMDKIT_WIDE Q8 mul(const Q8& a, const Q8& b) noexcept { return ::mmdkit::detail::quat_product(a, b); }
MMDKIT_WIDE Q8 conj(const Q8& q) noexcept { return {-q.x, -q.y, -q.z, q.w}; }
// pm::rotate4 per lane: t = 2(u × v), (v + w·t) + u × t.
MMDKIT_WIDE P8 rotate(const Q8& q, const P8& v) noexcept {
  const V8 two = splat8(2.0f);
  const V8 tx = two * (q.y * v.z - q.z * v.y), ty = two * (q.z * v.x - q.x * v.z), tz = two * (q.x * v.y - q.y * v.x);
  return {(v.x + q.w * tx) + (q.y * tz - q.z * ty), (v.y + q.w * ty) + (q.z * tx - q.x * tz),
          (v.z + q.w * tz) + (q.x * ty - q.y * tx)};
}
MMDKIT_WIDE P8 sel(V8 m, const P8& a, const P8& b) noexcept { return {sel(m, a.x, b.x), sel(m, a.y, b.y), sel(m, a.z, b.z)}; }
MMDKIT_WIDE Q8 sel(V8 m, const Q8& a, const Q8& b) noexcept {
  return {sel(m, a.x, b.x), sel(m, a.y, b.y), sel(m, a.z, b.z), sel(m, a.w, b.w)};
}

constexpr std::uint32_t kBundlePath = 8;   // longest path bundled
constexpr std::uint32_t kBundleLanes = 8;  // most chains in a bundle

// A link's per-chain values, one lane per chain.
struct LinkLanes {
  V8 cap_s, cap_c;                                            // IkLink::cap_half_sin / cos
  V8 lo_hs, lo_hc, hi_hs, hi_hc, lo_s, lo_c, hi_s, hi_c, rlo, rhi;  // IkLink::axis_limit
};

// A bundle's state: the path bones by their index on the path (LocalPaths' rows without the
// base), loaded when the bundle forms, stored back when it is done.
struct Bundle {
  // rot: path bones, then (from kBundlePath) the constant parent rotations, then identity.
  Q8 rot[2 * kBundlePath + 1], lrot[kBundlePath], ik[kBundlePath], arot[kBundlePath];
  P8 pos[kBundlePath], lpos[kBundlePath], goal;
  LinkLanes link[kBundlePath];
  int parent[kBundlePath];  // index on the path; −1: outside (constant); −2: none
  int prow[kBundlePath];    // row of rot holding the parent's model rotation
  LocalChain* chain[kBundleLanes];
  std::uint32_t count, eff, it, c;
  V8 done;  // lanes whose chain is done (or unused) keep their values
  bool use_axis;
};

// True when chains a and b (just loaded, cursors at the start) can turn in lockstep: the same
// cursor sequence, the same branches on structure, the same path shape; their values (positions,
// rotations, caps and limits) may differ.
template <class St>
inline bool twins(const St& st, const LocalChain& a, const LocalChain& b) noexcept {
  if (a.nlinks != b.nlinks || a.iterations != b.iterations || a.n != b.n || a.n > kBundlePath || a.nlinks > kBundlePath ||
      a.inner != b.inner || a.eff - a.base != b.eff - b.base)
    return false;
  for (std::uint32_t j = 0; j < a.n; ++j) {
    if (a.below[j] != b.below[j]) return false;
    const int pa = st.parent[a.base + j], pb = st.parent[b.base + j];
    if ((pa < 0 || pb < 0) ? pa != pb : pa - static_cast<int>(a.base) != pb - static_cast<int>(b.base)) return false;
  }
  for (std::uint32_t c = 0; c < a.nlinks; ++c) {
    const IkLink &la = a.links[c], &lb = b.links[c];
    if (la.axis != lb.axis) return false;
    if (la.axis == IkSolveAxis::fixed) continue;
    if (la.path_index != lb.path_index || la.has_limits != lb.has_limits || !la.cap_half_valid || !lb.cap_half_valid)
      return false;
    if (la.has_limits && (!la.axis_limit_valid || !lb.axis_limit_valid || la.order != lb.order)) return false;
  }
  return true;
}

MMDKIT_WIDE void put3(P8& d, std::uint32_t l, V4 v) noexcept {
  d.x[l] = v[0];
  d.y[l] = v[1];
  d.z[l] = v[2];
}
MMDKIT_WIDE void put4(Q8& d, std::uint32_t l, V4 v) noexcept {
  d.x[l] = v[0];
  d.y[l] = v[1];
  d.z[l] = v[2];
  d.w[l] = v[3];
}
MMDKIT_WIDE V4 get3(const P8& d, std::uint32_t l) noexcept { return V4{d.x[l], d.y[l], d.z[l], 0.0f}; }
MMDKIT_WIDE V4 get4(const Q8& d, std::uint32_t l) noexcept { return V4{d.x[l], d.y[l], d.z[l], d.w[l]}; }

// Loads chains ch[0..count) (twins of ch[0]) into b; unused lanes repeat chain 0 and are done.
template <class St>
MMDKIT_WIDE void bundle_load(const St& st, LocalChain* const* ch, std::uint32_t count, Bundle& b) noexcept {
  constexpr int kConst = static_cast<int>(kBundlePath), kNone = static_cast<int>(2 * kBundlePath);
  const LocalChain& a = *ch[0];
  b.count = count;
  b.eff = a.eff - a.base;
  b.it = 0;
  b.c = 0;
  b.use_axis = a.use_axis;
  b.rot[kNone] = {splat8(0.0f), splat8(0.0f), splat8(0.0f), splat8(1.0f)};
  for (std::uint32_t j = 0; j < a.n; ++j) {
    const int pa = st.parent[a.base + j];
    b.parent[j] = pa >= 0 ? pa - static_cast<int>(a.base) : pa;
    b.prow[j] = pa >= 0 ? b.parent[j] : pa == -1 ? kConst + static_cast<int>(j) : kNone;
  }
  int done = 0;
  for (std::uint32_t l = 0; l < kBundleLanes; ++l) {
    const LocalChain& c = *ch[l < count ? l : 0];
    if (l < count) b.chain[l] = ch[l];
    else done |= 1 << l;
    put3(b.goal, l, c.goal4);
    for (std::uint32_t j = 0; j < a.n; ++j) {
      const std::size_t r = c.base + j;
      put4(b.rot[j], l, st.rot[r]);
      put3(b.pos[j], l, st.pos[r]);
      put4(b.lrot[j], l, st.lrot[r]);
      put3(b.lpos[j], l, st.lpos[r]);
      put4(b.ik[j], l, st.ik[r]);
      put4(b.arot[j], l, st.arot[r]);
      if (b.parent[j] == -1) put4(b.rot[kConst + static_cast<int>(j)], l, st.rot[St::kProt + r]);
    }
    for (std::uint32_t k = 0; k < a.nlinks; ++k) {
      const IkLink& lk = c.links[k];
      LinkLanes& d = b.link[k];
      const IkAxisLimit& m = lk.axis_limit;
      d.cap_s[l] = lk.cap_half_sin;
      d.cap_c[l] = lk.cap_half_cos;
      d.lo_hs[l] = m.lo_half_sin;
      d.lo_hc[l] = m.lo_half_cos;
      d.hi_hs[l] = m.hi_half_sin;
      d.hi_hc[l] = m.hi_half_cos;
      d.lo_s[l] = m.lo_sin;
      d.lo_c[l] = m.lo_cos;
      d.hi_s[l] = m.hi_sin;
      d.hi_c[l] = m.hi_cos;
      d.rlo[l] = m.reflect_lo_half_sin;
      d.rhi[l] = m.reflect_hi_half_sin;
    }
  }
  b.done = V8{};
  for (std::uint32_t l = 0; l < kBundleLanes; ++l) b.done[l] = (done >> l & 1) ? std::bit_cast<float>(~0u) : 0.0f;
}

// The values a turn may change, back to the chains' rows.
template <class St>
MMDKIT_WIDE void bundle_store(St& st, const Bundle& b) noexcept {
  const std::uint32_t n = b.chain[0]->n;
  for (std::uint32_t l = 0; l < b.count; ++l) {
    const std::size_t base = b.chain[l]->base;
    for (std::uint32_t j = 0; j < n; ++j) {
      st.rot[base + j] = get4(b.rot[j], l);
      st.pos[base + j] = get3(b.pos[j], l);
      st.lrot[base + j] = get4(b.lrot[j], l);
      st.ik[base + j] = get4(b.ik[j], l);
    }
  }
}

// limit_single_axis's half angles per lane, written once for bundles and pairs: the link's
// single-axis angle of (IK · local) = (x, y, z, w) as a half-angle sine and cosine (half_angle),
// limited (reflected or clamped) to the link's range. `k` gives the limit's lanes (LinkLanes of a
// bundle, loaded once; PairLimits of twins, splatted where used): each lane runs the scalar code's
// operations on its chain, as the file comment says. Not called for axes none and fixed.
template <class Limits>
MMDKIT_WIDE void limit_half_angles8(const IkLink& link, V8 x, V8 y, V8 z, V8 w, const Limits& k, bool use_axis, V8& hs,
                                    V8& hc) noexcept {
  const V8 one = splat8(1.0f), two = splat8(2.0f), zero = splat8(0.0f);
  V8 a = zero, b = one;
  switch (link.axis) {
    case IkSolveAxis::x:
      if (link.order == IkEulerOrder::zyx) {
        a = two * (y * z + w * x);
        b = one - two * (x * x + y * y);
      } else {
        const V8 v = -(two * (y * z - w * x));
        const V8 s = sel(lt(v, -one), -one, sel(lt(one, v), one, v));  // std::clamp(v, −1, 1)
        const V8 sin_t = splat8(kSin88), cos_t = splat8(kCos88);
        const V8 above = gt(s, sin_t), below = lt(s, -sin_t);
        a = sel(above, sin_t, sel(below, -sin_t, s));
        b = sel(or8(above, below), cos_t, sqrt8(one - s * s));
      }
      break;
    case IkSolveAxis::y:
      a = two * (x * z + w * y);
      b = one - two * (x * x + y * y);
      break;
    case IkSolveAxis::z:
      a = two * (x * y + w * z);
      b = one - two * (x * x + z * z);
      break;
    case IkSolveAxis::none:
    case IkSolveAxis::fixed:
      hs = zero;
      hc = one;
      return;  // not called for these
  }
  // half_angle(a, b, hs, hc)
  const V8 r = sqrt8(a * a + b * b), twor = two * r;
  const V8 bad = _mm256_cmp_ps(r, zero, _CMP_NGT_UQ), pos = ge(b, zero);
  if (lanes(bad) == 0 && lanes(pos) == 0xFF) {
    hc = sqrt8((r + b) / twor);
    hs = a / (twor * hc);
  } else {
    const V8 hc1 = sqrt8((r + b) / twor), hs1 = a / (twor * hc1);
    const V8 hs2 = copysign8(sqrt8((r - b) / twor), a), hc2 = a / (twor * hs2);
    hs = sel(bad, sel(eq(r, zero), zero, r), sel(pos, hs1, hs2));
    hc = sel(bad, one, sel(pos, hc1, hc2));
  }
  const V8 lo_hs = k.lo_hs(), hi_hs = k.hi_hs();
  const V8 below = lt(hs, lo_hs), above = _mm256_andnot_ps(below, gt(hs, hi_hs));
  if (lanes(or8(below, above)) != 0) {
    const V8 rlo = use_axis ? ge(hs, k.rlo()) : zero;
    const V8 rhi = use_axis ? le(hs, k.rhi()) : zero;
    const V8 lo_s = k.lo_s(), lo_c = k.lo_c(), hi_s = k.hi_s(), hi_c = k.hi_c();
    const V8 s_lo = sel(rlo, lo_s * hc - lo_c * hs, lo_hs);
    const V8 c_lo = sel(rlo, lo_c * hc + lo_s * hs, k.lo_hc());
    const V8 s_hi = sel(rhi, hi_s * hc - hi_c * hs, hi_hs);
    const V8 c_hi = sel(rhi, hi_c * hc + hi_s * hs, k.hi_hc());
    const V8 hs2 = sel(below, s_lo, sel(above, s_hi, hs));
    hc = sel(below, c_lo, sel(above, c_hi, hc));
    hs = hs2;
  }
}

// A bundle link's limit lanes (limit_half_angles8).
struct BundleLimits {
  const LinkLanes& k;
  MMDKIT_WIDE V8 lo_hs() const noexcept { return k.lo_hs; }
  MMDKIT_WIDE V8 hi_hs() const noexcept { return k.hi_hs; }
  MMDKIT_WIDE V8 lo_hc() const noexcept { return k.lo_hc; }
  MMDKIT_WIDE V8 hi_hc() const noexcept { return k.hi_hc; }
  MMDKIT_WIDE V8 lo_s() const noexcept { return k.lo_s; }
  MMDKIT_WIDE V8 lo_c() const noexcept { return k.lo_c; }
  MMDKIT_WIDE V8 hi_s() const noexcept { return k.hi_s; }
  MMDKIT_WIDE V8 hi_c() const noexcept { return k.hi_c; }
  MMDKIT_WIDE V8 rlo() const noexcept { return k.rlo; }
  MMDKIT_WIDE V8 rhi() const noexcept { return k.rhi; }
};

// limit_single_axis per lane: (IK · local) limited on half angles.
MMDKIT_WIDE Q8 limit_single_axis8(const IkLink& link, const LinkLanes& k, const Q8& q, bool use_axis) noexcept {
  if (link.axis == IkSolveAxis::none || link.axis == IkSolveAxis::fixed) return q;  // not called for these
  V8 hs, hc;
  limit_half_angles8(link, q.x, q.y, q.z, q.w, BundleLimits{k}, use_axis, hs, hc);
  const V8 zero = splat8(0.0f);
  switch (link.axis) {
    case IkSolveAxis::y: return {zero, hs, zero, hc};
    case IkSolveAxis::z: return {zero, zero, hs, hc};
    default: return {hs, zero, zero, hc};
  }
}

// ik_ccd.inl's lane types on 8 lanes: what pairs and bundles share (F and M are V8s: a float
// per chain on its lanes, a comparison's lanes; the cap is always valid and the limit single-axis,
// as twins() requires).
struct Lanes8 {
  using F = V8;
  using M = V8;
  MMDKIT_WIDE static F splat(float v) noexcept { return splat8(v); }
  MMDKIT_WIDE static F sqrt(F v) noexcept { return sqrt8(v); }
  MMDKIT_WIDE static M lt(F a, F b) noexcept { return ::mmdkit::anim::lt(a, b); }
  MMDKIT_WIDE static M ge(F a, F b) noexcept { return ::mmdkit::anim::ge(a, b); }
  MMDKIT_WIDE static M gt(F a, F b) noexcept { return ::mmdkit::anim::gt(a, b); }
  MMDKIT_WIDE static bool all(M m) noexcept { return lanes(m) == 0xFF; }
  MMDKIT_WIDE static bool none(M m) noexcept { return lanes(m) == 0; }
  template <class T>
  MMDKIT_WIDE static T sel(M m, const T& a, const T& b) noexcept {
    return ::mmdkit::anim::sel(m, a, b);
  }
  MMDKIT_WIDE static F sign(F d) noexcept { return sel(ge(d, splat8(0.0f)), splat8(1.0f), -splat8(1.0f)); }
  MMDKIT_WIDE static M skip_parallel(F cr2, F n2) noexcept {
    return or8(_mm256_cmp_ps(cr2, splat8(1.0e-8f) * n2, _CMP_NGE_UQ), eq(n2, splat8(0.0f)));
  }
  static constexpr bool cap_valid(const IkLink&) noexcept { return true; }
  MMDKIT_WIDE static void uncapped(const IkLink&, F, F, F& hs, F& hc) noexcept {  // not called (cap_valid)
    hs = splat8(0.0f);
    hc = splat8(1.0f);
  }
};

// Bundles: SoA, one chain per lane (P8, Q8); `k` the link's per-chain values, `done` the chains
// that no longer turn.
struct LanesBundle : Lanes8 {
  using P = P8;
  using Q = Q8;
  static constexpr bool kInnerOnly = true;
  const LinkLanes& k;
  V8 done;
  MMDKIT_WIDE static P add(const P& a, const P& b) noexcept { return ::mmdkit::anim::add(a, b); }
  MMDKIT_WIDE static P sub(const P& a, const P& b) noexcept { return ::mmdkit::anim::sub(a, b); }
  MMDKIT_WIDE static P scale(const P& a, F s) noexcept { return ::mmdkit::anim::scale(a, s); }
  MMDKIT_WIDE static P cross(const P& a, const P& b) noexcept { return ::mmdkit::anim::cross(a, b); }
  MMDKIT_WIDE static F dot(const P& a, const P& b) noexcept { return ::mmdkit::anim::dot(a, b); }
  MMDKIT_WIDE static void dots(const P& cr, const P& e, const P& g, F& cr2, F& n2, F& dt) noexcept {
    cr2 = dot(cr, cr);
    n2 = dot(e, e) * dot(g, g);
    dt = dot(e, g);
  }
  MMDKIT_WIDE static Q mul(const Q& a, const Q& b) noexcept { return ::mmdkit::anim::mul(a, b); }
  MMDKIT_WIDE static Q conj(const Q& q) noexcept { return ::mmdkit::anim::conj(q); }
  MMDKIT_WIDE static P rotate(const Q& q, const P& v) noexcept { return ::mmdkit::anim::rotate(q, v); }
  MMDKIT_WIDE static P unit(IkSolveAxis a) noexcept {
    return {splat8(a == IkSolveAxis::x ? 1.0f : 0.0f), splat8(a == IkSolveAxis::y ? 1.0f : 0.0f),
            splat8(a == IkSolveAxis::z ? 1.0f : 0.0f)};
  }
  MMDKIT_WIDE static Q axis_quat(const P& axis, F hs, F hc) noexcept { return {axis.x * hs, axis.y * hs, axis.z * hs, hc}; }
  MMDKIT_WIDE M skip(F cr2, F n2) const noexcept { return or8(skip_parallel(cr2, n2), done); }
  MMDKIT_WIDE F cap_s(const IkLink&) const noexcept { return k.cap_s; }
  MMDKIT_WIDE F cap_c(const IkLink&) const noexcept { return k.cap_c; }
  MMDKIT_WIDE Q limit(const IkLink& link, const Q& q, bool use_axis) const noexcept {
    return limit_single_axis8(link, k, q, use_axis);
  }
};

namespace ccd8 {
#define MMDKIT_CCD_FN MMDKIT_WIDE
#include "anim/ik_ccd.inl"
#undef MMDKIT_CCD_FN
}  // namespace ccd8

// One CCD turn of the bundle at its cursor: local_turn of each chain, on its lane (`below`: the
// link's descendants on the path, LocalChain::below). A chain that skips the turn (parallel
// directions) or is done keeps its values: its lane computes whatever it computes and is not written.
// `inner`: the path bones with a child on the path (LocalChain::inner); the others' model
// rotations are read by nothing during the solve and are set by local_store from their final
// parents, so they are not computed here.
MMDKIT_WIDE void bundle_turn(Bundle& b, const IkLink& la, std::uint32_t below, std::uint32_t inner) noexcept {
  ccd8::ccd_turn(b, LanesBundle{{}, b.link[b.c], b.done}, la, b.use_axis, b.goal, 0, b.eff, below, inner);
}

// The bundle's cursor advanced past a turn (local_advance of each chain); false when every chain
// is done.
MMDKIT_WIDE bool bundle_advance(Bundle& b) noexcept {
  const LocalChain& a = *b.chain[0];
  if (++b.c < a.nlinks) return true;
  b.c = 0;
  const P8 d = sub(b.goal, b.pos[b.eff]);
  b.done = or8(b.done, lt(dot(d, d), splat8(1.0e-8f)));
  if (lanes(b.done) == 0xFF || ++b.it >= a.iterations) return false;
  b.use_axis = b.it < a.half;
  return true;
}

// Pairs: two twins in AoS form (lanes 0-3 one chain's 4-lane value, lanes 4-7 the other's),
// each lane running the operations of the 4-lane code; for two chains (one frame's legs, hair or
// toes) fewer instructions than a bundle using 2 of its 8 lanes. Where the 4-lane code branches on
// a chain's value, both sides are computed and each half keeps its own (blends); a pair turns in
// lockstep until one of the two is done, the other goes on alone.
template <int A, int B, int C, int D>
MMDKIT_WIDE V8 sh8(V8 v) noexcept {  // the same 4-lane shuffle in each half
  return __builtin_shufflevector(v, v, A, B, C, D, A + 4, B + 4, C + 4, D + 4);
}
MMDKIT_WIDE V8 cat(V4 lo, V4 hi) noexcept { return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7); }
MMDKIT_WIDE V4 lo4(V8 v) noexcept { return __builtin_shufflevector(v, v, 0, 1, 2, 3); }
MMDKIT_WIDE V4 hi4(V8 v) noexcept { return __builtin_shufflevector(v, v, 4, 5, 6, 7); }
MMDKIT_WIDE V8 splat2(float a, float b) noexcept { return V8{a, a, a, a, b, b, b, b}; }
// pm::mul4, pm::rotate4, conj4, cross4, hsum3x4 on each half.
MMDKIT_WIDE V8 mul8(V8 a, V8 b) noexcept {  // core/quat_product.hpp's lane form on two quaternions
  V8 r;
  ::mmdkit::detail::quat_product_lanes(a, b, r);
  return r;
}
MMDKIT_WIDE V8 rotate8(V8 q, V8 v) noexcept {
  const V8 qyzx = sh8<1, 2, 0, 3>(q), qzxy = sh8<2, 0, 1, 3>(q);
  const V8 t = splat8(2.0f) * (qyzx * sh8<2, 0, 1, 3>(v) - qzxy * sh8<1, 2, 0, 3>(v));
  return (v + sh8<3, 3, 3, 3>(q) * t) + (qyzx * sh8<2, 0, 1, 3>(t) - qzxy * sh8<1, 2, 0, 3>(t));
}
MMDKIT_WIDE V8 conj8(V8 q) noexcept { return __builtin_shufflevector(-q, q, 0, 1, 2, 11, 4, 5, 6, 15); }
MMDKIT_WIDE V8 cross8(V8 a, V8 b) noexcept {
  return sh8<1, 2, 0, 3>(a) * sh8<2, 0, 1, 3>(b) - sh8<2, 0, 1, 3>(a) * sh8<1, 2, 0, 3>(b);
}
MMDKIT_WIDE V8 hsum3_8(V8 p) noexcept { return (sh8<0, 0, 0, 0>(p) + sh8<1, 1, 1, 1>(p)) + sh8<2, 2, 2, 2>(p); }
MMDKIT_WIDE V8 hsum3x4_8(V8 p, V8 q, V8 r, V8 t) noexcept {
  const V8 pq01 = __builtin_shufflevector(p, q, 0, 8, 1, 9, 4, 12, 5, 13);
  const V8 rt01 = __builtin_shufflevector(r, t, 0, 8, 1, 9, 4, 12, 5, 13);
  const V8 pq23 = __builtin_shufflevector(p, q, 2, 10, 3, 11, 6, 14, 7, 15);
  const V8 rt23 = __builtin_shufflevector(r, t, 2, 10, 3, 11, 6, 14, 7, 15);
  const V8 x = __builtin_shufflevector(pq01, rt01, 0, 1, 8, 9, 4, 5, 12, 13);
  const V8 y = __builtin_shufflevector(pq01, rt01, 2, 3, 10, 11, 6, 7, 14, 15);
  const V8 z = __builtin_shufflevector(pq23, rt23, 0, 1, 8, 9, 4, 5, 12, 13);
  return (x + y) + z;
}

// Twin links' limit lanes: a's value over the low four lanes, b's over the high four
// (limit_half_angles8; splatted where used, as the 4-lane code has a float there).
struct PairLimits {
  const IkAxisLimit &a, &b;
  MMDKIT_WIDE V8 lo_hs() const noexcept { return splat2(a.lo_half_sin, b.lo_half_sin); }
  MMDKIT_WIDE V8 hi_hs() const noexcept { return splat2(a.hi_half_sin, b.hi_half_sin); }
  MMDKIT_WIDE V8 lo_hc() const noexcept { return splat2(a.lo_half_cos, b.lo_half_cos); }
  MMDKIT_WIDE V8 hi_hc() const noexcept { return splat2(a.hi_half_cos, b.hi_half_cos); }
  MMDKIT_WIDE V8 lo_s() const noexcept { return splat2(a.lo_sin, b.lo_sin); }
  MMDKIT_WIDE V8 lo_c() const noexcept { return splat2(a.lo_cos, b.lo_cos); }
  MMDKIT_WIDE V8 hi_s() const noexcept { return splat2(a.hi_sin, b.hi_sin); }
  MMDKIT_WIDE V8 hi_c() const noexcept { return splat2(a.hi_cos, b.hi_cos); }
  MMDKIT_WIDE V8 rlo() const noexcept { return splat2(a.reflect_lo_half_sin, b.reflect_lo_half_sin); }
  MMDKIT_WIDE V8 rhi() const noexcept { return splat2(a.reflect_hi_half_sin, b.reflect_hi_half_sin); }
};

// limit_single_axis of twin links a (low half) and b (high half): each half's value splatted
// over its four lanes where the 4-lane code has a float.
MMDKIT_WIDE V8 limit_single_axis_pair(const IkLink& la, const IkLink& lb, V8 q, bool use_axis) noexcept {
  if (la.axis == IkSolveAxis::none || la.axis == IkSolveAxis::fixed) return q;  // not called for these
  const V8 x = sh8<0, 0, 0, 0>(q), y = sh8<1, 1, 1, 1>(q), z = sh8<2, 2, 2, 2>(q), w = sh8<3, 3, 3, 3>(q);
  V8 hs, hc;
  limit_half_angles8(la, x, y, z, w, PairLimits{la.axis_limit, lb.axis_limit}, use_axis, hs, hc);
  const V8 zero_w = _mm256_blend_ps(splat8(0.0f), hc, 0x88);  // {0, 0, 0, hc} in each half
  switch (la.axis) {
    case IkSolveAxis::y: return _mm256_blend_ps(zero_w, hs, 0x22);
    case IkSolveAxis::z: return _mm256_blend_ps(zero_w, hs, 0x44);
    default: return _mm256_blend_ps(zero_w, hs, 0x11);
  }
}

// Pairs: AoS, lanes 0-3 chain a's 4-lane value, 4-7 chain b's (each half as Lanes4); a and b the
// twin links, whose values are splatted over their halves where the 4-lane form has a float.
struct LanesPair : Lanes8 {
  using P = V8;
  using Q = V8;
  static constexpr bool kInnerOnly = false;
  const IkLink &a, &b;
  MMDKIT_WIDE static P add(P x, P y) noexcept { return x + y; }
  MMDKIT_WIDE static P sub(P x, P y) noexcept { return x - y; }
  MMDKIT_WIDE static P scale(P x, F s) noexcept { return x * s; }
  MMDKIT_WIDE static P cross(P x, P y) noexcept { return cross8(x, y); }
  MMDKIT_WIDE static F dot(P x, P y) noexcept { return hsum3_8(x * y); }
  MMDKIT_WIDE static void dots(P cr, P e, P g, F& cr2, F& n2, F& dt) noexcept {
    const V8 d = hsum3x4_8(cr * cr, e * e, g * g, e * g);
    cr2 = sh8<0, 0, 0, 0>(d);
    n2 = sh8<1, 1, 1, 1>(d) * sh8<2, 2, 2, 2>(d);
    dt = sh8<3, 3, 3, 3>(d);
  }
  MMDKIT_WIDE static Q mul(Q x, Q y) noexcept { return mul8(x, y); }
  MMDKIT_WIDE static Q conj(Q q) noexcept { return conj8(q); }
  MMDKIT_WIDE static P rotate(Q q, P v) noexcept { return rotate8(q, v); }
  MMDKIT_WIDE static P unit(IkSolveAxis x) noexcept {
    return x == IkSolveAxis::x   ? V8{1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f}
           : x == IkSolveAxis::y ? V8{0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f}
                                 : V8{0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  }
  MMDKIT_WIDE static Q axis_quat(P axis, F hs, F hc) noexcept {
    return __builtin_shufflevector(axis * hs, hc, 0, 1, 2, 11, 4, 5, 6, 15);
  }
  MMDKIT_WIDE static M skip(F cr2, F n2) noexcept { return skip_parallel(cr2, n2); }
  MMDKIT_WIDE F cap_s(const IkLink&) const noexcept { return splat2(a.cap_half_sin, b.cap_half_sin); }
  MMDKIT_WIDE F cap_c(const IkLink&) const noexcept { return splat2(a.cap_half_cos, b.cap_half_cos); }
  MMDKIT_WIDE Q limit(const IkLink&, Q q, bool use_axis) const noexcept {
    return limit_single_axis_pair(a, b, q, use_axis);
  }
};

// Twins' state in 8-lane form (lanes 0-3 chain a, 4-7 chain b), path bones by their index on the
// path (LocalPaths' rows without the base): loaded when the two are paired, stored back when one
// of them is done.
constexpr std::uint32_t kPairPath = kBundlePath;  // longest path paired
struct PairPaths {
  // rot: path bones, then (from kPairPath) the constant parent rotations, then identity.
  V8 rot[2 * kPairPath + 1], pos[kPairPath], lrot[kPairPath], lpos[kPairPath], ik[kPairPath], arot[kPairPath];
  V8 goal;
  int parent[kPairPath];  // index on the path; −1: outside (constant); −2: none
  int prow[kPairPath];    // row of rot holding the parent's model rotation
  std::uint32_t eff;      // the effector's index on the path
};


template <class St>
MMDKIT_WIDE void pair_load(const St& st, const LocalChain& a, const LocalChain& b, PairPaths& p) noexcept {
  constexpr int kConst = static_cast<int>(kPairPath), kNone = static_cast<int>(2 * kPairPath);
  p.rot[kNone] = cat(kIdentity4, kIdentity4);
  p.goal = cat(a.goal4, b.goal4);
  p.eff = a.eff - a.base;
  for (std::uint32_t j = 0; j < a.n; ++j) {
    const std::size_t ja = a.base + j, jb = b.base + j;
    p.rot[j] = cat(st.rot[ja], st.rot[jb]);
    p.pos[j] = cat(st.pos[ja], st.pos[jb]);
    p.lrot[j] = cat(st.lrot[ja], st.lrot[jb]);
    p.lpos[j] = cat(st.lpos[ja], st.lpos[jb]);
    p.ik[j] = cat(st.ik[ja], st.ik[jb]);
    p.arot[j] = cat(st.arot[ja], st.arot[jb]);
    const int pa = st.parent[ja];
    p.parent[j] = pa >= 0 ? pa - static_cast<int>(a.base) : pa;
    if (pa == -1) p.rot[kConst + static_cast<int>(j)] = cat(st.rot[St::kProt + ja], st.rot[St::kProt + jb]);
    p.prow[j] = pa >= 0 ? p.parent[j] : pa == -1 ? kConst + static_cast<int>(j) : kNone;
  }
}

// The values a turn may change, back to the chains' rows.
template <class St>
MMDKIT_WIDE void pair_store(St& st, const LocalChain& a, const LocalChain& b, const PairPaths& p) noexcept {
  for (std::uint32_t j = 0; j < a.n; ++j) {
    const std::size_t ja = a.base + j, jb = b.base + j;
    st.rot[ja] = lo4(p.rot[j]);
    st.rot[jb] = hi4(p.rot[j]);
    st.pos[ja] = lo4(p.pos[j]);
    st.pos[jb] = hi4(p.pos[j]);
    st.lrot[ja] = lo4(p.lrot[j]);
    st.lrot[jb] = hi4(p.lrot[j]);
    st.ik[ja] = lo4(p.ik[j]);
    st.ik[jb] = hi4(p.ik[j]);
  }
}

// One CCD turn of the twins at their common cursor: local_turn of each, on its half (`below`: the
// link's descendants on the path, LocalChain::below). A chain that skips the turn (parallel
// directions) keeps its values: its lanes compute whatever they compute and are not written.
MMDKIT_WIDE void pair_turn(PairPaths& p, const IkLink& la, const IkLink& lb, bool use_axis, std::uint32_t below) noexcept {
  ccd8::ccd_turn(p, LanesPair{{}, la, lb}, la, use_axis, p.goal, 0, p.eff, below, 0);
}

// The cursor of both twins advanced past a turn (local_advance of each); bit 0: chain a goes on,
// bit 1: chain b goes on.
MMDKIT_WIDE int pair_advance(const PairPaths& p, LocalChain& a, LocalChain& b) noexcept {
  ++b.c;
  if (++a.c < a.nlinks) return 3;
  a.c = b.c = 0;
  const V8 d = p.goal - p.pos[p.eff];
  const int reached = lanes(lt(hsum3_8(d * d), splat8(1.0e-8f)));
  int more = 0;
  if (!(reached & 0x01) && ++a.it < a.iterations) {
    a.use_axis = a.it < a.half;
    more |= 1;
  }
  if (!(reached & 0x10) && ++b.it < b.iterations) {
    b.use_axis = b.it < b.half;
    more |= 2;
  }
  return more;
}

// The CCD turns of a group's running chains: bundles of twins (bundle_turn) in lockstep until
// each of their chains is done, the other chains alone (local_step), all interleaved turn by turn
// as solve_ik_group_body does.
template <class St, std::uint32_t MaxChains>
[[gnu::target("avx")]] void run_group_wide(St& st, LocalChain* const* active, std::uint32_t running) noexcept {
  // Units: a chain alone (b == nullptr, bundle < 0), a pair (a, b; state in pairs[pair]) or a
  // bundle of three or more (bundles[bundle]).
  struct Unit {
    LocalChain *a, *b;
    int bundle;
    std::uint32_t pair;
  };
  Unit units[MaxChains];
  constexpr std::uint32_t kBundles = std::min<std::uint32_t>(MaxChains / 3, 6);  // ~10 KB each, on the stack
  Bundle bundles[kBundles == 0 ? 1 : kBundles];
  PairPaths pairs[MaxChains / 2];
  std::uint32_t nu = 0, nb = 0, np = 0;
  bool taken[MaxChains] = {};
  for (std::uint32_t i = 0; i < running; ++i) {
    if (taken[i]) continue;
    LocalChain* members[kBundleLanes] = {active[i]};
    std::uint32_t count = 1;
    for (std::uint32_t j = i + 1; j < running && count < kBundleLanes; ++j)
      if (!taken[j] && twins(st, *active[i], *active[j])) {
        members[count++] = active[j];
        taken[j] = true;
      }
    if (count >= 3 && nb == kBundles) {  // no bundle left: pairs, and one alone if odd
      for (std::uint32_t k = 0; k + 1 < count; k += 2) {
        pair_load(st, *members[k], *members[k + 1], pairs[np]);
        units[nu++] = {members[k], members[k + 1], -1, np++};
      }
      if (count % 2) units[nu++] = {members[count - 1], nullptr, -1, 0};
    } else if (count >= 3) {
      bundle_load(st, members, count, bundles[nb]);
      units[nu++] = {nullptr, nullptr, static_cast<int>(nb++), 0};
    } else if (count == 2) {
      pair_load(st, *members[0], *members[1], pairs[np]);
      units[nu++] = {members[0], members[1], -1, np++};
    } else {
      units[nu++] = {active[i], nullptr, -1, 0};
    }
  }
  while (nu > 0) {
    for (std::uint32_t q = 0; q < nu;) {
      Unit& u = units[q];
      bool more;
      if (u.bundle < 0 && u.b != nullptr) {
        PairPaths& p = pairs[u.pair];
        const IkLink& la = u.a->links[u.a->c];
        pair_turn(p, la, u.b->links[u.b->c], u.a->use_axis, u.a->below[la.path_index]);
        const int on = pair_advance(p, *u.a, *u.b);
        if (on == 3) {  // still in lockstep (the same cursor)
          ++q;
          continue;
        }
        pair_store(st, *u.a, *u.b, p);
        if (on != 0) {  // the other goes on alone
          u = {on == 1 ? u.a : u.b, nullptr, -1, 0};
          ++q;
        } else {
          u = units[--nu];
        }
        continue;
      }
      if (u.bundle < 0) {
        more = local_step(st, *u.a);
      } else {
        Bundle& b = bundles[u.bundle];
        const LocalChain& a = *b.chain[0];
        const IkLink& la = a.links[b.c];
        bundle_turn(b, la, a.below[la.path_index], a.inner);
        more = bundle_advance(b);
        if (!more) bundle_store(st, b);
      }
      if (more)
        ++q;
      else
        u = units[--nu];  // done: the last one takes its place
    }
  }
}
#undef MMDKIT_WIDE
#endif  // MMDKIT_EVAL_HAVE_AVX

}  // namespace
}  // namespace mmdkit::anim
