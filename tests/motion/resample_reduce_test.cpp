// resample and reduce (motion/resample.hpp, reduce.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/motion/reduce.hpp"
#include "mmdkit/motion/resample.hpp"
#include "motion/motion_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::motion {
namespace {

TEST(Resample, At30FpsEvaluatesLikeTheOriginal) {
  const vmd::Motion m = test::generated(4, 90, 300);
  auto r = resample(m, {30, 1});
  ASSERT_TRUE(r);
  EXPECT_GT(r->bone_keys.size(), m.bone_keys.size());
  // IK off: the keys are the sampled values, so every whole frame is the original's to float
  // rounding.
  auto a = test::evaluate(test::humanoid(), m, 0, 90, false), b = test::evaluate(test::humanoid(), *r, 0, 90, false);
  EXPECT_LT(test::max_difference(a, b), 1e-5);
  EXPECT_LE(test::max_fov_difference(a, b), 0.5);  // whole degrees in the file
  // IK on: the CCD solver (40 iterations) turns the last-bit differences of renormalized key
  // rotations into up to ~5e-5 units (measured 5.0e-5).
  a = test::evaluate(test::humanoid(), m, 0, 90, true);
  b = test::evaluate(test::humanoid(), *r, 0, 90, true);
  EXPECT_LT(test::max_difference(a, b), 1e-4);
}

TEST(Resample, From60FpsHalvesTheFrames) {
  vmd::Motion m;
  m.bone_names = {test::name("センター")};
  m.bone_keys = {test::key(0, 0, {0, 0, 0}), test::key(0, 60, {60, 0, 0})};
  vmd::PropertyKey p;
  p.frame = 40;
  m.property_keys = {p};
  auto r = resample(m, {60, 5});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->bone_keys.size(), 7u);  // 0, 5, ..., 30
  for (std::size_t i = 0; i < r->bone_keys.size(); ++i) {
    EXPECT_EQ(r->bone_keys[i].frame, 5 * i);
    EXPECT_FLOAT_EQ(r->bone_keys[i].position[0], 10.0f * i);  // input frame 2g, linear
  }
  ASSERT_EQ(r->property_keys.size(), 1u);
  EXPECT_EQ(r->property_keys[0].frame, 20u);
  EXPECT_FALSE(resample(m, {0, 1}));
  EXPECT_FALSE(resample(m, {30, 0}));
}

// Every whole frame of every track within the tolerances, measured independently of reduce's own
// report with the samplers; for bones through anim::Character's key pose too.
void expect_within(const vmd::Motion& in, const vmd::Motion& out, const ReduceOptions& o) {
  const auto model = test::humanoid();
  const auto range = vmd::frame_range(in);
  ASSERT_TRUE(range);
  const auto a = test::evaluate(model, in, (*range)[0], (*range)[1], false);
  const auto b = test::evaluate(model, out, (*range)[0], (*range)[1], false);
  double wt = 0, wr = 0, ww = 0;
  for (std::size_t f = 0; f < a.size(); ++f) {
    for (std::size_t i = 0; i < a[f].local.size(); ++i) {
      double d = 0;
      for (int c = 0; c < 3; ++c) d += std::pow(double(a[f].local_t[i][c]) - double(b[f].local_t[i][c]), 2);
      wt = std::max(wt, std::sqrt(d));
      wr = std::max(wr, double(quat_angle_between(a[f].local[i], b[f].local[i])) * 180 / std::numbers::pi);
    }
    for (std::size_t i = 0; i < a[f].weights.size(); ++i) ww = std::max(ww, double(std::abs(a[f].weights[i] - b[f].weights[i])));
  }
  EXPECT_LE(wt, o.tol_units * (1 + 1e-4) + 1e-6);
  EXPECT_LE(wr, o.tol_deg * (1 + 1e-3) + 1e-4);
  EXPECT_LE(ww, o.tol_weight + 1e-6);
}

TEST(Reduce, StraightLineBecomesTwoKeys) {
  vmd::Motion m;
  m.bone_names = {test::name("センター")};
  for (std::uint32_t f = 0; f <= 30; ++f) m.bone_keys.push_back(test::key(0, f, {float(f) * 0.5f, 1, 0}));
  ReduceReport r;
  auto out = reduce(m, {}, &r);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->bone_keys.size(), 2u);
  EXPECT_EQ(r.bone_keys_in, 31u);
  EXPECT_EQ(r.bone_keys_out, 2u);
  EXPECT_LE(r.max_translation_error, 0.01);
}

TEST(Reduce, BakedCurvesComeBackFewWithinTolerance) {
  // A generated motion baked on every frame, then reduced: fewer keys, every frame within.
  const vmd::Motion m = test::generated(6, 240, 120);
  auto dense = resample(m, {30, 1});
  ASSERT_TRUE(dense);
  const ReduceOptions o{0.01, 0.1, 0.005};
  ReduceReport r;
  auto out = reduce(*dense, o, &r);
  ASSERT_TRUE(out);
  EXPECT_LT(r.bone_keys_out, r.bone_keys_in / 2);
  EXPECT_LE(r.max_translation_error, o.tol_units);
  EXPECT_LE(r.max_rotation_error_deg, o.tol_deg);
  expect_within(*dense, *out, o);
}

TEST(Reduce, CorpusWavefileWithinTolerance) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = ::mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  if (!f) GTEST_SKIP() << "wavefile_v2.vmd not in the corpus";
  auto m = vmd::read(::mmdkit::test::read_bytes(f->path));
  ASSERT_TRUE(m);
  const ReduceOptions o{0.01, 0.1, 0.005};
  ReduceReport r;
  auto out = reduce(m->motion, o, &r);
  ASSERT_TRUE(out);
  EXPECT_LE(r.bone_keys_out, r.bone_keys_in);
  EXPECT_LE(r.max_translation_error, o.tol_units);
  EXPECT_LE(r.max_rotation_error_deg, o.tol_deg);
  EXPECT_LE(r.max_weight_error, o.tol_weight);
  std::printf("wavefile_v2 reduce: bone keys %zu -> %zu, morph keys %zu -> %zu, max %.5f units %.5f deg %.5f weight\n",
              r.bone_keys_in, r.bone_keys_out, r.morph_keys_in, r.morph_keys_out, r.max_translation_error,
              r.max_rotation_error_deg, r.max_weight_error);
  expect_within(m->motion, *out, o);
}

TEST(Reduce, BadTolerancesAreRefused) {
  EXPECT_FALSE(reduce(vmd::Motion{}, {-1, 0.1, 0.1}));
  EXPECT_FALSE(reduce(vmd::Motion{}, {0.1, std::nan(""), 0.1}));
}

}  // namespace
}  // namespace mmdkit::motion
