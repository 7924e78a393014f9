// Curve split, quantisation and fit (motion/curve.hpp) against the evaluator's bezier_weight.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "mmdkit/anim/bezier.hpp"
#include "mmdkit/motion/curve.hpp"

namespace mmdkit::motion {
namespace {

// x1 = 1/3, x2 = 2/3 make x(s) = s, and y1 = 0, y2 = 1 make y(s) = 3s^2 - 2s^3 (smoothstep): the
// weight is known in closed form.
TEST(Curve, WeightSolvesTheParameterToTheLastBits) {
  const ExactCurve c{1.0 / 3, 0, 2.0 / 3, 1};
  for (double x : {1e-9, 0.001, 0.1, 0.25, 0.5, 0.7, 0.999, 1 - 1e-9})
    EXPECT_NEAR(curve_weight(c, x), 3 * x * x - 2 * x * x * x, 1e-14) << x;
  // x1 = 1, x2 = 0: x'(s) = 3 (1 - 2s)^2 is 0 at s = 1/2, where x = y = 1/2. In doubles x(s) is flat
  // there over |s - 1/2| ~ (1e-16)^(1/3), so the weight is known to about 1e-5.
  const ExactCurve flat{1, 0, 0, 1};
  EXPECT_NEAR(curve_weight(flat, 0.5), 0.5, 2e-5);
}

TEST(Curve, SubCurveOfLinearIsLinearOnTheGrid) {
  const ExactCurve e = sub_curve(vmd::kLinearCurve, 0.25, 0.75);
  // The line y = x stays the line: any control points on it; quantised it evaluates as y = x.
  for (double x = 0; x <= 1; x += 0.125) EXPECT_NEAR(curve_weight(e, x), x, 1e-12);
  const QuantizedCurve q = quantize_curve(e);
  EXPECT_LT(q.max_error, 1e-6);
}

TEST(Curve, SubCurveReproducesTheSegmentPiece) {
  // An ease-in-out curve; the piece [0.2, 0.7] re-normalized must equal
  // (W(0.2 + x'·0.5) − W(0.2)) / (W(0.7) − W(0.2)) with W the evaluator's weight.
  const vmd::Curve c{100, 10, 30, 120};
  const double x0 = 0.2, x1 = 0.7;
  const double w0 = anim::bezier_weight(c, float(x0)), w1 = anim::bezier_weight(c, float(x1));
  const ExactCurve e = sub_curve(c, x0, x1);
  for (int k = 0; k <= 20; ++k) {
    const double xp = k / 20.0;
    const double want = (double(anim::bezier_weight(c, float(x0 + xp * (x1 - x0)))) - w0) / (w1 - w0);
    EXPECT_NEAR(curve_weight(e, xp), want, 2e-6) << xp;  // float evaluator vs double
  }
  const QuantizedCurve q = quantize_curve(e);
  // Measured on the grid: within a few hundredths of the weight.
  EXPECT_LT(q.max_error, 0.02);
  for (int k = 0; k <= 20; ++k) {
    const double xp = k / 20.0;
    EXPECT_NEAR(anim::bezier_weight(q.curve, float(xp)), curve_weight(e, xp), q.max_error + 1e-6);
  }
}

TEST(Curve, WholeSubCurveIsTheCurve) {
  const vmd::Curve c{64, 0, 64, 127};
  const QuantizedCurve q = quantize_curve(sub_curve(c, 0, 1));
  EXPECT_EQ(q.curve, c);
  EXPECT_LT(q.max_error, 1e-6);
}

TEST(Curve, FitFindsAGridCurveFromItsSamples) {
  const vmd::Curve c{90, 15, 40, 110};
  std::vector<double> xs, ws;
  for (int k = 1; k < 30; ++k) {
    xs.push_back(static_cast<float>(k / 30.0));
    ws.push_back(anim::bezier_weight(c, float(xs.back())));
  }
  const QuantizedCurve q = fit_curve(xs, ws);
  // A local search: not always the exact grid curve, but close (0.0177 measured for this one).
  EXPECT_LT(q.max_error, 0.02);
  for (std::size_t i = 0; i < xs.size(); ++i)
    EXPECT_NEAR(anim::bezier_weight(q.curve, float(xs[i])), ws[i], q.max_error + 1e-9);
}

}  // namespace
}  // namespace mmdkit::motion
