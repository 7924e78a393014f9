// Bone rotation quaternion <-> Euler angles as MMD's UI shows them. Convention and sources:
// include/mmdkit/core/euler.hpp and docs/formats/vmd-json.md.
#include "mmdkit/core/euler.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "mmdkit/core/math.hpp"

namespace mmdkit {
namespace {

constexpr double kRadToDeg = 180.0 / std::numbers::pi;
constexpr double kDegToRad = std::numbers::pi / 180.0;
// |sin X| above this is treated as gimbal lock (X within ~0.08 degrees of +-90).
constexpr double kLockSin = 1.0 - 1e-6;

}  // namespace

std::array<float, 3> quaternion_to_euler_degrees(const std::array<float, 4>& q) noexcept {
  double x = static_cast<double>(q[0]), y = static_cast<double>(q[1]);
  double z = static_cast<double>(q[2]), w = static_cast<double>(q[3]);
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z) || !std::isfinite(w)) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    return {nan, nan, nan};
  }
  const double n2 = x * x + y * y + z * z + w * w;
  if (n2 == 0.0) return {0.0f, 0.0f, 0.0f};
  const double inv = 1.0 / std::sqrt(n2);
  x *= inv, y *= inv, z *= inv, w *= inv;

  // Rotation matrix of q (column vectors): m_rc.
  const double m00 = 1.0 - 2.0 * (y * y + z * z);
  const double m02 = 2.0 * (x * z + w * y);
  const double m10 = 2.0 * (x * y + w * z);
  const double m11 = 1.0 - 2.0 * (x * x + z * z);
  const double m12 = 2.0 * (y * z - w * x);
  const double m20 = 2.0 * (x * z - w * y);
  const double m22 = 1.0 - 2.0 * (x * x + y * y);

  // R = Ry(ry) Rx(rx) Rz(rz): m12 = -sin(rx), m02/m22 = tan(ry), m10/m11 = tan(rz).
  const double sx = -m12;
  double rx, ry, rz;
  if (std::fabs(sx) > kLockSin) {
    rx = sx > 0 ? std::numbers::pi / 2 : -std::numbers::pi / 2;
    rz = 0.0;
    // With rz = 0: m00 = cos ry, -m20 = sin ry for both signs of rx.
    ry = std::atan2(-m20, m00);
  } else {
    rx = std::asin(sx);
    ry = std::atan2(m02, m22);
    rz = std::atan2(m10, m11);
  }
  // MMD's UI shows (X, -Y, -Z) of this decomposition. Adding 0.0 turns -0 into +0.
  return {static_cast<float>(rx * kRadToDeg + 0.0), static_cast<float>(-ry * kRadToDeg + 0.0),
          static_cast<float>(-rz * kRadToDeg + 0.0)};
}

std::array<float, 4> euler_degrees_to_quaternion(const std::array<float, 3>& degrees) noexcept {
  const double hx = 0.5 * kDegToRad * static_cast<double>(degrees[0]);
  const double hy = 0.5 * kDegToRad * -static_cast<double>(degrees[1]);
  const double hz = 0.5 * kDegToRad * -static_cast<double>(degrees[2]);
  const double cx = std::cos(hx), sx = std::sin(hx);
  const double cy = std::cos(hy), sy = std::sin(hy);
  const double cz = std::cos(hz), sz = std::sin(hz);
  // qY * qX * qZ (Hamilton product), qY = (0, sy, 0, cy), qX = (sx, 0, 0, cx), qZ = (0, 0, sz, cz).
  const double x = cy * sx * cz + sy * cx * sz;
  const double y = sy * cx * cz - cy * sx * sz;
  const double z = cy * cx * sz - sy * sx * cz;
  const double w = cy * cx * cz + sy * sx * sz;
  return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), static_cast<float>(w)};
}

bool euler_edited(const std::array<float, 3>& degrees, const std::array<float, 4>& q, double tolerance_degrees) noexcept {
  for (float v : q)
    if (!std::isfinite(v)) return false;
  for (float v : degrees)
    if (!std::isfinite(v)) return false;
  if (quaternion_to_euler_degrees(q) == degrees) return false;
  const double angle = static_cast<double>(quat_angle_between(q, euler_degrees_to_quaternion(degrees)));
  return angle * kRadToDeg > tolerance_degrees;
}

}  // namespace mmdkit
