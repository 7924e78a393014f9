// mmdkit — where a scene puts things: position, rotation (degrees) and uniform scale of a model,
// stage or accessory, as one world matrix (docs/SCENE.md "Placement").
//
// M = T(position) · Rz(z) · Ry(y) · Rx(x) · S(scale), column vectors (so X is applied first, then Y,
// then Z: nanoem's accessory transform `T · (Rz·Ry·Rx) · S`, RENDER-NOTES "Accessories"). Rx(a)
// maps y → cos a·y − sin a·z, z → sin a·y + cos a·z, Ry(a) z → x, Rz(a) x → y, the same rotation
// formulas as the camera (anim/camera.hpp). Space: MMD's left-handed Y-up world, MMD units;
// matrices column-major with the translation at 12..14 (docs/CONVENTIONS.md).
#pragma once

#include "mmdkit/core/math.hpp"

namespace mmdkit::scene {

using mmdkit::Mat4;
using mmdkit::Quat;
using mmdkit::Vec3;

/// Position, rotation and scale of one scene item, in its parent's space (the world, or the bone
/// an accessory is attached to).
struct Placement {
  Vec3 position{};     ///< MMD units
  Vec3 rotation{};     ///< degrees about X, Y, Z (X applied first, then Y, then Z)
  float scale = 1.0f;  ///< uniform, > 0
  /// Position 0, rotation 0, scale 1 exactly.
  bool is_identity() const noexcept;
};

/// The rotation of `p` as a unit quaternion (x, y, z, w): qz · qy · qx.
Quat placement_rotation(const Placement& p) noexcept;
/// T · R · S of `p` (file comment).
Mat4 placement_matrix(const Placement& p) noexcept;
/// T(position) · R(rotation) · S(scale) of a rotation given as a unit quaternion (accessory keys
/// between two frames, scene.hpp); placement_matrix(p) = this of p's position, placement_rotation(p)
/// and scale, to float rounding.
Mat4 placement_matrix(const Vec3& position, const Quat& rotation, float scale) noexcept;
/// Matrix product a · b (column-major).
Mat4 multiply(const Mat4& a, const Mat4& b) noexcept;
/// m · (p, 1): a point transformed.
Vec3 transform_point(const Mat4& m, const Vec3& p) noexcept;
/// The upper 3×3 of m times v: a direction (normals: m must be rotation × uniform scale; the
/// result is normalized by the caller).
Vec3 transform_direction(const Mat4& m, const Vec3& v) noexcept;
/// A uniform scale matrix.
Mat4 scale_matrix(float s) noexcept;

}  // namespace mmdkit::scene
