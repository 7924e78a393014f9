// trim (motion/trim.hpp): analytic splits, stepped sections, and trim of two halves merged back
// evaluating like the original through anim::Character.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/anim/bezier.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/motion/merge.hpp"
#include "mmdkit/motion/trim.hpp"
#include "motion/motion_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::motion {
namespace {

using test::key;
using test::name;

vmd::Motion two_keys(vmd::Curve c) {
  vmd::Motion m;
  m.bone_names = {name("センター")};
  m.bone_keys = {key(0, 0, {0, 0, 0}), key(0, 10, {10, 20, -30}, {0, 0, 0, 1}, c)};
  return m;
}

TEST(Trim, LinearSplitIsExact) {
  auto t = trim(two_keys(vmd::kLinearCurve), {5, 10});
  ASSERT_TRUE(t);
  ASSERT_EQ(t->bone_keys.size(), 2u);
  EXPECT_EQ(t->bone_keys[0].frame, 5u);
  EXPECT_FLOAT_EQ(t->bone_keys[0].position[0], 5.0f);
  EXPECT_FLOAT_EQ(t->bone_keys[0].position[1], 10.0f);
  EXPECT_FLOAT_EQ(t->bone_keys[0].position[2], -15.0f);
  EXPECT_EQ(t->bone_keys[1].frame, 10u);
  const auto c = vmd::decode_bone_interpolation(t->bone_keys[1].interpolation);
  // The second half of y = x is y = x: on the grid its samples are exactly linear.
  for (float x : {0.1f, 0.5f, 0.9f}) EXPECT_NEAR(anim::bezier_weight(c.x, x), x, 1e-6);
}

TEST(Trim, CurvedSplitKeysTheValueAndTheSubCurve) {
  const vmd::Curve ease{100, 0, 27, 127};
  TrimReport r;
  auto t = trim(two_keys(ease), {4, 10}, &r);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->bone_keys.size(), 2u);
  const double w4 = static_cast<double>(anim::bezier_weight(ease, 0.4f));
  EXPECT_NEAR(t->bone_keys[0].position[0], 10 * w4, 1e-5);
  // Every frame 4..10 evaluates within the reported bound, and the bound is small.
  const auto a = anim::build_bone_track(two_keys(ease).bone_keys);
  const auto b = anim::build_bone_track(t->bone_keys);
  double worst = 0;
  std::uint32_t c1 = 0, c2 = 0;
  for (double f = 4; f <= 10; f += 0.25) {
    const auto pa = anim::sample_bone(a, f, c1), pb = anim::sample_bone(b, f, c2);
    worst = std::max(worst, std::abs(double(pa.translation[1]) - double(pb.translation[1])));
  }
  EXPECT_LE(worst, r.max_translation_error + 1e-5);
  EXPECT_LT(r.max_curve_error, 0.02);
  // 4 curves on the key at 10 (the piece after the cut) and 4 on the new key at 4 (the piece
  // before it, kept for a merge with the half before).
  EXPECT_EQ(r.split_curves, 8u);
}

TEST(Trim, ExactKeysWholeFramesOfCutSegments) {
  auto t = trim(two_keys(vmd::Curve{100, 0, 27, 127}), {3, 7}, nullptr);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bone_keys.size(), 2u);
  TrimReport r;
  t = trim(two_keys(vmd::Curve{100, 0, 27, 127}), {3, 7, true}, &r);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->bone_keys.size(), 5u);  // 3, 4, 5, 6, 7
  EXPECT_LT(r.max_translation_error_whole, 1e-5);
}

TEST(Trim, OutsideTheKeysHoldsTheEndValues) {
  auto t = trim(two_keys(vmd::kLinearCurve), {20, 30});
  ASSERT_TRUE(t);
  ASSERT_EQ(t->bone_keys.size(), 2u);
  EXPECT_EQ(t->bone_keys[0].frame, 20u);
  EXPECT_EQ(t->bone_keys[1].frame, 30u);
  EXPECT_FLOAT_EQ(t->bone_keys[1].position[2], -30.0f);
}

TEST(Trim, SteppedSectionsCopyTheKeyInForce) {
  vmd::Motion m;
  vmd::PropertyKey p0, p1;
  p0.frame = 0;
  p0.visible = 0;
  p1.frame = 50;
  p1.visible = 1;
  m.property_keys = {p0, p1};
  m.self_shadow_keys = {{0, 2, 0.02f}, {40, 0, 0.01f}};
  auto t = trim(m, {10, 45});
  ASSERT_TRUE(t);
  ASSERT_EQ(t->property_keys.size(), 2u);
  EXPECT_EQ(t->property_keys[0].frame, 10u);
  EXPECT_EQ(t->property_keys[0].visible, 0);
  EXPECT_EQ(t->property_keys[1].visible, 0);
  ASSERT_EQ(t->self_shadow_keys.size(), 3u);  // 10 (from 0), 40, 45 (from 40)
  EXPECT_EQ(t->self_shadow_keys[0].mode, 2);
  EXPECT_EQ(t->self_shadow_keys[2].mode, 0);
}

TEST(Trim, BadRangeIsRefused) {
  auto t = trim(two_keys(vmd::kLinearCurve), {9, 3});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, ErrorCode::invalid_argument);
}

// Done-when: trim of two halves merged back evaluates like the original (Character, every whole
// frame, bones with IK, morphs, camera) within 1e-5.
TEST(Trim, HalvesMergedEvaluateLikeTheOriginal) {
  const vmd::Motion m = test::generated(11, 120, 500);
  for (std::uint32_t cut : {37u, 60u, 93u}) {
    auto a = trim(m, {0, cut, true});
    auto b = trim(m, {cut, 120, true});
    ASSERT_TRUE(a && b);
    auto merged = merge(*a, *b);
    ASSERT_TRUE(merged);
    const auto want = test::evaluate(test::humanoid(), m, 0, 120);
    const auto got = test::evaluate(test::humanoid(), *merged, 0, 120);
    EXPECT_LT(test::max_difference(want, got), 1e-5) << "cut " << cut;
    EXPECT_LE(test::max_fov_difference(want, got), 0.5) << "cut " << cut;
  }
}

// Without --exact: within the change trim reports (local key pose, every whole frame).
TEST(Trim, HalvesWithoutExactStayWithinTheReport) {
  const vmd::Motion m = test::generated(12, 120, 500);
  TrimReport ra, rb;
  auto a = trim(m, {0, 50}, &ra);
  auto b = trim(m, {50, 120}, &rb);
  ASSERT_TRUE(a && b);
  auto merged = merge(*a, *b);
  ASSERT_TRUE(merged);
  const auto want = test::evaluate(test::humanoid(), m, 0, 120, false);
  const auto got = test::evaluate(test::humanoid(), *merged, 0, 120, false);
  const double tol_t = std::max(ra.max_translation_error_whole, rb.max_translation_error_whole) + 1e-5;
  const double tol_r = std::max(ra.max_rotation_error_deg_whole, rb.max_rotation_error_deg_whole) + 1e-3;
  for (std::size_t f = 0; f < want.size(); ++f)
    for (std::size_t i = 0; i < want[f].local.size(); ++i) {
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(want[f].local_t[i][c], got[f].local_t[i][c], tol_t);
      EXPECT_LE(double(quat_angle_between(want[f].local[i], got[f].local[i])) * 180 / 3.14159265358979, tol_r);
    }
}

TEST(Trim, CorpusHalvesMergedEvaluateLikeTheOriginal) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = ::mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  if (!f) GTEST_SKIP() << "wavefile_v2.vmd not in the corpus";
  auto m = vmd::read(::mmdkit::test::read_bytes(f->path));
  ASSERT_TRUE(m);
  auto a = trim(m->motion, {0, 1000, true});
  auto b = trim(m->motion, {1000, 2000, true});
  ASSERT_TRUE(a && b);
  auto merged = merge(*a, *b);
  ASSERT_TRUE(merged);
  const auto want = test::evaluate(test::humanoid(), m->motion, 900, 1100);
  const auto got = test::evaluate(test::humanoid(), *merged, 900, 1100);
  EXPECT_LT(test::max_difference(want, got), 1e-5);
}

}  // namespace
}  // namespace mmdkit::motion
