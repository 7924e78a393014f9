// mmdkit — the one home of the small vector types (Vec2/Vec3/Vec4, Quat, Mat4) and quaternion math
// used by every layer (no allocation, no GLM in this header).
//
// Space: MMD's left-handed, Y-up world (model faces −Z), MMD units (about 8 cm). Quaternions are
// stored x, y, z, w like VMD/VPD files; a unit quaternion q rotates a vector v as q·v·q⁻¹ with the
// usual Hamilton product (the same numbers MMD and GLM use; handedness only changes how a positive
// angle looks on screen). Matrices are 4×4, column-major (GLM / OpenGL memory order): element
// (row r, column c) is m[4c + r]; vectors are columns, a point p transforms as M·p.
#pragma once

#include <array>

namespace mmdkit {

using Vec2 = std::array<float, 2>;   ///< u, v (texture coordinates) or x, y
using Vec3 = std::array<float, 3>;   ///< x, y, z
using Vec4 = std::array<float, 4>;   ///< x, y, z, w; r, g, b, a for colours
using Quat = std::array<float, 4>;   ///< x, y, z, w (w = scalar part)
using Mat4 = std::array<float, 16>;  ///< column-major 4×4

inline constexpr Quat kIdentityQuat{0.0f, 0.0f, 0.0f, 1.0f};

/// Unit-length copy of `q`. A zero, denormal-small or non-finite quaternion (VMD files store all
/// zeros for "no rotation", docs/CONVENTIONS.md "Units") gives the identity.
Quat quat_normalize(const Quat& q) noexcept;

/// Spherical linear interpolation from `a` (t = 0) to `b` (t = 1) along the shortest arc: when
/// dot(a, b) < 0, −b (the same rotation) is used. Inputs are normalized first (quat_normalize);
/// the result is unit length. `t` is not clamped (t outside [0,1] extrapolates along the arc);
/// a NaN `t` gives `a`. Nearly equal inputs (dot > 1 − 1e-6) use normalized lerp. Opposite
/// quaternions (b = −a) are the same rotation: the result is a for every t. This is how MMD
/// and babylon-mmd blend key rotations and append ratios.
Quat quat_slerp(const Quat& a, const Quat& b, float t) noexcept;

/// Hamilton product a·b: the rotation b followed by a.
Quat quat_multiply(const Quat& a, const Quat& b) noexcept;

/// Conjugate (the inverse of a unit quaternion).
Quat quat_conjugate(const Quat& q) noexcept;

/// `v` rotated by the unit quaternion `q`.
Vec3 quat_rotate(const Quat& q, const Vec3& v) noexcept;

/// Rotation of `angle` radians about the unit `axis` (positive = counter-clockwise seen from the
/// tip of the axis in a right-handed drawing; clockwise on MMD's left-handed screen).
Quat quat_from_axis_angle(const Vec3& axis, float angle) noexcept;

/// Angle in radians (0..π) between the rotations `a` and `b` (both normalized first).
float quat_angle_between(const Quat& a, const Quat& b) noexcept;

}  // namespace mmdkit
