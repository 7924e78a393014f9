// Quaternion helpers (core/math.hpp). Computed in double, stored in float.
#include <cmath>

#include "mmdkit/core/math.hpp"
#include "core/quat_product.hpp"

namespace mmdkit {

namespace {
double d(float v) noexcept { return static_cast<double>(v); }
double dot4(const Quat& a, const Quat& b) noexcept {
  return d(a[0]) * d(b[0]) + d(a[1]) * d(b[1]) + d(a[2]) * d(b[2]) + d(a[3]) * d(b[3]);
}
}  // namespace

Quat quat_normalize(const Quat& q) noexcept {
  const double n2 = dot4(q, q);
  // n2 is NaN or inf for non-finite components; < 1e-30 catches zero and denormal noise.
  if (!(n2 >= 1e-30) || !std::isfinite(n2)) return kIdentityQuat;
  const double inv = 1.0 / std::sqrt(n2);
  return {static_cast<float>(d(q[0]) * inv), static_cast<float>(d(q[1]) * inv), static_cast<float>(d(q[2]) * inv),
          static_cast<float>(d(q[3]) * inv)};
}

Quat quat_slerp(const Quat& a, const Quat& b, float t) noexcept {
  const Quat qa = quat_normalize(a);
  if (std::isnan(t)) return qa;
  Quat qb = quat_normalize(b);
  double cosine = dot4(qa, qb);
  if (cosine < 0) {  // shortest arc: −b is the same rotation
    for (float& c : qb) c = -c;
    cosine = -cosine;
  }
  const double td = d(t);
  double s0 = 1.0 - td, s1 = td;
  if (cosine < 1.0 - 1e-6) {
    const double theta = std::acos(cosine);
    const double st = std::sin(theta);
    s0 = std::sin((1.0 - td) * theta) / st;
    s1 = std::sin(td * theta) / st;
  }
  Quat r;
  for (std::size_t i = 0; i < 4; ++i) r[i] = static_cast<float>(s0 * d(qa[i]) + s1 * d(qb[i]));
  return quat_normalize(r);
}

Quat quat_multiply(const Quat& a, const Quat& b) noexcept {
  const auto r =
      ::mmdkit::detail::quat_product<double>({d(a[0]), d(a[1]), d(a[2]), d(a[3])}, {d(b[0]), d(b[1]), d(b[2]), d(b[3])});
  return {static_cast<float>(r.x), static_cast<float>(r.y), static_cast<float>(r.z), static_cast<float>(r.w)};
}

Quat quat_conjugate(const Quat& q) noexcept { return {-q[0], -q[1], -q[2], q[3]}; }

Vec3 quat_rotate(const Quat& q, const Vec3& v) noexcept {
  // v' = v + 2w(u × v) + 2 u × (u × v), u = (x, y, z)
  const double ux = d(q[0]), uy = d(q[1]), uz = d(q[2]), w = d(q[3]);
  const double vx = d(v[0]), vy = d(v[1]), vz = d(v[2]);
  const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  const double ccx = uy * cz - uz * cy, ccy = uz * cx - ux * cz, ccz = ux * cy - uy * cx;
  return {static_cast<float>(vx + 2 * (w * cx + ccx)), static_cast<float>(vy + 2 * (w * cy + ccy)),
          static_cast<float>(vz + 2 * (w * cz + ccz))};
}

Quat quat_from_axis_angle(const Vec3& axis, float angle) noexcept {
  const double h = 0.5 * d(angle);
  const double s = std::sin(h);
  return {static_cast<float>(d(axis[0]) * s), static_cast<float>(d(axis[1]) * s), static_cast<float>(d(axis[2]) * s),
          static_cast<float>(std::cos(h))};
}

float quat_angle_between(const Quat& a, const Quat& b) noexcept {
  // r = a⁻¹·b; angle = 2·atan2(|r.xyz|, |r.w|) (well conditioned near 0, unlike acos of a dot).
  const Quat qa = quat_normalize(a), qb = quat_normalize(b);
  const auto r = ::mmdkit::detail::quat_product<double>({-d(qa[0]), -d(qa[1]), -d(qa[2]), d(qa[3])},
                                                      {d(qb[0]), d(qb[1]), d(qb[2]), d(qb[3])});
  const double rx = r.x, ry = r.y, rz = r.z, rw = r.w;
  return static_cast<float>(2.0 * std::atan2(std::sqrt(rx * rx + ry * ry + rz * rz), std::fabs(rw)));
}

}  // namespace mmdkit
