// mmdkit motion — small double-precision quaternion helpers shared by the BVH and keypoint code
// (internal; the public types are core/math.hpp's floats and motion/bvh.hpp's BvhTransform).
// Quaternions x, y, z, w (Hamilton product, a·b = b then a), as core/math.hpp.
#pragma once

#include <array>
#include <cmath>

#include "core/quat_product.hpp"

namespace mmdkit::motion::dm {

using Q = std::array<double, 4>;
using V = std::array<double, 3>;

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr Q kIdentity{0, 0, 0, 1};

// core/quat_product.hpp's scalar form instantiated for double.
inline Q mul(const Q& a, const Q& b) {
  const auto r = ::mmdkit::detail::quat_product<double>({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]});
  return {r.x, r.y, r.z, r.w};
}
inline Q conj(const Q& q) { return {-q[0], -q[1], -q[2], q[3]}; }
inline double dot(const V& a, const V& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline V cross(const V& a, const V& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline V add(const V& a, const V& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline V sub(const V& a, const V& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline V scale(const V& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
inline double norm(const V& a) { return std::sqrt(dot(a, a)); }
inline Q normalize(const Q& q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 1e-300) || !std::isfinite(n)) return kIdentity;
  return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}
inline V rotate(const Q& q, const V& v) {
  const V u{q[0], q[1], q[2]};
  const V t = scale(cross(u, v), 2.0);
  return add(add(v, scale(t, q[3])), cross(u, t));
}
inline Q axis_angle(const V& unit_axis, double angle) {
  const double s = std::sin(angle * 0.5);
  return {unit_axis[0] * s, unit_axis[1] * s, unit_axis[2] * s, std::cos(angle * 0.5)};
}
/// Rotation angle of q (0..π).
inline double angle(const Q& q) {
  const Q n = normalize(q);
  const double v = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  return 2.0 * std::atan2(v, std::abs(n[3]));
}
/// Shortest-arc rotation taking direction a onto direction b (identity for a zero vector; a half
/// turn about an axis perpendicular to a for opposite directions).
inline Q arc(const V& a, const V& b) {
  const double na = norm(a), nb = norm(b);
  if (!(na > 1e-12) || !(nb > 1e-12)) return kIdentity;
  const V ua = scale(a, 1.0 / na), ub = scale(b, 1.0 / nb);
  const double d = dot(ua, ub);
  if (d < -1.0 + 1e-12) {
    V p = std::abs(ua[0]) < 0.9 ? cross(ua, V{1, 0, 0}) : cross(ua, V{0, 1, 0});
    p = scale(p, 1.0 / norm(p));
    return {p[0], p[1], p[2], 0.0};
  }
  const V c = cross(ua, ub);
  return normalize(Q{c[0], c[1], c[2], 1.0 + d});
}
inline Q from_float(const std::array<float, 4>& q) {
  return normalize(Q{double(q[0]), double(q[1]), double(q[2]), double(q[3])});
}
inline V from_float(const std::array<float, 3>& v) { return {double(v[0]), double(v[1]), double(v[2])}; }
inline std::array<float, 4> to_float(const Q& q) {
  return {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
}
inline std::array<float, 3> to_float(const V& v) { return {float(v[0]), float(v[1]), float(v[2])}; }

/// MMD (left-handed) ↔ BVH (right-handed) space: Z negated (its own inverse).
inline V flip_z(const V& v) { return {v[0], v[1], -v[2]}; }
inline Q flip_z(const Q& q) { return {-q[0], -q[1], q[2], q[3]}; }

}  // namespace mmdkit::motion::dm

namespace mmdkit::motion::dm {

/// Spherical interpolation along the shortest arc (t in 0..1).
inline Q slerp(const Q& a, Q b, double t) {
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) {
    d = -d;
    b = {-b[0], -b[1], -b[2], -b[3]};
  }
  if (d > 1 - 1e-9) return normalize(Q{a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, a[3] + (b[3] - a[3]) * t});
  const double th = std::acos(d), s = std::sin(th);
  const double wa = std::sin((1 - t) * th) / s, wb = std::sin(t * th) / s;
  return normalize(Q{a[0] * wa + b[0] * wb, a[1] * wa + b[1] * wb, a[2] * wa + b[2] * wb, a[3] * wa + b[3] * wb});
}

/// Quaternion of the rotation matrix with columns x, y, z (orthonormal, right-handed basis).
inline Q from_basis(const V& x, const V& y, const V& z) {
  const double m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
  const double tr = m00 + m11 + m22;
  Q q;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1.0) * 2;
    q = {(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s};
  } else if (m00 > m11 && m00 > m22) {
    const double s = std::sqrt(1.0 + m00 - m11 - m22) * 2;
    q = {0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s};
  } else if (m11 > m22) {
    const double s = std::sqrt(1.0 + m11 - m00 - m22) * 2;
    q = {(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s};
  } else {
    const double s = std::sqrt(1.0 + m22 - m00 - m11) * 2;
    q = {(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s};
  }
  return normalize(q);
}

/// The rotation taking the frame of (a_rest, b_rest) onto the frame of (a, b): a_rest → a exactly,
/// b_rest's component orthogonal to a_rest → b's orthogonal to a. Identity when a vector is zero
/// or a pair is parallel.
inline Q two_vector(const V& a_rest, const V& b_rest, const V& a, const V& b) {
  auto frame = [](const V& p, const V& s, V& x, V& y, V& z) {
    const double np = norm(p);
    V c = cross(p, s);
    const double nc = norm(c);
    if (!(np > 1e-12) || !(nc > 1e-12 * np * norm(s)) || !(nc > 1e-15)) return false;
    x = scale(p, 1 / np);
    z = scale(c, 1 / nc);
    y = cross(z, x);
    return true;
  };
  V x0, y0, z0, x1, y1, z1;
  if (!frame(a_rest, b_rest, x0, y0, z0) || !frame(a, b, x1, y1, z1)) return kIdentity;
  return mul(from_basis(x1, y1, z1), conj(from_basis(x0, y0, z0)));
}

/// Twist of q about the unit axis (swing-twist decomposition, q = swing · twist).
inline Q twist(const Q& q, const V& unit_axis) {
  const double d = q[0] * unit_axis[0] + q[1] * unit_axis[1] + q[2] * unit_axis[2];
  Q t{unit_axis[0] * d, unit_axis[1] * d, unit_axis[2] * d, q[3]};
  if (t[0] * t[0] + t[1] * t[1] + t[2] * t[2] + t[3] * t[3] < 1e-18) return kIdentity;
  return normalize(t);
}

}  // namespace mmdkit::motion::dm
