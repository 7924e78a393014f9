// Placement matrices (placement.hpp).
#include "mmdkit/scene/placement.hpp"

#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/pose.hpp"

namespace mmdkit::scene {

namespace {
constexpr float kDegree = 3.14159265358979323846f / 180.0f;
}

bool Placement::is_identity() const noexcept {
  return position == Vec3{} && rotation == Vec3{} && scale == 1.0f;
}

Quat placement_rotation(const Placement& p) noexcept {
  const Quat qx = quat_from_axis_angle({1, 0, 0}, p.rotation[0] * kDegree);
  const Quat qy = quat_from_axis_angle({0, 1, 0}, p.rotation[1] * kDegree);
  const Quat qz = quat_from_axis_angle({0, 0, 1}, p.rotation[2] * kDegree);
  return quat_normalize(quat_multiply(qz, quat_multiply(qy, qx)));
}

Mat4 placement_matrix(const Vec3& position, const Quat& rotation, float scale) noexcept {
  Mat4 m = anim::rigid_matrix(rotation, position);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[static_cast<std::size_t>(c * 4 + r)] *= scale;
  return m;
}

Mat4 placement_matrix(const Placement& p) noexcept {
  if (p.is_identity()) return scale_matrix(1.0f);
  return placement_matrix(p.position, placement_rotation(p), p.scale);
}

Mat4 multiply(const Mat4& a, const Mat4& b) noexcept {
  Mat4 m{};
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t r = 0; r < 4; ++r) {
      float s = 0;
      for (std::size_t k = 0; k < 4; ++k) s += a[k * 4 + r] * b[c * 4 + k];
      m[c * 4 + r] = s;
    }
  return m;
}

Vec3 transform_point(const Mat4& m, const Vec3& p) noexcept {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]};
}

Vec3 transform_direction(const Mat4& m, const Vec3& v) noexcept {
  return {m[0] * v[0] + m[4] * v[1] + m[8] * v[2], m[1] * v[0] + m[5] * v[1] + m[9] * v[2],
          m[2] * v[0] + m[6] * v[1] + m[10] * v[2]};
}

Mat4 scale_matrix(float s) noexcept { return {s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1}; }

}  // namespace mmdkit::scene
