// The Hamilton quaternion product written once (internal to the library): a scalar form and a lane
// form. Quaternions x, y, z, w as core/math.hpp's Quat; a·b rotates by b, then by a. Formula:
//   x = aw·bx + ax·bw + ay·bz − az·by,   y = aw·by − ax·bz + ay·bw + az·bx,
//   z = aw·bz + ax·by − ay·bx + az·bw,   w = aw·bw − ax·bx − ay·by − az·bz,
// each sum evaluated left to right. Both forms compute exactly these operations in this order
// (negation and multiplication by ±1 are exact), so they give the same bits as each other for the
// same element type; callers rely on that (the evaluation and IK are bit-exact across forms,
// docs/DEVELOPING.md "Bit-exactness"). Never compile them with FMA contraction of these sums.
#pragma once

namespace mmdkit::detail {

/// A quaternion of any element type: float, double, or a vector holding one component of several
/// quaternions (structure of arrays, e.g. one chain per lane in the IK bundles).
template <class T>
struct QuatOf {
  T x, y, z, w;
};

/// The scalar form: a·b over T (float, double, or a SoA lane vector).
template <class T>
[[gnu::always_inline]] constexpr QuatOf<T> quat_product(const QuatOf<T>& a, const QuatOf<T>& b) noexcept {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// Lane helpers of quat_product_lanes: results as out-parameters, so that the 8-lane forms, always
// inlined into target("avx") code, pass no 32-byte vector by value outside it (GCC's -Wpsabi).
// The same shuffle of each group of 4 lanes of a GCC vector of 4 or 8 floats.
template <int A, int B, int C, int D, class V>
[[gnu::always_inline]] inline void shuffle_quads(const V& v, V& out) noexcept {
  if constexpr (sizeof(V) == 16)
    out = __builtin_shufflevector(v, v, A, B, C, D);
  else
    out = __builtin_shufflevector(v, v, A, B, C, D, A + 4, B + 4, C + 4, D + 4);
}
// {a, b, c, d} in each group of 4 lanes.
template <class V>
[[gnu::always_inline]] inline void quad_lanes(float a, float b, float c, float d, V& out) noexcept {
  if constexpr (sizeof(V) == 16)
    out = V{a, b, c, d};
  else
    out = V{a, b, c, d, a, b, c, d};
}

/// The lane form: r = a·b of quaternions stored 4 lanes each (x, y, z, w; array of structures) in
/// a GCC vector of 4 floats (one quaternion) or 8 (two). Each lane adds the formula's products in
/// its order: r = aw·b, then + ax·(±b…), + ay·(±b…), + az·(±b…).
template <class V>
[[gnu::always_inline]] inline void quat_product_lanes(const V& a, const V& b, V& r) noexcept {
  static_assert(sizeof(V) == 16 || sizeof(V) == 32, "4 or 8 float lanes");
  V sx, sy, sz, a0, a1, a2, a3, b0, b1, b2;
  quad_lanes(1.0f, -1.0f, 1.0f, -1.0f, sx);
  quad_lanes(1.0f, 1.0f, -1.0f, -1.0f, sy);
  quad_lanes(-1.0f, 1.0f, 1.0f, -1.0f, sz);
  shuffle_quads<0, 0, 0, 0>(a, a0);
  shuffle_quads<1, 1, 1, 1>(a, a1);
  shuffle_quads<2, 2, 2, 2>(a, a2);
  shuffle_quads<3, 3, 3, 3>(a, a3);
  shuffle_quads<3, 2, 1, 0>(b, b0);
  shuffle_quads<2, 3, 0, 1>(b, b1);
  shuffle_quads<1, 0, 3, 2>(b, b2);
  r = a3 * b;
  r += a0 * (b0 * sx);
  r += a1 * (b1 * sy);
  r += a2 * (b2 * sz);
}

}  // namespace mmdkit::detail
