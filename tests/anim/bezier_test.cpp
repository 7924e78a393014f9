// Bezier weight: closed forms, symmetry, inverse curves, a long-double bisection reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "mmdkit/anim/bezier.hpp"

namespace mmdkit::anim {
namespace {

// Independent reference: bisection in long double on x(s) = x, 200 halvings.
long double reference(long double x1, long double y1, long double x2, long double y2, long double x) {
  auto b = [](long double c1, long double c2, long double s) {
    long double r = 1 - s;
    return 3 * r * r * s * c1 + 3 * r * s * s * c2 + s * s * s;
  };
  long double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    long double mid = (lo + hi) / 2;
    if (b(x1, x2, mid) < x) lo = mid; else hi = mid;
  }
  return b(y1, y2, (lo + hi) / 2);
}

TEST(Bezier, LinearCurveIsIdentityExactly) {
  for (int i = 0; i <= 1000; ++i) {
    float x = static_cast<float>(i) / 1000.0f;
    EXPECT_EQ(bezier_weight(vmd::kLinearCurve, x), x);
    EXPECT_EQ(bezier_weight(vmd::Curve{64, 64, 3, 3}, x), x);  // any x1 = y1, x2 = y2 is the line
  }
}

TEST(Bezier, ControlXAtThirdsGivesTheYPolynomial) {
  // x1 = 1/3, x2 = 2/3 makes x(s) = s, so the weight is y(x) = 3(1-x)²x·y1 + 3(1-x)x²·y2 + x³.
  const float y1 = 0.9f, y2 = 0.05f;
  for (int i = 0; i <= 100; ++i) {
    double x = i / 100.0;
    double want = 3 * (1 - x) * (1 - x) * x * 0.9 + 3 * (1 - x) * x * x * 0.05 + x * x * x;
    EXPECT_NEAR(bezier_weight(1.0f / 3, y1, 2.0f / 3, y2, static_cast<float>(x)), want, 2e-6) << x;
  }
}

TEST(Bezier, EaseOutClosedForm) {
  // (0,127),(0,127): x(s) = s³, y(s) = 1 − (1 − s)³. x = 0.125 → s = 0.5 → y = 0.875.
  EXPECT_NEAR(bezier_weight(vmd::Curve{0, 127, 0, 127}, 0.125f), 0.875f, 1e-6);
  // x = 0.001 → s = 0.1 → 1 − 0.729 = 0.271.
  EXPECT_NEAR(bezier_weight(vmd::Curve{0, 127, 0, 127}, 0.001f), 0.271f, 1e-5);
}

TEST(Bezier, PointSymmetricCurves) {
  // Curves with (x2, y2) = (127 − x1, 127 − y1) are symmetric about (0.5, 0.5).
  for (std::uint8_t a : {0, 10, 40, 90, 127})
    for (std::uint8_t b : {0, 30, 64, 127}) {
      vmd::Curve c{a, b, static_cast<std::uint8_t>(127 - a), static_cast<std::uint8_t>(127 - b)};
      EXPECT_NEAR(bezier_weight(c, 0.5f), 0.5f, 1e-6);
      for (int i = 1; i < 50; ++i) {
        float x = static_cast<float>(i) / 50.0f;
        EXPECT_NEAR(bezier_weight(c, x) + bezier_weight(c, 1.0f - x), 1.0f, 2e-6) << int(a) << "," << int(b) << " " << x;
      }
    }
}

TEST(Bezier, SwappedCurveIsTheInverseFunction) {
  // Curve (a, b, c, d) mirrored on y = x is (b, a, d, c): w_B(w_A(x)) = x.
  vmd::Curve a{100, 20, 70, 120}, b{20, 100, 120, 70};
  for (int i = 5; i < 95; ++i) {
    float x = static_cast<float>(i) / 100.0f;
    EXPECT_NEAR(bezier_weight(b, bezier_weight(a, x)), x, 2e-5) << x;
  }
}

TEST(Bezier, MatchesLongDoubleBisection) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 127);
  for (int c = 0; c < 300; ++c) {
    vmd::Curve cv{static_cast<std::uint8_t>(byte(rng)), static_cast<std::uint8_t>(byte(rng)),
                  static_cast<std::uint8_t>(byte(rng)), static_cast<std::uint8_t>(byte(rng))};
    // Where x'(s) gets close to 0 inside the curve, y(x) is ill-conditioned (infinite slope):
    // the same float x pins s only to ~(ulp)^(1/3). Loosen the bound there, keep 1e-6 elsewhere.
    double min_slope = 1e9;
    for (int k = 50; k <= 950; ++k) {
      double s = k / 1000.0, r = 1 - s, x1 = cv.x1 / 127.0, x2 = cv.x2 / 127.0;
      min_slope = std::min(min_slope, 3 * r * r * x1 + 6 * r * s * (x2 - x1) + 3 * s * s * (1 - x2));
    }
    const long double tol = min_slope > 0.05 ? 1e-6L : 1e-3L;
    for (int i = 2; i <= 98; i += 3) {
      long double x = i / 100.0L;
      long double want = reference(cv.x1 / 127.0L, cv.y1 / 127.0L, cv.x2 / 127.0L, cv.y2 / 127.0L,
                                   static_cast<long double>(static_cast<float>(x)));
      ASSERT_NEAR(static_cast<long double>(bezier_weight(cv, static_cast<float>(x))), want, tol)
          << int(cv.x1) << " " << int(cv.y1) << " " << int(cv.x2) << " " << int(cv.y2) << " x=" << static_cast<double>(x);
    }
  }
}

TEST(Bezier, MonotoneInX) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> byte(0, 127);
  for (int c = 0; c < 100; ++c) {
    vmd::Curve cv{static_cast<std::uint8_t>(byte(rng)), static_cast<std::uint8_t>(byte(rng)),
                  static_cast<std::uint8_t>(byte(rng)), static_cast<std::uint8_t>(byte(rng))};
    float prev = bezier_weight(cv, 0.0f);
    EXPECT_EQ(prev, 0.0f);
    for (int i = 1; i <= 1000; ++i) {
      float w = bezier_weight(cv, static_cast<float>(i) / 1000.0f);
      ASSERT_GE(w, prev - 1e-6f) << i;
      prev = w;
    }
    EXPECT_NEAR(prev, 1.0f, 1e-6);
  }
}

TEST(Bezier, DefinedOnBadInput) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  vmd::Curve c{10, 100, 90, 5};
  EXPECT_EQ(bezier_weight(c, nan), 0.0f);
  EXPECT_EQ(bezier_weight(c, -3.0f), 0.0f);
  EXPECT_EQ(bezier_weight(c, 7.0f), 1.0f);
  EXPECT_EQ(bezier_weight(c, std::numeric_limits<float>::infinity()), 1.0f);
  // NaN control coordinates count as 0: (NaN, 0.5, 1, 1) behaves like (0, 0.5, 1, 1).
  EXPECT_EQ(bezier_weight(nan, 0.5f, 1.0f, 1.0f, 0.3f), bezier_weight(0.0f, 0.5f, 1.0f, 1.0f, 0.3f));
  // Bytes above 127 are clamped to 127.
  EXPECT_EQ(bezier_weight(vmd::Curve{255, 0, 200, 0}, 0.4f), bezier_weight(vmd::Curve{127, 0, 127, 0}, 0.4f));
}

// A curve on the line y = x (any x1 == y1, x2 == y2) answers without the solver's conversions:
// the same float bits as bezier_weight(0, 0, 1, 1, x) for every x, the ends, -0, NaN, infinities,
// denormals and values outside [0, 1] included.
TEST(Bezier, LinearCurveShortcutEqualsTheGeneralPath) {
  std::vector<float> xs = {0.0f, -0.0f, 1.0f, 0.5f, 1e-40f, -1e-40f, 1.0000001f, 0.99999994f, -3.0f, 7.0f,
                           std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::min()};
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-0.25f, 1.25f);
  for (int i = 0; i < 2000; ++i) xs.push_back(u(rng));
  for (const vmd::Curve c : {vmd::Curve{20, 20, 107, 107}, vmd::Curve{0, 0, 127, 127}, vmd::Curve{64, 64, 64, 64},
                             vmd::Curve{200, 200, 3, 3}}) {
    for (float x : xs) {
      const float want = bezier_weight(0.0f, 0.0f, 1.0f, 1.0f, x), got = bezier_weight(c, x);
      EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << x;
    }
  }
}

}  // namespace
}  // namespace mmdkit::anim
