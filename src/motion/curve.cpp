// mmdkit — curve split and quantisation (motion/curve.hpp).
#include "mmdkit/motion/curve.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "mmdkit/anim/bezier.hpp"

namespace mmdkit::motion {

namespace {

struct P {
  double x, y;
};

P lerp(P a, P b, double t) { return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}; }

double bez(double p1, double p2, double s) {
  const double u = 1 - s;
  return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s;
}

double bez_d(double p1, double p2, double s) {
  const double u = 1 - s;
  return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2);
}

// s in [0, 1] with x(s) = x (x(s) is monotone for control x in [0, 1]): Newton's method kept inside
// a shrinking bracket (bisection when a step leaves it), to the last bits of a double.
double solve_s(double x1, double x2, double x) {
  double lo = 0, hi = 1, s = x;
  for (int i = 0; i < 100; ++i) {
    const double f = bez(x1, x2, s) - x;
    if (f == 0) return s;
    if (f < 0)
      lo = s;
    else
      hi = s;
    if (hi - lo <= 1e-16) break;
    const double d = bez_d(x1, x2, s);
    double next = d > 1e-300 ? s - f / d : lo - 1;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - s) <= 1e-17) return next;
    s = next;
  }
  return 0.5 * (lo + hi);
}

// The cubic p0..p3 cut to [s0, s1] (de Casteljau twice).
std::array<P, 4> cut(const std::array<P, 4>& p, double s0, double s1) {
  // Right part from s0.
  auto split_right = [](const std::array<P, 4>& q, double t) {
    const P a = lerp(q[0], q[1], t), b = lerp(q[1], q[2], t), c = lerp(q[2], q[3], t);
    const P d = lerp(a, b, t), e = lerp(b, c, t);
    const P f = lerp(d, e, t);
    return std::array<P, 4>{f, e, c, q[3]};
  };
  auto split_left = [](const std::array<P, 4>& q, double t) {
    const P a = lerp(q[0], q[1], t), b = lerp(q[1], q[2], t), c = lerp(q[2], q[3], t);
    const P d = lerp(a, b, t), e = lerp(b, c, t);
    const P f = lerp(d, e, t);
    return std::array<P, 4>{q[0], a, d, f};
  };
  std::array<P, 4> r = split_right(p, s0);
  if (s0 >= 1) return r;
  const double t = (s1 - s0) / (1 - s0);
  return split_left(r, t);
}

}  // namespace

double curve_weight(const ExactCurve& c, double x) noexcept {
  if (!(x > 0)) return 0;
  if (x >= 1) return 1;
  return bez(c.y1, c.y2, solve_s(c.x1, c.x2, x));
}

ExactCurve sub_curve(const vmd::Curve& curve, double x0, double x1) noexcept {
  if (!(x0 >= 0 && x1 <= 1 && x0 < x1)) return {};
  auto g = [](std::uint8_t v) { return std::min<double>(v, 127) / 127.0; };
  const double cx1 = g(curve.x1), cy1 = g(curve.y1), cx2 = g(curve.x2), cy2 = g(curve.y2);
  const double s0 = x0 <= 0 ? 0 : solve_s(cx1, cx2, x0);
  const double s1 = x1 >= 1 ? 1 : solve_s(cx1, cx2, x1);
  const std::array<P, 4> q = cut({P{0, 0}, P{cx1, cy1}, P{cx2, cy2}, P{1, 1}}, s0, s1);
  const double dx = q[3].x - q[0].x, dy = q[3].y - q[0].y;
  if (!(dx > 0) || !(std::abs(dy) > 1e-12)) return {};
  ExactCurve e;
  e.x1 = (q[1].x - q[0].x) / dx;
  e.y1 = (q[1].y - q[0].y) / dy;
  e.x2 = (q[2].x - q[0].x) / dx;
  e.y2 = (q[2].y - q[0].y) / dy;
  return e;
}

namespace {

// Largest weight error over the samples; stops early (returning something > stop) once above `stop`.
double max_error_against(const vmd::Curve& c, std::span<const double> xs, std::span<const double> ws,
                         double stop = 1e300) {
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(anim::bezier_weight(c, static_cast<float>(xs[i]))) - ws[i]));
    if (worst > stop) return worst;
  }
  return worst;
}

}  // namespace

QuantizedCurve quantize_curve(const ExactCurve& exact) noexcept {
  std::array<double, 129> xs{}, ws{};
  for (int k = 0; k <= 128; ++k) {
    xs[k] = k / 128.0;
    ws[k] = curve_weight(exact, xs[k]);
  }
  const std::array<double, 4> v{exact.x1, exact.y1, exact.x2, exact.y2};
  std::array<std::array<std::uint8_t, 2>, 4> opts{};
  for (int i = 0; i < 4; ++i) {
    const double g = std::clamp(v[i] * 127.0, 0.0, 127.0);
    opts[i] = {static_cast<std::uint8_t>(std::floor(g)), static_cast<std::uint8_t>(std::ceil(g))};
  }
  QuantizedCurve best;
  best.max_error = 1e300;
  for (int m = 0; m < 16; ++m) {
    const vmd::Curve c{opts[0][m & 1], opts[1][(m >> 1) & 1], opts[2][(m >> 2) & 1], opts[3][(m >> 3) & 1]};
    const double e = max_error_against(c, xs, ws, best.max_error);
    if (e < best.max_error) best = {c, e};
  }
  return best;
}

QuantizedCurve fit_curve(std::span<const double> xs, std::span<const double> ws, double good_enough) noexcept {
  QuantizedCurve best{vmd::kLinearCurve, 0};
  if (xs.empty()) return best;
  static constexpr std::array<vmd::Curve, 5> kStarts{vmd::Curve{20, 20, 107, 107}, vmd::Curve{64, 0, 64, 127},
                                                     vmd::Curve{64, 0, 127, 127}, vmd::Curve{0, 0, 64, 127},
                                                     vmd::Curve{32, 32, 96, 96}};
  best.max_error = 1e300;
  for (const vmd::Curve& c : kStarts) {
    const double e = max_error_against(c, xs, ws, best.max_error);
    if (e < best.max_error) best = {c, e};
    if (best.max_error <= good_enough) return best;
  }
  // A coarse grid of starts (5^4 curves, most rejected after a few samples), so that the
  // descent below starts near the right basin.
  static constexpr std::array<std::uint8_t, 5> kGrid{0, 32, 64, 96, 127};
  for (std::uint8_t a : kGrid)
    for (std::uint8_t b : kGrid)
      for (std::uint8_t c : kGrid)
        for (std::uint8_t d : kGrid) {
          const vmd::Curve cand{a, b, c, d};
          const double e = max_error_against(cand, xs, ws, best.max_error);
          if (e < best.max_error) best = {cand, e};
        }
  if (best.max_error <= good_enough) return best;
  for (int step = 32; step >= 1; step /= 2) {
    bool improved = true;
    while (improved) {
      improved = false;
      for (int coord = 0; coord < 4; ++coord) {
        for (int sign : {-1, 1}) {
          vmd::Curve c = best.curve;
          std::uint8_t* p = coord == 0 ? &c.x1 : coord == 1 ? &c.y1 : coord == 2 ? &c.x2 : &c.y2;
          const int nv = *p + sign * step;
          if (nv < 0 || nv > 127) continue;
          *p = static_cast<std::uint8_t>(nv);
          const double e = max_error_against(c, xs, ws, best.max_error);
          if (e < best.max_error - 1e-12) {
            best = {c, e};
            improved = true;
            if (best.max_error <= good_enough) return best;
          }
        }
      }
    }
  }
  return best;
}

}  // namespace mmdkit::motion
