// Track sampling: at keys, between keys (curves of the later key), before/after, duplicates,
// cursor cache, morph lerp.
#include <gtest/gtest.h>

#include <random>

#include <cstring>

#include <cmath>
#include <numbers>

#include "anim/anim_test_util.hpp"
#include "mmdkit/anim/sampler.hpp"

namespace mmdkit::anim {
namespace {

using test::bone_key;
constexpr float kPi = std::numbers::pi_v<float>;
const Quat kRotZ90 = {0, 0, std::sin(kPi / 4), std::cos(kPi / 4)};
const Quat kRotZ45 = {0, 0, std::sin(kPi / 8), std::cos(kPi / 8)};
// (0,127),(0,127): x(s) = s³, y(s) = 1 − (1 − s)³, so x = 0.125 → weight 0.875.
constexpr vmd::Curve kEaseOut{0, 127, 0, 127};

TEST(Sampler, AtBetweenBeforeAfterKeys) {
  std::vector<vmd::BoneKey> keys = {bone_key(0, 10, {0, 0, 0}), bone_key(0, 20, {10, 20, 30}, kRotZ90)};
  auto track = build_bone_track(keys);
  ASSERT_EQ(track.size(), 2u);
  std::uint32_t cur = 0;
  BonePose p = sample_bone(track, 15.0, cur);
  EXPECT_FLOAT_EQ(p.translation[0], 5);
  EXPECT_FLOAT_EQ(p.translation[1], 10);
  EXPECT_FLOAT_EQ(p.translation[2], 15);
  EXPECT_LT(quat_angle_between(p.rotation, kRotZ45), 1e-6f);
  p = sample_bone(track, 0.0, cur);  // before the first key
  EXPECT_EQ(p.translation, (Vec3{0, 0, 0}));
  EXPECT_EQ(p.rotation, kIdentityQuat);
  p = sample_bone(track, 10.0, cur);
  EXPECT_EQ(p.translation, (Vec3{0, 0, 0}));
  p = sample_bone(track, 20.0, cur);
  EXPECT_EQ(p.translation, (Vec3{10, 20, 30}));
  p = sample_bone(track, 1e6, cur);  // after the last
  EXPECT_EQ(p.translation, (Vec3{10, 20, 30}));
  EXPECT_LT(quat_angle_between(p.rotation, kRotZ90), 1e-6f);
  p = sample_bone(track, std::nan(""), cur);  // NaN → first key
  EXPECT_EQ(p.translation, (Vec3{0, 0, 0}));
}

TEST(Sampler, UsesTheLaterKeysCurves) {
  // Later key: X eases out, Y linear, rotation eases out. Earlier key: Z eases out (ignored).
  std::vector<vmd::BoneKey> keys = {
      bone_key(0, 10, {0, 0, 0}, {0, 0, 0, 1}, vmd::kLinearCurve, vmd::kLinearCurve, kEaseOut, kEaseOut),
      bone_key(0, 18, {10, 20, 40}, kRotZ90, kEaseOut, vmd::kLinearCurve, vmd::kLinearCurve, kEaseOut)};
  auto track = build_bone_track(keys);
  std::uint32_t cur = 0;
  BonePose p = sample_bone(track, 11.0, cur);  // x = 1/8
  EXPECT_NEAR(p.translation[0], 8.75, 1e-5);
  EXPECT_NEAR(p.translation[1], 2.5, 1e-5);
  EXPECT_NEAR(p.translation[2], 5.0, 1e-5);
  // rotation weight 0.875 of 90° about Z = 78.75°.
  Quat want{0, 0, std::sin(78.75f * kPi / 360), std::cos(78.75f * kPi / 360)};
  EXPECT_LT(quat_angle_between(p.rotation, want), 1e-5f);
}

TEST(Sampler, CurvesComeFromRowsNotPhysicsToggleBytes) {
  // Newer MMD stores 0x63 0x0F in bytes 2 and 3; the Z and rotation x1 must come from rows 2, 3.
  auto with = bone_key(0, 8, {0, 0, 8}, kRotZ90, vmd::kLinearCurve, vmd::kLinearCurve, kEaseOut, kEaseOut, true);
  std::vector<vmd::BoneKey> keys = {bone_key(0, 0, {0, 0, 0}), with};
  EXPECT_EQ(with.interpolation[2], 0x63);
  auto track = build_bone_track(keys);
  std::uint32_t cur = 0;
  BonePose p = sample_bone(track, 1.0, cur);
  EXPECT_NEAR(p.translation[2], 8 * 0.875, 1e-5);
}

TEST(Sampler, LastDuplicateWinsAndOrderDoesNotMatter) {
  std::vector<vmd::BoneKey> keys = {bone_key(0, 20, {1, 0, 0}), bone_key(0, 0, {0, 0, 0}), bone_key(0, 20, {2, 0, 0}),
                                    bone_key(0, 10, {5, 0, 0}), bone_key(0, 20, {3, 0, 0})};
  auto track = build_bone_track(keys);
  ASSERT_EQ(track.size(), 3u);
  EXPECT_EQ(track[0].frame, 0u);
  EXPECT_EQ(track[1].frame, 10u);
  EXPECT_EQ(track[2].frame, 20u);
  EXPECT_EQ(track[2].translation[0], 3.0f);
  std::uint32_t cur = 0;
  EXPECT_FLOAT_EQ(sample_bone(track, 15.0, cur).translation[0], 4.0f);
}

TEST(Sampler, ZeroQuaternionIsIdentity) {
  std::vector<vmd::BoneKey> keys = {bone_key(0, 0, {0, 0, 0}, {0, 0, 0, 0})};
  auto track = build_bone_track(keys);
  EXPECT_EQ(track[0].rotation, kIdentityQuat);
}

TEST(Sampler, CursorGivesSameResultsAsFreshLookups) {
  std::vector<vmd::BoneKey> keys;
  for (std::uint32_t f = 0; f <= 300; f += 7) keys.push_back(bone_key(0, f, {static_cast<float>(f * f % 13), 0, 0}));
  auto track = build_bone_track(keys);
  std::uint32_t seq = 0;
  for (double t = -5; t < 310; t += 0.25) {
    std::uint32_t fresh = 0;
    ASSERT_EQ(sample_bone(track, t, seq).translation, sample_bone(track, t, fresh).translation) << t;
  }
  // Jumping backwards and to random places with a stale (or garbage) cursor.
  std::uint32_t stale = 1000000;
  for (double t : {250.5, 3.0, 299.9, 0.5, 140.0}) {
    std::uint32_t fresh = 0;
    ASSERT_EQ(sample_bone(track, t, stale).translation, sample_bone(track, t, fresh).translation) << t;
  }
  // Analytic: between frames 7 (value 49 % 13 = 10) and 14 (196 % 13 = 1), at 10.5 → 5.5.
  std::uint32_t c = 0;
  EXPECT_FLOAT_EQ(sample_bone(track, 10.5, c).translation[0], 5.5f);
  EXPECT_EQ(c, 1u);
}

TEST(Sampler, FindSegment) {
  std::vector<MorphTrackKey> k = {{0, 0}, {10, 1}, {30, 0}};
  std::span<const MorphTrackKey> s(k);
  std::uint32_t c = 0;
  Segment g = find_segment(s, 20.0, c);
  EXPECT_EQ(g.first, 1u);
  EXPECT_EQ(g.second, 2u);
  EXPECT_FLOAT_EQ(g.x, 0.5f);
  g = find_segment(s, 10.0, c);
  EXPECT_EQ(g.first, 1u);
  EXPECT_EQ(g.second, 1u);
  EXPECT_EQ(find_segment(std::span<const MorphTrackKey>(), 5.0, c).first, 0u);
}

TEST(Sampler, MorphIsLinear) {
  std::vector<vmd::MorphKey> keys = {{0, 10, 1.0f}, {0, 0, 0.0f}, {0, 20, 0.5f}};
  auto track = build_morph_track(keys);
  std::uint32_t c = 0;
  EXPECT_FLOAT_EQ(sample_morph(track, 3.0, c), 0.3f);
  EXPECT_FLOAT_EQ(sample_morph(track, 15.0, c), 0.75f);
  EXPECT_FLOAT_EQ(sample_morph(track, 25.0, c), 0.5f);
  EXPECT_FLOAT_EQ(sample_morph(track, -1.0, c), 0.0f);
  EXPECT_EQ(sample_morph({}, 3.0, c), 0.0f);
}

}  // namespace
}  // namespace mmdkit::anim

namespace mmdkit::anim {
namespace {

// The sampler relies on vmd::decode_bone_interpolation reading curve c from row c; pin that here
// with a block from a real file, since a wrong decode silently changes every sampled value.
TEST(Sampler, BoneCurveDecodeInvertsTheEncoderAndReadsRealBlocks) {
  vmd::Curve x{1, 2, 3, 4}, y{5, 6, 7, 8}, z{9, 10, 11, 12}, r{13, 14, 15, 16};
  for (bool off : {false, true}) {
    vmd::BoneInterpolation b = vmd::decode_bone_interpolation(vmd::encode_bone_interpolation(x, y, z, r, off));
    EXPECT_EQ(b.x, x);
    EXPECT_EQ(b.y, y);
    EXPECT_EQ(b.z, z);
    EXPECT_EQ(b.rotation, r);
    EXPECT_EQ(b.physics_off(), off);
  }
  // A block as newer MMD writes it (corpus, mlib_go サンプルモーション_0046.vmd, first edited key):
  std::array<std::uint8_t, 64> raw = {20, 64, 0,  0,  20, 0,  20, 20, 107, 64, 107, 107, 107, 127, 107, 107,
                                      64, 20, 20, 20, 0,  20, 20, 107, 64, 107, 107, 107, 127, 107, 107, 0,
                                      20, 20, 20, 0,  20, 20, 107, 64, 107, 107, 107, 127, 107, 107, 0,  0,
                                      20, 20, 0,  20, 20, 107, 64, 107, 107, 107, 127, 107, 107, 0,  0,  0};
  vmd::BoneInterpolation b = vmd::decode_bone_interpolation(raw);
  EXPECT_EQ(b.x, (vmd::Curve{20, 20, 107, 107}));
  EXPECT_EQ(b.y, (vmd::Curve{64, 0, 64, 127}));
  EXPECT_EQ(b.z, (vmd::Curve{20, 20, 107, 107}));
  EXPECT_EQ(b.rotation, (vmd::Curve{20, 20, 107, 107}));
}

}  // namespace
}  // namespace mmdkit::anim

namespace mmdkit::anim {
namespace {

// The segment cache (BoneSegmentCache) gives the uncached result bit for bit: rotations that are
// equal, nearly equal (the lerp branch) and far apart (sines; one on the long arc), fractional and
// backward times, and one cache shared by two tracks in turn (it must refill, not reuse).
TEST(Sampler, SegmentCacheGivesTheUncachedPosesBitForBit) {
  const Quat far = quat_normalize({0.3f, -0.5f, 0.7f, -0.4f});  // negative dot with identity: long arc flipped
  const Quat near = quat_normalize({1e-5f, 0.0f, 0.0f, 1.0f});
  const std::vector<vmd::BoneKey> ka = {test::bone_key(0, 0, {0, 0, 0}), test::bone_key(0, 10, {1, 2, 3}, far),
                                        test::bone_key(0, 20, {1, 2, 3}, far), test::bone_key(0, 30, {0, 0, 0}, near)};
  const std::vector<vmd::BoneKey> kb = {test::bone_key(0, 0, {0, 0, 0}, near), test::bone_key(0, 10, {5, 0, 0}, far)};
  const auto ta = build_bone_track(ka), tb = build_bone_track(kb);
  BoneSegmentCache shared, own;
  std::uint32_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  int checked = 0;
  for (double t : {0.0, 0.5, 3.25, 9.99, 10.0, 12.5, 15.0, 4.0, 25.0, 29.5, 31.0, 1.0, 17.75}) {
    const BonePose want_a = sample_bone(ta, t, c1), want_b = sample_bone(tb, t, c2);
    const BonePose got_a = sample_bone(ta, t, c3, own);
    const BonePose got_b = sample_bone(tb, t, c4, shared);
    const BonePose got_a2 = sample_bone(ta, t, c3, shared);  // the shared cache now holds tb's segment
    EXPECT_EQ(std::memcmp(&want_a, &got_a, sizeof want_a), 0) << t;
    EXPECT_EQ(std::memcmp(&want_b, &got_b, sizeof want_b), 0) << t;
    EXPECT_EQ(std::memcmp(&want_a, &got_a2, sizeof want_a), 0) << t;
    ++checked;
  }
  EXPECT_EQ(checked, 13);
  // A value that could be wrong: halfway between identity and `far` is not `far`.
  std::uint32_t c = 0;
  BoneSegmentCache cache;
  EXPECT_GT(quat_angle_between(sample_bone(ta, 5.0, c, cache).rotation, far), 0.1f);
}

// A segment whose pose does not change (equal translations, one of them -0, and equal rotations)
// is held by the cache and answered without a search: still the uncached pose bit for bit inside
// it (translation -0 + 0 = +0 there, the key's own -0 at its frame), at its keys, after the cursor
// left it and came back, and backwards.
TEST(Sampler, HeldSegmentGivesTheUncachedPosesBitForBit) {
  const Quat q = quat_normalize({0.1f, 0.2f, -0.3f, 0.9f});
  const std::vector<vmd::BoneKey> k = {test::bone_key(0, 0, {-0.0f, 1, 2}, q), test::bone_key(0, 10, {-0.0f, 1, 2}, q),
                                       test::bone_key(0, 20, {4, 1, 2}, q), test::bone_key(0, 30, {4, 1, 2}, q)};
  const auto track = build_bone_track(k);
  BoneSegmentCache cache;
  std::uint32_t plain = 0, cached = 0;
  int held = 0;
  for (double t : {0.0, 0.5, 5.0, 9.75, 10.0, 3.0, 7.0, 15.0, 25.0, 21.0, 29.0, 4.0, 30.0, 6.0, 35.0, 8.0}) {
    const BonePose want = sample_bone(track, t, plain), got = sample_bone(track, t, cached, cache);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << t;
    held += cache.holds;
  }
  EXPECT_GT(held, 0);  // the fast path ran
  std::uint32_t c = 0;
  EXPECT_FALSE(std::signbit(sample_bone(track, 5.0, c).translation[0]));  // inside: -0 + 0
  EXPECT_TRUE(std::signbit(sample_bone(track, 10.0, c).translation[0]));  // on the key: as stored
}

// find_segment's inline answers (the cursor's own segment, a one-key track) are the search's:
// the same segment, x and updated cursor for random tracks, cursors (out of range too) and times
// (on keys, between, before, after, NaN).
TEST(Sampler, InlineSegmentLookupEqualsTheSearch) {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    std::vector<MorphTrackKey> keys;
    std::uint32_t f = rng() % 5;
    for (std::size_t k = 1 + rng() % 6; k > 0; --k, f += 1 + rng() % 7) keys.push_back({f, 0.0f});
    const std::span<const MorphTrackKey> span(keys);
    for (int q = 0; q < 20; ++q) {
      const double frame = q == 0 ? std::nan("") : static_cast<double>(rng() % 50) / 2.0 - 2.0;
      const std::uint32_t start = static_cast<std::uint32_t>(rng() % (keys.size() + 2));
      std::uint32_t c1 = start, c2 = start;
      const Segment a = find_segment(span, frame, c1), b = detail::find_segment_search(span, frame, c2);
      EXPECT_EQ(a.first, b.first) << round << " " << frame;
      EXPECT_EQ(a.second, b.second) << round << " " << frame;
      EXPECT_EQ(std::memcmp(&a.x, &b.x, sizeof a.x), 0) << round << " " << frame;
      EXPECT_EQ(c1, c2) << round << " " << frame;
    }
  }
}

}  // namespace
}  // namespace mmdkit::anim
