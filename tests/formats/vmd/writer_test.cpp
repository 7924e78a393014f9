// vmd::write for motions built in code, and vmd::check.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats/vmd/fixture.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {
namespace {

using test::VmdBytes;

TEST(VmdWrite, NamesFromTextAreEncodedAndPadded) {
  Motion m;  // signature left zero: canonical text is written
  m.model_name.text = "miku";
  m.bone_names.push_back(TrackName{{}, "センター"});
  m.morph_names.push_back(TrackName{{}, "あ"});
  BoneKey b;
  b.frame = 3;
  b.position = {1, 2, 3};
  b.rotation = {0, 0, 0, 1};
  b.interpolation.fill(20);
  m.bone_keys.push_back(b);
  m.morph_keys.push_back(MorphKey{0, 4, 0.5f});
  PropertyKey p;
  p.frame = 9;
  p.ik.push_back(IkState{{{}, "左足ＩＫ"}, 0});
  m.property_keys.push_back(p);
  m.sections_present = 2;  // raised to 6 for the property key
  auto w = write(m);
  ASSERT_TRUE(w) << w.error().to_string();
  VmdBytes v;
  v.header(true, "miku");
  v.u32(1).field(test::kCenterSjis, 15).u32(3).f32(1).f32(2).f32(3).f32(0).f32(0).f32(0).f32(1);
  v.b.insert(v.b.end(), 64, 20);
  v.u32(1).morph(test::kAUpperSjis, 4, 0.5f);
  v.u32(0).u32(0).u32(0).u32(1).property(9, 1, {{test::kLeftLegIkSjis, 0}});
  EXPECT_EQ(*w, v.b);
}

TEST(VmdWrite, VersionOneAndSignatureRules) {
  VmdBytes v;
  v.raw("Vocaloid Motion Data 0002").u8(0).raw("JKLM").field("a-long-model-name-20", 20).u32(0).u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r);
  Motion m = r->motion;
  m.version = Version::v1;  // stored signature is for v2: the canonical v1 text is written
  auto w = write(m);
  ASSERT_TRUE(w);
  VmdBytes e;
  e.field("Vocaloid Motion Data file", 30).raw("a-long-mod").u32(0).u32(0);  // name cut to 10 bytes
  EXPECT_EQ(*w, e.b);
  // Text longer than the field is cut at the byte limit, like MMD.
  Motion n;
  n.bone_names.push_back(TrackName{{}, "0123456789ABCDEFGH"});
  n.bone_keys.push_back(BoneKey{});
  n.sections_present = 2;
  auto x = write(n);
  ASSERT_TRUE(x);
  EXPECT_EQ(std::string(x->begin() + 54, x->begin() + 69), "0123456789ABCDE");
}

TEST(VmdWrite, Errors) {
  Motion m;
  m.bone_keys.push_back(BoneKey{});  // name index 0, but no names
  auto w = write(m);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(w.error().section, "bone keyframes");
  EXPECT_EQ(w.error().record, 0);
  Motion n;
  n.morph_names.push_back(TrackName{{}, "\xF0\x9F\x98\x80"});  // an emoji: not in CP932
  n.morph_keys.push_back(MorphKey{});
  auto e = write(n);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, ErrorCode::encoding_error);
  EXPECT_EQ(e.error().record, 0);
}

TEST(VmdCheck, FindingsWithSectionRecordOffset) {
  VmdBytes v;
  v.header();
  v.u32(5)
      .bone("a", 0)
      .bone("a", 0)                                         // duplicate of key 0
      .bone("b", 1, std::numeric_limits<float>::quiet_NaN())  // NaN position
      .bone("c", 1, 0, 0)                                   // zero quaternion
      .bone("d", 1, 0, 2);                                  // length 2
  v.u32(1).morph("m", 0, std::numeric_limits<float>::infinity());
  v.u32(2).camera(5).camera(5);
  auto r = read(v.b);
  ASSERT_TRUE(r);
  auto f = check(r->motion);
  ASSERT_EQ(f.size(), 6u);
  EXPECT_FALSE(f[0].error);
  EXPECT_EQ(f[0].where.record, 1);
  EXPECT_EQ(f[0].where.offset, 54 + 111);
  EXPECT_TRUE(f[1].error);
  EXPECT_EQ(f[1].where.record, 2);
  EXPECT_EQ(f[1].where.section, "bone keyframes");
  EXPECT_FALSE(f[2].error);
  EXPECT_EQ(f[2].where.record, 3);
  EXPECT_NE(f[2].where.message.find("zero"), std::string::npos);
  EXPECT_EQ(f[3].where.record, 4);
  EXPECT_NE(f[3].where.message.find("length 2"), std::string::npos);
  EXPECT_TRUE(f[4].error);
  EXPECT_EQ(f[4].where.section, "morph keyframes");
  EXPECT_EQ(f[4].where.offset, 54 + 5 * 111 + 4);
  EXPECT_FALSE(f[5].error);
  EXPECT_EQ(f[5].where.section, "camera keyframes");
  EXPECT_EQ(f[5].where.record, 1);
  EXPECT_EQ(f[5].where.offset, 54 + 5 * 111 + 4 + 23 + 4 + 61);
}

TEST(VmdCheck, CapsFindingsPerKind) {
  // 30 tracks, each with one key repeating frame 7: one finding per track, 10 listed.
  VmdBytes v;
  v.header();
  v.u32(60);
  for (int i = 0; i < 30; ++i) v.bone("b" + std::to_string(i), 7).bone("b" + std::to_string(i), 7);
  v.u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r);
  auto f = check(r->motion, 10);
  ASSERT_EQ(f.size(), 11u);
  EXPECT_EQ(f[0].track, "b0");
  EXPECT_EQ(f[9].track, "b9");
  EXPECT_EQ(f[10].where.message, "20 more tracks with duplicate keys not listed");
  EXPECT_EQ(f[10].omitted, 20u);
}

TEST(VmdCheck, DuplicateKeysGroupedByTrack) {
  // Bone "a": frames 0 ×3 and 5 ×2 (3 repeating keys at 2 frames); bone "b": 7 frames each twice
  // (7 repeating keys, 5 frames listed); morph "m": 1; camera: 1 (no track name).
  VmdBytes v;
  v.header();
  v.u32(5 + 14 + 1);
  v.bone("b", 100);                                                      // key 0: no repeat
  v.bone("a", 0).bone("a", 5).bone("a", 0).bone("a", 5).bone("a", 0);   // keys 1..5: 3 repeats
  for (std::uint32_t k = 0; k < 7; ++k) v.bone("b", k * 10).bone("b", k * 10);  // keys 6..19
  v.u32(3).morph("m", 2, 0.5f).morph("n", 2, 0.5f).morph("m", 2, 1.0f);
  v.u32(3).camera(5).camera(6).camera(5);
  auto r = read(v.b);
  ASSERT_TRUE(r);
  auto f = check(r->motion);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].track, "a");
  EXPECT_EQ(f[0].keys, 3u);
  EXPECT_EQ(f[0].frames, (std::vector<std::uint32_t>{0, 5}));
  EXPECT_EQ(f[0].where.record, 3);  // the first key of "a" that repeats an earlier key's frame
  EXPECT_EQ(f[0].where.offset, 54 + 3 * 111);
  EXPECT_EQ(f[0].where.message, "track 'a': 3 keys repeat the frame of an earlier key (2 frames: 0, 5); MMD uses the last one read");
  EXPECT_FALSE(f[0].error);
  EXPECT_EQ(f[1].track, "b");
  EXPECT_EQ(f[1].keys, 7u);
  EXPECT_EQ(f[1].frames, (std::vector<std::uint32_t>{0, 10, 20, 30, 40}));
  EXPECT_EQ(f[1].where.record, 7);
  EXPECT_EQ(f[1].where.message,
            "track 'b': 7 keys repeat the frame of an earlier key (7 frames: 0, 10, 20, 30, 40, ...); MMD uses the last one read");
  EXPECT_EQ(f[2].where.section, "morph keyframes");
  EXPECT_EQ(f[2].track, "m");
  EXPECT_EQ(f[2].where.record, 2);
  EXPECT_EQ(f[2].where.message, "track 'm': 1 key repeats the frame of an earlier key (frame 2); MMD uses the last one read");
  EXPECT_EQ(f[3].where.section, "camera keyframes");
  EXPECT_EQ(f[3].track, "");
  EXPECT_EQ(f[3].where.record, 2);
  EXPECT_EQ(f[3].where.message, "1 key repeats the frame of an earlier key (frame 5); MMD uses the last one read");
}

}  // namespace
}  // namespace mmdkit::vmd
