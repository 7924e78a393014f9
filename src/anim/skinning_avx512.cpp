// mmdkit — the AVX-512F skinning kernel (skinning_kernel.hpp). Only this file's functions are
// compiled for AVX-512F (target attribute, no project-wide -march); skinning.cpp calls them only
// when __builtin_cpu_supports reports avx512f (libgcc's check includes the OS saving zmm state).
//
// Four vertices per step. Per BDEF1/2/4 vertex (SDEF without rotations too: the linear blend) the
// four column-major palette matrices, one zmm each [c0|c1|c2|c3], are blended with the stored
// weights by one multiply and three FMAs (zero-weight slots of BDEF2/4 point at the identity slot:
// they add exactly 0). The four blended matrices are transposed as 128-bit blocks (8 shuffles) into
// Cj = [cj of vertex 0 | … | cj of vertex 3]; the four bind positions (48 contiguous bytes, one
// load, + morph offsets) are spread by permutes into X = [x0 x0 x0 x0 | x1 …], Y, Z, so
// that the four positions are C0·X + C1·Y + C2·Z + C3 and the normals C0·NX + C1·NY + C2·NZ, three
// FMAs each for all four vertices; a permute packs them back to 12 floats for one store.
// Normals are renormalized when w0 ≠ 1 with rsqrt14 (relative error ≤ 2⁻¹⁴) and one
// Newton–Raphson step (≲ 1e-7); |n|² is summed as (x² + y²) + z² in every lane of a vertex, so all
// three components use the same factor. A zero-length or non-finite blend keeps the stored normal
// (rare: fixed up after the store); w0 == 1 keeps the rigid result unnormalized (as the baseline).
// SDEF (with rotations) / QDEF vertices are left out of the (then masked) stores and go through
// skin_vertex_scalar. Every lane computes its vertex with the same instructions whatever its
// neighbours or its slot, so sub-ranges and thread splits give the same bytes. Inside a range the
// loads and stores are full 64-byte ones (step, kWide); the range's last 1–5 vertices use masked
// ones (a step of four and / or one of 1–3 vertices whose missing lanes repeat the last vertex and
// are never stored), so a range writes only its own vertices. Measured figures and what was tried:
// docs/EVALUATION-MORPH-SKIN.md "Performance".
#include "anim/skinning_kernel.hpp"

#ifdef MMDKIT_SKIN_HAVE_AVX512

// g++ 12's AVX-512 intrinsics start many results from _mm512_undefined_ps() (a self-initialized
// variable), which -Wuninitialized / -Wmaybe-uninitialized report once inlined: off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <cfloat>
#include <cstring>

#define MMDKIT_TARGET_AVX512 __attribute__((target("avx512f")))

namespace mmdkit::anim::detail {

namespace {

// Bits of the 12 packed floats (3 per vertex) of the vertices whose bit is set in a 4-bit mask.
constexpr __mmask16 kFloatMask[16] = {0x000, 0x007, 0x038, 0x03F, 0x1C0, 0x1C7, 0x1F8, 0x1FF,
                                      0xE00, 0xE07, 0xE38, 0xE3F, 0xFC0, 0xFC7, 0xFF8, 0xFFF};

struct Consts {
  __m512i ix, iy, iz, pack;
  __m512 ones, half, three_halves, tiny, big;
};

MMDKIT_TARGET_AVX512 inline Consts make_consts() noexcept {
  Consts c;
  c.ix = _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9);
  c.iy = _mm512_add_epi32(c.ix, _mm512_set1_epi32(1));
  c.iz = _mm512_add_epi32(c.ix, _mm512_set1_epi32(2));
  c.pack = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 15, 15, 15);
  c.ones = _mm512_set1_ps(1.0f);
  c.half = _mm512_set1_ps(0.5f);
  c.three_halves = _mm512_set1_ps(1.5f);
  c.tiny = _mm512_set1_ps(1e-30f);
  c.big = _mm512_set1_ps(FLT_MAX);
  return c;
}

// The blended matrix of vertex v: Σ wₖ · palette[bₖ] (column-major, one zmm).
MMDKIT_TARGET_AVX512 inline __m512 blend(const SkinMatrix* __restrict pal, const std::array<std::uint32_t, 4>& b,
                                          const std::array<float, 4>& w) noexcept {
  __m512 m = _mm512_mul_ps(_mm512_set1_ps(w[0]), _mm512_load_ps(pal[b[0]].m.data()));
  m = _mm512_fmadd_ps(_mm512_set1_ps(w[1]), _mm512_load_ps(pal[b[1]].m.data()), m);
  m = _mm512_fmadd_ps(_mm512_set1_ps(w[2]), _mm512_load_ps(pal[b[2]].m.data()), m);
  return _mm512_fmadd_ps(_mm512_set1_ps(w[3]), _mm512_load_ps(pal[b[3]].m.data()), m);
}

// 12 floats from `src` (4 vertices); kWide: a full 64-byte load (the range holds the 4 past them).
template <bool kWide>
MMDKIT_TARGET_AVX512 inline __m512 load12(const Vec3* src, __mmask16 in12) noexcept {
  if constexpr (kWide) return _mm512_loadu_ps(src->data());
  else return _mm512_maskz_loadu_ps(in12, src->data());
}
// The packed floats of `x` to `dst`: all 16 when `full`, else the `out12` ones.
MMDKIT_TARGET_AVX512 inline void store12(Vec3* dst, bool full, __mmask16 out12, __m512 x) noexcept {
  if (full) _mm512_storeu_ps(dst->data(), x);
  else _mm512_mask_storeu_ps(dst->data(), out12, x);
}

// Vertices v … v + count − 1 (count 1–4; 4 in the main loop, where the masks fold to constants).
// `linear`: bit i set when vertex v + i takes the linear blend (the others go through the scalar code).
// kWide: v + 6 ≤ end, so that 16 floats from vertex v stay inside the range (they reach x of
// vertex v + 5): loads and, when all four vertices are linear, stores are full 64-byte ones (masked
// stores cost ~1.5 ns per vertex more on Zen 5); the 4 floats stored past vertex v + 3 are
// rewritten by the next step (or the scalar code) before the range ends.
template <bool kP, bool kN, bool kOff, bool kWide>
MMDKIT_TARGET_AVX512 inline void step(const SkinArgs& a, const Consts& k, std::size_t v, unsigned count,
                                      unsigned linear) noexcept {
  const SkinMatrix* __restrict pal = a.palette;
  const unsigned last = count - 1;
  const std::size_t v1 = v + (1 < count ? 1 : last), v2 = v + (2 < count ? 2 : last), v3 = v + last;
  const __m512 m0 = blend(pal, a.bones[v], a.weights[v]);
  const __m512 m1 = blend(pal, a.bones[v1], a.weights[v1]);
  const __m512 m2 = blend(pal, a.bones[v2], a.weights[v2]);
  const __m512 m3 = blend(pal, a.bones[v3], a.weights[v3]);
  // 4×4 transpose of 128-bit blocks: cj = [column j of vertex 0 | … | column j of vertex 3].
  const __m512 t0 = _mm512_shuffle_f32x4(m0, m1, _MM_SHUFFLE(1, 0, 1, 0));
  const __m512 t1 = _mm512_shuffle_f32x4(m0, m1, _MM_SHUFFLE(3, 2, 3, 2));
  const __m512 t2 = _mm512_shuffle_f32x4(m2, m3, _MM_SHUFFLE(1, 0, 1, 0));
  const __m512 t3 = _mm512_shuffle_f32x4(m2, m3, _MM_SHUFFLE(3, 2, 3, 2));
  const __m512 c0 = _mm512_shuffle_f32x4(t0, t2, _MM_SHUFFLE(2, 0, 2, 0));
  const __m512 c1 = _mm512_shuffle_f32x4(t0, t2, _MM_SHUFFLE(3, 1, 3, 1));
  const __m512 c2 = _mm512_shuffle_f32x4(t1, t3, _MM_SHUFFLE(2, 0, 2, 0));
  const __m512 c3 = _mm512_shuffle_f32x4(t1, t3, _MM_SHUFFLE(3, 1, 3, 1));
  const __mmask16 in12 = kFloatMask[(1u << count) - 1];  // the 3·count floats of the vertices
  const __mmask16 out12 = in12 & kFloatMask[linear];
  const bool full_store = kWide && linear == 0xF;

  if constexpr (kP) {
    __m512 p = load12<kWide>(a.pos + v, in12);
    if constexpr (kOff) p = _mm512_add_ps(p, load12<kWide>(a.offsets + v, in12));
    const __m512 x = _mm512_permutexvar_ps(k.ix, p), y = _mm512_permutexvar_ps(k.iy, p),
                 z = _mm512_permutexvar_ps(k.iz, p);
    const __m512 r = _mm512_fmadd_ps(c0, x, _mm512_fmadd_ps(c1, y, _mm512_fmadd_ps(c2, z, c3)));
    store12(a.out_p + v, full_store, out12, _mm512_permutexvar_ps(k.pack, r));
  }
  if constexpr (kN) {
    const __m512 n = load12<kWide>(a.nrm + v, in12);
    const __m512 x = _mm512_permutexvar_ps(k.ix, n), y = _mm512_permutexvar_ps(k.iy, n),
                 z = _mm512_permutexvar_ps(k.iz, n);
    const __m512 r = _mm512_fmadd_ps(c0, x, _mm512_fmadd_ps(c1, y, _mm512_mul_ps(c2, z)));
    // |r|² of each vertex in all four lanes of its block: (x² + y²) + z².
    const __m512 sq = _mm512_mul_ps(r, r);
    const __m512 l2 = _mm512_add_ps(_mm512_add_ps(_mm512_permute_ps(sq, _MM_SHUFFLE(0, 0, 0, 0)),
                                                  _mm512_permute_ps(sq, _MM_SHUFFLE(1, 1, 1, 1))),
                                    _mm512_permute_ps(sq, _MM_SHUFFLE(2, 2, 2, 2)));
    // r0 ≈ 1/sqrt(l2) refined once: r·r0·(1.5 − 0.5·l2·r0²), with r·r0 and 0.5·l2·r0 side by side
    // (a shorter dependency chain than r0·(…) first).
    const __m512 hl2 = _mm512_mul_ps(k.half, l2);
    const __m512 r0 = _mm512_rsqrt14_ps(l2);
    // w0 of each vertex in its block (the four weights of vertex i are block i of this load).
    const __m512 w = _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << (4 * count)) - 1), a.weights[v].data());
    const __mmask16 renorm = _mm512_cmp_ps_mask(_mm512_permute_ps(w, _MM_SHUFFLE(0, 0, 0, 0)), k.ones, _CMP_NEQ_UQ);
    const __mmask16 ok = _mm512_cmp_ps_mask(l2, k.tiny, _CMP_GT_OQ) & _mm512_cmp_ps_mask(l2, k.big, _CMP_LE_OQ);
    const __m512 rr0 = _mm512_mul_ps(r, r0);
    const __m512 out = _mm512_mask_mul_ps(r, renorm, rr0, _mm512_fnmadd_ps(_mm512_mul_ps(hl2, r0), r0, k.three_halves));
    store12(a.out_n + v, full_store, out12, _mm512_permutexvar_ps(k.pack, out));
    // A vertex to renormalize whose blend has no usable length keeps its stored normal.
    const unsigned bad = static_cast<unsigned>(renorm & ~ok) & 0x1111u & ((1u << (4 * count)) - 1);
    if (bad) [[unlikely]] {
      for (unsigned i = 0; i < count; ++i)
        if ((bad >> (4 * i) & 1u) && (linear >> i & 1u)) a.out_n[v + i] = a.nrm[v + i];
    }
  }
  if (linear != (1u << count) - 1) [[unlikely]] {
    for (unsigned i = 0; i < count; ++i) {
      if (linear >> i & 1u) continue;
      Vec3 rp, rn;
      skin_vertex_scalar(a, v + i, rp, rn);
      if constexpr (kP) a.out_p[v + i] = rp;
      if constexpr (kN) a.out_n[v + i] = rn;
    }
  }
}

template <bool kP, bool kN, bool kOff>
MMDKIT_TARGET_AVX512 void run(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept {
  const Consts k = make_consts();
  // Linear blend: BDEF1/2/4 (types 0–2), and SDEF (3) when there are no rotations. Types are ≤ 4,
  // so adding `bias` to each byte sets its top bit exactly for the types that are not linear.
  const bool linear_sdef = !a.rot_ok;
  const std::uint32_t bias = linear_sdef ? 0x7C7C7C7Cu : 0x7D7D7D7Du;  // types ≥ 4 / ≥ 3
  const SkinType last_linear = linear_sdef ? SkinType::sdef : SkinType::bdef4;
  const SkinType* __restrict types = a.types;
  const auto linear4 = [&](std::size_t v) {
    std::uint32_t t4;
    std::memcpy(&t4, types + v, 4);
    unsigned linear = 0xF;
    if ((t4 + bias) & 0x80808080u) [[unlikely]] {
      linear = 0;
      for (unsigned i = 0; i < 4; ++i) linear |= (types[v + i] <= last_linear ? 1u : 0u) << i;
    }
    return linear;
  };
  std::size_t v = begin;
  for (; v + 6 <= end; v += 4) step<kP, kN, kOff, true>(a, k, v, 4, linear4(v));
  if (v + 4 <= end) {
    step<kP, kN, kOff, false>(a, k, v, 4, linear4(v));
    v += 4;
  }
  if (v < end) {
    const auto count = static_cast<unsigned>(end - v);
    unsigned linear = 0;
    for (unsigned i = 0; i < count; ++i) linear |= (types[v + i] <= last_linear ? 1u : 0u) << i;
    step<kP, kN, kOff, false>(a, k, v, count, linear);
  }
}

}  // namespace

MMDKIT_TARGET_AVX512 void skin_range_avx512(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept {
  skin_variant(a, [&]<bool kP, bool kN, bool kOff>() { run<kP, kN, kOff>(a, begin, end); });
}

}  // namespace mmdkit::anim::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
