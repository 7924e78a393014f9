// mmdkit — the AVX2 + FMA skinning kernel (skinning_kernel.hpp). Only this file's functions are
// compiled for AVX2 + FMA (target attribute, no project-wide -march); skinning.cpp calls them only
// when __builtin_cpu_supports reports both, by default only on CPUs without AVX-512F (those run
// skinning_avx512.cpp, about twice as fast on Zen 5; set_skin_kernel_isa(avx2_fma) still selects
// this one). Tried on Zen 5 (2026-12-02) and not kept, no measurable gain: |n|² by mul + shuffles
// instead of dpps, and one 16-byte store per output inside the range instead of 8 + 4 bytes.
//
// Per BDEF1/2/4 vertex (SDEF without rotations too, which falls back to the linear blend): the
// four palette matrices are read as two 8-float halves (columns 0–1 and 2–3, column-major), blended
// with the stored weights by FMA (zero-weight slots of BDEF2/4 point at the identity slot, so they
// add exactly 0); the position is c0·x + c1·y + c2·z + c3, the normal c0·x + c1·y + c2·z; the normal
// is renormalized (when w0 ≠ 1) with rsqrt and one Newton–Raphson step (relative error ≲ 2e-7,
// against 1.5 · 2⁻¹² for rsqrt alone). SDEF / QDEF vertices go through the scalar code.
#include "anim/skinning_kernel.hpp"

#ifdef MMDKIT_SKIN_HAVE_AVX2

#include <immintrin.h>

#include <cfloat>

#define MMDKIT_TARGET_AVX2 __attribute__((target("avx2,fma")))

namespace mmdkit::anim::detail {

namespace {

MMDKIT_TARGET_AVX2 inline void store3(float* out, __m128 v) noexcept {
  _mm_storel_pi(reinterpret_cast<__m64*>(out), v);
  _mm_store_ss(out + 2, _mm_movehl_ps(v, v));
}


// One vertex range; kP / kN: positions / normals wanted, kOff: morph offsets given (template
// parameters so that the hot loop has no per-vertex tests of them).
template <bool kP, bool kN, bool kOff>
MMDKIT_TARGET_AVX2 void run(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept {
  const SkinMatrix* __restrict pal = a.palette;
  const Vec3* __restrict pos = a.pos;
  const Vec3* __restrict nrm = a.nrm;
  const Vec3* __restrict off = a.offsets;
  const std::array<std::uint32_t, 4>* __restrict bones = a.bones;
  const std::array<float, 4>* __restrict weights = a.weights;
  const SkinType* __restrict types = a.types;
  Vec3* __restrict out_p = a.out_p;
  Vec3* __restrict out_n = a.out_n;
  const bool linear_sdef = !a.rot_ok;  // SDEF without rotations falls back to the linear blend
  const __m128 tiny = _mm_set1_ps(1e-30f), big = _mm_set1_ps(FLT_MAX), one = _mm_set1_ps(1.0f);
  const __m128 half = _mm_set1_ps(0.5f), three_halves = _mm_set1_ps(1.5f);
  for (std::size_t v = begin; v < end; ++v) {
    const SkinType t = types[v];
    if (t > SkinType::bdef4 && (t != SkinType::sdef || !linear_sdef)) [[unlikely]] {
      Vec3 rp, rn;
      skin_vertex_scalar(a, v, rp, rn);
      if constexpr (kP) out_p[v] = rp;
      if constexpr (kN) out_n[v] = rn;
      continue;
    }
    const std::uint32_t* b = bones[v].data();
    const float* w = weights[v].data();
    const float* m0 = pal[b[0]].m.data();
    const float* m1 = pal[b[1]].m.data();
    const float* m2 = pal[b[2]].m.data();
    const float* m3 = pal[b[3]].m.data();
    __m256 wv = _mm256_broadcast_ss(w);
    __m256 lo = _mm256_mul_ps(wv, _mm256_loadu_ps(m0));
    __m256 hi = _mm256_mul_ps(wv, _mm256_loadu_ps(m0 + 8));
    wv = _mm256_broadcast_ss(w + 1);
    lo = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m1), lo);
    hi = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m1 + 8), hi);
    wv = _mm256_broadcast_ss(w + 2);
    lo = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m2), lo);
    hi = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m2 + 8), hi);
    wv = _mm256_broadcast_ss(w + 3);
    lo = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m3), lo);
    hi = _mm256_fmadd_ps(wv, _mm256_loadu_ps(m3 + 8), hi);
    const __m128 c0 = _mm256_castps256_ps128(lo), c1 = _mm256_extractf128_ps(lo, 1);
    const __m128 c2 = _mm256_castps256_ps128(hi), c3 = _mm256_extractf128_ps(hi, 1);
    if constexpr (kP) {
      const float* p = pos[v].data();
      __m128 px = _mm_broadcast_ss(p), py = _mm_broadcast_ss(p + 1), pz = _mm_broadcast_ss(p + 2);
      if constexpr (kOff) {
        const float* o = off[v].data();
        px = _mm_add_ps(px, _mm_broadcast_ss(o));
        py = _mm_add_ps(py, _mm_broadcast_ss(o + 1));
        pz = _mm_add_ps(pz, _mm_broadcast_ss(o + 2));
      }
      store3(out_p[v].data(), _mm_fmadd_ps(c0, px, _mm_fmadd_ps(c1, py, _mm_fmadd_ps(c2, pz, c3))));
    }
    if constexpr (kN) {
      const float* n = nrm[v].data();
      const __m128 rn = _mm_fmadd_ps(c0, _mm_broadcast_ss(n),
                                     _mm_fmadd_ps(c1, _mm_broadcast_ss(n + 1), _mm_mul_ps(c2, _mm_broadcast_ss(n + 2))));
      // |rn|² in all lanes (x, y, z only); r ≈ 1/sqrt(l2) refined once: r·(1.5 − 0.5·l2·r²).
      const __m128 l2 = _mm_dp_ps(rn, rn, 0x7F);
      const __m128 r0 = _mm_rsqrt_ps(l2);
      const __m128 r = _mm_mul_ps(r0, _mm_fnmadd_ps(_mm_mul_ps(_mm_mul_ps(half, l2), r0), r0, three_halves));
      // Renormalize unless w0 == 1 (one rigid bone, as the baseline); a zero-length or non-finite
      // blend keeps the stored normal (rare: a branch).
      const __m128 blend = _mm_cmpneq_ps(_mm_broadcast_ss(w), one);
      const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(l2, tiny), _mm_cmple_ps(l2, big));
      if (_mm_movemask_ps(_mm_andnot_ps(ok, blend)) & 1) [[unlikely]] {
        out_n[v] = nrm[v];
        continue;
      }
      store3(out_n[v].data(), _mm_blendv_ps(rn, _mm_mul_ps(rn, r), blend));
    }
  }
}

}  // namespace

MMDKIT_TARGET_AVX2 void skin_range_avx2(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept {
  skin_variant(a, [&]<bool kP, bool kN, bool kOff>() { run<kP, kN, kOff>(a, begin, end); });
}

}  // namespace mmdkit::anim::detail

#endif
