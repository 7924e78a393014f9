// MMD interpolation curve: solve x(s) = x by Newton inside a bisection bracket, return y(s).
// docs/formats/NOTES.md "Evaluation"; see bezier.hpp for the contract.
#include "mmdkit/anim/bezier.hpp"

#include <cmath>

namespace mmdkit::anim {

namespace {

double clamp01(float v) noexcept {
  if (!(v > 0.0f)) return 0.0;  // also NaN → 0
  if (v > 1.0f) return 1.0;
  return static_cast<double>(v);
}

// Cubic Bezier coordinate with end points 0 and 1 and control values c1, c2:
// B(s) = 3(1−s)²s·c1 + 3(1−s)s²·c2 + s³.
double bez(double c1, double c2, double s) noexcept {
  const double r = 1.0 - s;
  return 3.0 * r * r * s * c1 + 3.0 * r * s * s * c2 + s * s * s;
}
double bez_d(double c1, double c2, double s) noexcept {
  const double r = 1.0 - s;
  return 3.0 * r * r * c1 + 6.0 * r * s * (c2 - c1) + 3.0 * s * s * (1.0 - c2);
}

}  // namespace

float bezier_weight(float x1f, float y1f, float x2f, float y2f, float xf) noexcept {
  if (std::isnan(xf)) return 0.0f;
  const double x = clamp01(xf);
  const double x1 = clamp01(x1f), y1 = clamp01(y1f), x2 = clamp01(x2f), y2 = clamp01(y2f);
  if (x1 == y1 && x2 == y2) return static_cast<float>(x);  // the line y = x
  if (x <= 0.0) return 0.0f;
  if (x >= 1.0) return 1.0f;
  double lo = 0.0, hi = 1.0, s = x;
  for (int it = 0; it < 64; ++it) {
    const double f = bez(x1, x2, s) - x;
    if (std::fabs(f) <= kBezierTolerance) break;
    if (f < 0.0) lo = s; else hi = s;
    if (hi - lo < 1e-15) break;
    const double d = bez_d(x1, x2, s);
    double next = d > 1e-12 ? s - f / d : lo - 1.0;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);  // Newton left the bracket: bisect
    s = next;
  }
  return static_cast<float>(bez(y1, y2, s));
}

float bezier_weight(const vmd::Curve& c, float x) noexcept {
  auto unit = [](std::uint8_t v) { return static_cast<float>(v > 127 ? 127 : v) / 127.0f; };
  // The line y = x (nearly every curve of real motions): bezier_weight(0, 0, 1, 1, x) without its
  // conversions, the same value: 0 for NaN and x <= 0, 1 above 1, else x.
  if (c.x1 == c.y1 && c.x2 == c.y2) {
    if (!(x > 0.0f)) return 0.0f;
    return x > 1.0f ? 1.0f : x;
  }
  return bezier_weight(unit(c.x1), unit(c.y1), unit(c.x2), unit(c.y2), x);
}

}  // namespace mmdkit::anim
