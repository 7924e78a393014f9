// mmdkit — internal: the per-frame skinning kernels behind skin_range (skinning.hpp).
//
// SkinArgs is the flat view of SkinningData + SkinWorkspace + the frame's buffers that a kernel
// reads. Three kernels compute the same formulas (docs/EVALUATION-MORPH-SKIN.md):
//   skin_range_baseline  portable C++ (any CPU; on x86-64 the compiler's baseline SSE2), one vertex
//                        at a time, exact 1/sqrt normal renormalization;
//   skin_range_avx2      x86-64 AVX2 + FMA (skinning_avx2.cpp, compiled with a target attribute, run
//                        only when the CPU reports both): BDEF1/2/4 vertices blend their four
//                        bone matrices as two 8-float halves with FMA and renormalize normals with
//                        rsqrt + one Newton step; SDEF / QDEF vertices go through skin_vertex_scalar;
//   skin_range_avx512    x86-64 AVX-512F (skinning_avx512.cpp, target attribute, run only when the
//                        CPU reports avx512f): four vertices per step, each blended matrix one zmm
//                        (4 FMAs), the four transposed into columns so that positions and normals
//                        take three FMAs per four vertices; rsqrt14 + one Newton step; SDEF / QDEF
//                        through skin_vertex_scalar.
// Results agree to float rounding (≤ 1e-5 relative; tests/anim/skinning_kernel_test.cpp), not bit for bit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "mmdkit/anim/skinning.hpp"

namespace mmdkit::anim::detail {

struct SkinArgs {
  const Vec3* pos = nullptr;
  const Vec3* nrm = nullptr;
  const std::array<std::uint32_t, 4>* bones = nullptr;
  const std::array<float, 4>* weights = nullptr;
  const SkinType* types = nullptr;
  const std::uint32_t* sdef_index = nullptr;
  const std::array<Vec3, 3>* sdef = nullptr;
  const SkinMatrix* palette = nullptr;  // bone_count + 1 matrices, the last the identity
  const Quat* rotation = nullptr;  // valid when rot_ok
  const std::array<Quat, 2>* dual = nullptr;  // valid when rot_ok
  bool rot_ok = false;
  const Vec3* offsets = nullptr;  // morph offsets, or null
  Vec3* out_p = nullptr;          // or null: positions not wanted
  Vec3* out_n = nullptr;          // or null: normals not wanted
};

/// Calls `run.template operator()<kP, kN, kOff>()` for what `a` asks: positions (out_p), normals
/// (out_n), morph offsets (offsets; they move positions only, so normals alone never take them).
/// The SIMD kernels' entry points, so that their hot loops test none of the three per vertex.
template <class Run>
inline void skin_variant(const SkinArgs& a, Run&& run) {
  const bool p = a.out_p != nullptr, n = a.out_n != nullptr, off = a.offsets != nullptr;
  if (p && n)
    off ? run.template operator()<true, true, true>() : run.template operator()<true, true, false>();
  else if (p)
    off ? run.template operator()<true, false, true>() : run.template operator()<true, false, false>();
  else if (n)
    run.template operator()<false, true, false>();
}

/// One vertex of any type, scalar (the baseline kernel's body; the SIMD kernels' SDEF / QDEF path).
void skin_vertex_scalar(const SkinArgs& a, std::size_t v, Vec3& out_p, Vec3& out_n) noexcept;

void skin_range_baseline(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept;

#if defined(__x86_64__) || defined(__i386__)
#define MMDKIT_SKIN_HAVE_AVX2 1
void skin_range_avx2(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept;
#define MMDKIT_SKIN_HAVE_AVX512 1
void skin_range_avx512(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept;
#endif

}  // namespace mmdkit::anim::detail
