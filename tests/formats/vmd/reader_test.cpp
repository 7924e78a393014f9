// vmd::read on hand-built fixtures: versions, optional-section cuts, names, errors, trailing data.
#include <gtest/gtest.h>

#include "formats/vmd/fixture.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {
namespace {

using test::VmdBytes;

std::vector<std::uint8_t> full_v2() {
  VmdBytes v;
  v.header(true, "miku");
  v.u32(3).bone(test::kCenterSjis, 0).bone(test::kCenterSjis, 10, 5).bone("head", 5);
  v.u32(2).morph(test::kAUpperSjis, 0, 0.25f).morph(test::kAUpperSjis, 30, 1);
  v.u32(1).camera(7);
  v.u32(2).light(0).light(40);
  v.u32(1).shadow(3, 1);
  v.u32(2).property(0, 1, {{test::kLeftLegIkSjis, 1}, {"foot", 0}}).property(50, 0, {});
  return v.b;
}

TEST(VmdRead, FullV2AllSections) {
  auto bytes = full_v2();
  ASSERT_EQ(bytes.size(), 50u + 4 + 3 * 111 + 4 + 2 * 23 + 4 + 61 + 4 + 2 * 28 + 4 + 9 + 4 + (9 + 2 * 21) + 9);
  auto r = read(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  const Motion& m = r->motion;
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(m.version, Version::v2);
  EXPECT_EQ(m.model_name.text, "miku");
  EXPECT_EQ(m.model_name.raw.size(), 20u);
  ASSERT_EQ(m.bone_keys.size(), 3u);
  ASSERT_EQ(m.bone_names.size(), 2u);  // センター twice, head once
  EXPECT_EQ(m.bone_names[0].text, "センター");
  EXPECT_EQ(m.bone_names[1].text, "head");
  EXPECT_EQ(m.bone_keys[0].name, 0u);
  EXPECT_EQ(m.bone_keys[1].name, 0u);
  EXPECT_EQ(m.bone_keys[2].name, 1u);
  EXPECT_EQ(m.bone_keys[1].frame, 10u);
  EXPECT_EQ(m.bone_keys[1].position[0], 5.0f);
  EXPECT_EQ(m.bone_keys[1].position[1], 2.0f);
  EXPECT_EQ(m.bone_keys[1].rotation[3], 1.0f);
  EXPECT_EQ(m.bone_keys[1].interpolation[63], 20);
  ASSERT_EQ(m.morph_keys.size(), 2u);
  ASSERT_EQ(m.morph_names.size(), 1u);
  EXPECT_EQ(m.morph_names[0].text, "あ");
  EXPECT_EQ(m.morph_keys[0].weight, 0.25f);
  ASSERT_EQ(m.camera_keys.size(), 1u);
  EXPECT_EQ(m.camera_keys[0].frame, 7u);
  EXPECT_EQ(m.camera_keys[0].distance, -45.0f);
  EXPECT_EQ(m.camera_keys[0].target[1], 10.0f);
  EXPECT_EQ(m.camera_keys[0].rotation[0], 0.5f);
  EXPECT_EQ(m.camera_keys[0].view_angle, 30u);
  EXPECT_EQ(m.camera_keys[0].interpolation[1], 107);
  ASSERT_EQ(m.light_keys.size(), 2u);
  EXPECT_EQ(m.light_keys[1].frame, 40u);
  EXPECT_EQ(m.light_keys[1].color[0], 0.6015625f);
  EXPECT_EQ(m.light_keys[1].direction[1], -1.0f);
  ASSERT_EQ(m.self_shadow_keys.size(), 1u);
  EXPECT_EQ(m.self_shadow_keys[0].mode, 1);
  EXPECT_EQ(m.self_shadow_keys[0].distance, 0.01125f);
  ASSERT_EQ(m.property_keys.size(), 2u);
  ASSERT_EQ(m.property_keys[0].ik.size(), 2u);
  EXPECT_EQ(m.property_keys[0].ik[0].name.text, "左足ＩＫ");
  EXPECT_EQ(m.property_keys[0].ik[1].name.text, "foot");
  EXPECT_EQ(m.property_keys[0].ik[1].enabled, 0);
  EXPECT_EQ(m.property_keys[1].visible, 0);
  EXPECT_EQ(m.sections_present, 6);
  EXPECT_TRUE(m.trailing.empty());
  EXPECT_EQ(m.trailing_offset, -1);
  auto fr = frame_range(m);
  ASSERT_TRUE(fr);
  EXPECT_EQ((*fr)[0], 0u);
  EXPECT_EQ((*fr)[1], 50u);
  auto w = write(m);
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, bytes);
}

TEST(VmdRead, VersionOneHasTenByteModelName) {
  VmdBytes v;
  v.header(false, "0123456789");  // fills all 10 bytes
  v.u32(1).bone("a", 1).u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.version, Version::v1);
  EXPECT_EQ(r->motion.model_name.raw.size(), 10u);
  EXPECT_EQ(r->motion.model_name.text, "0123456789");
  ASSERT_EQ(r->motion.bone_keys.size(), 1u);
  EXPECT_EQ(r->motion.bone_keys[0].frame, 1u);
  EXPECT_EQ(r->motion.sections_present, 2);
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, EachOptionalSectionCutIsAValidShorterFile) {
  // Offsets where each section ends in full_v2(): after morph, camera, light, self-shadow, property.
  const std::size_t morph_end = 50 + 4 + 3 * 111 + 4 + 2 * 23;
  const std::size_t ends[] = {morph_end, morph_end + 4 + 61, morph_end + 4 + 61 + 4 + 56,
                              morph_end + 4 + 61 + 4 + 56 + 4 + 9};
  auto bytes = full_v2();
  for (int i = 0; i < 4; ++i) {
    std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(ends[i]));
    auto r = read(cut);
    ASSERT_TRUE(r) << i << ": " << r.error().to_string();
    EXPECT_TRUE(r->warnings.empty());
    EXPECT_EQ(r->motion.sections_present, 2 + i);
    EXPECT_EQ(r->motion.camera_keys.size(), i >= 1 ? 1u : 0u);
    EXPECT_EQ(r->motion.light_keys.size(), i >= 2 ? 2u : 0u);
    EXPECT_EQ(r->motion.self_shadow_keys.size(), i >= 3 ? 1u : 0u);
    EXPECT_TRUE(r->motion.property_keys.empty());
    EXPECT_EQ(*write(r->motion), cut) << i;
  }
}

TEST(VmdRead, SignatureGarbageAfterNulIsKept) {
  VmdBytes v;
  v.raw("Vocaloid Motion Data 0002").u8(0).raw("JKLM").field("cam", 20).u32(0).u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.version, Version::v2);
  EXPECT_EQ(r->motion.signature[26], 'J');
  EXPECT_EQ(r->motion.signature[29], 'M');
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, NameGarbageAfterNulIsKeptAndNotDecoded) {
  VmdBytes v;
  v.header();
  std::string name = test::kCenterSjis + std::string(1, '\0') + "\xFD\xFD\xFD\xFD\xFD\xFD";
  ASSERT_EQ(name.size(), 15u);
  v.u32(2).bone(name, 0).bone(test::kCenterSjis, 1);  // same text, different raw bytes
  v.u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->motion.bone_names.size(), 2u);  // distinct by all 15 raw bytes
  EXPECT_EQ(r->motion.bone_names[0].text, "センター");
  EXPECT_EQ(r->motion.bone_names[1].text, "センター");
  EXPECT_EQ(r->motion.bone_names[0].raw[14], 0xFD);
  EXPECT_EQ(r->motion.bone_names[1].raw[14], 0x00);
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, NameFillingAllFifteenBytesWithoutNul) {
  VmdBytes v;
  v.header();
  v.u32(1).bone("ABCDEFGHIJKLMNO", 0).u32(1).morph("abcdefghijklmno", 2, 0.5f);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.bone_names[0].text, "ABCDEFGHIJKLMNO");
  EXPECT_EQ(r->motion.morph_names[0].text, "abcdefghijklmno");
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, CutDoubleByteCharacterIsDropped) {
  // 7 full-width characters (14 bytes) + a lone lead byte 0x83 = 15 bytes, no NUL.
  std::string name = test::kCenterSjis + "\x83\x5A\x83\x93\x83\x5E" + "\x83";
  ASSERT_EQ(name.size(), 15u);
  VmdBytes v;
  v.header(true, "\x83\x5A\x83\x93\x83\x5E\x83\x5A\x83\x93\x83\x5E\x83\x5A\x83\x93\x83\x5E\x83\x5A");  // 20 bytes
  v.u32(1).bone(name, 0).u32(0);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.bone_names[0].text, "センターセンタ");
  EXPECT_EQ(r->motion.model_name.text, "センタセンタセンタセ");
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, GbkNamesAreDetected) {
  VmdBytes v;
  v.header(true, "\xC8\xCB\xCE\xEF");  // 人物
  v.u32(3).bone("\xCD\xB7\xB2\xBF", 0).bone("\xD7\xF3\xCA\xD6\xCD\xF3", 0).bone("\xC9\xCF\xB0\xEB\xC9\xED", 0);
  v.u32(1).morph("\xD5\xA3\xD1\xDB", 0, 1);
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.encoding, Encoding::gbk);
  EXPECT_EQ(r->motion.bone_names[0].text, "头部");
  EXPECT_EQ(r->motion.bone_names[1].text, "左手腕");
  EXPECT_EQ(r->motion.bone_names[2].text, "上半身");
  EXPECT_EQ(r->motion.morph_names[0].text, "眨眼");
  EXPECT_EQ(r->motion.model_name.text, "人物");
  // Forcing CP932 decodes the same bytes differently and keeps them.
  auto forced = read(v.b, ReadOptions{Encoding::cp932, false});
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->motion.encoding, Encoding::cp932);
  EXPECT_NE(forced->motion.bone_names[0].text, "头部");
  EXPECT_EQ(*write(forced->motion), v.b);
}

TEST(VmdRead, CameraCountZeroFollowedByRecordsIsKeptAsTrailing) {
  // Real files: camera count 0, then camera records anyway. The light "count" is then the first
  // camera record's frame (here 0x01020304 — far too large), so light is not parsed.
  VmdBytes v;
  v.header(true, "\x83\x4A\x83\x81\x83\x89\x81\x45\x8F\xC6\x96\xBE");  // カメラ・照明
  v.u32(0).u32(0).u32(0).camera(0x01020304).camera(2).light(0);
  const std::size_t light_count_at = 50 + 4 + 4 + 4;
  auto r = read(v.b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->motion.model_name.text, "カメラ・照明");
  EXPECT_EQ(r->motion.sections_present, 3);
  EXPECT_TRUE(r->motion.camera_keys.empty());
  EXPECT_EQ(r->motion.trailing_offset, static_cast<std::int64_t>(light_count_at));
  EXPECT_EQ(r->motion.trailing.size(), 61u * 2 + 28);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, ErrorCode::trailing_data);
  EXPECT_EQ(r->warnings[0].section, "light keyframes");
  EXPECT_EQ(r->warnings[0].offset, static_cast<std::int64_t>(light_count_at));
  EXPECT_EQ(*write(r->motion), v.b);

  auto strict = read(v.b, ReadOptions{std::nullopt, true});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, ErrorCode::trailing_data);
  EXPECT_EQ(strict.error().offset, static_cast<std::int64_t>(light_count_at));
}

TEST(VmdRead, BytesAfterPropertySectionAreTrailing) {
  auto bytes = full_v2();
  const std::size_t end = bytes.size();
  bytes.push_back(0xAB);
  bytes.push_back(0xCD);
  auto r = read(bytes);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->motion.sections_present, 6);
  EXPECT_EQ(r->motion.trailing, (std::vector<std::uint8_t>{0xAB, 0xCD}));
  EXPECT_EQ(r->motion.trailing_offset, static_cast<std::int64_t>(end));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].offset, static_cast<std::int64_t>(end));
  EXPECT_EQ(*write(r->motion), bytes);
  EXPECT_FALSE(read(bytes, ReadOptions{std::nullopt, true}));
}

TEST(VmdRead, BrokenPropertySectionIsTrailingAndLeavesNoIkNames) {
  VmdBytes v;
  v.header();
  v.u32(0).u32(0).u32(0).u32(0).u32(0);
  const std::size_t prop_at = v.b.size();
  v.u32(2).property(0, 1, {{"ik", 1}}).u32(5).u8(1).u32(1000);  // second key claims 1000 IK states
  auto r = read(v.b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->motion.sections_present, 5);
  EXPECT_TRUE(r->motion.property_keys.empty());
  EXPECT_EQ(r->motion.trailing_offset, static_cast<std::int64_t>(prop_at));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].record, 1);
  EXPECT_EQ(*write(r->motion), v.b);
}

TEST(VmdRead, Errors) {
  EXPECT_EQ(read({}).error().code, ErrorCode::empty_input);
  {
    VmdBytes v;
    v.field("Vocaloid Pose Data file", 30).field("x", 20).u32(0).u32(0);
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::bad_signature);
    EXPECT_EQ(r.error().section, "header");
    EXPECT_EQ(r.error().offset, 0);
  }
  {  // signature cut
    VmdBytes v;
    v.raw("Vocaloid Mot");
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
  }
  {  // model name cut
    VmdBytes v;
    v.field("Vocaloid Motion Data 0002", 30).raw("abc");
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
    EXPECT_EQ(r.error().section, "header");
    EXPECT_EQ(r.error().offset, 30);
  }
  {  // morph count missing
    VmdBytes v;
    v.header().u32(1).bone("a", 0).u8(0);
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
    EXPECT_EQ(r.error().section, "morph keyframes");
    EXPECT_EQ(r.error().offset, 50 + 4 + 111);
  }
  {  // bone count far beyond the bytes left (like the corpus result.vmd)
    VmdBytes v;
    v.header().u32(39564);
    v.b.insert(v.b.end(), 20, 0);
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
    EXPECT_EQ(r.error().section, "bone keyframes");
    EXPECT_EQ(r.error().offset, 50);
  }
  {  // file ends inside bone record 2 of 5
    VmdBytes v;
    v.header().u32(5).bone("a", 0).bone("a", 1).bone("a", 2);
    v.b.resize(v.b.size() - 40);
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
    EXPECT_EQ(r.error().section, "bone keyframes");
    EXPECT_EQ(r.error().record, 2);
    EXPECT_EQ(r.error().offset, 54 + 2 * 111);
  }
  {  // file ends inside morph record 1 of 2
    VmdBytes v;
    v.header().u32(0).u32(2).morph("m", 0, 1).morph("m", 1, 1);
    v.b.pop_back();
    auto r = read(v.b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
    EXPECT_EQ(r.error().section, "morph keyframes");
    EXPECT_EQ(r.error().record, 1);
    EXPECT_EQ(r.error().offset, 58 + 23);
  }
}

TEST(VmdRead, ReadFileNamesThePath) {
  auto r = read_file("/nonexistent-dir/x.vmd");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::io_error);
  EXPECT_EQ(r.error().file, "/nonexistent-dir/x.vmd");
}

TEST(VmdRead, SummaryMatchesFullRead) {
  auto bytes = full_v2();
  bytes.push_back(7);
  auto s = summarize(bytes);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->counts, (std::array<std::uint64_t, 6>{3, 2, 1, 2, 1, 2}));
  EXPECT_EQ(s->ik_states, 2u);
  EXPECT_EQ(s->bone_tracks, 2u);
  EXPECT_EQ(s->morph_tracks, 1u);
  EXPECT_EQ(s->sections_present, 6);
  ASSERT_TRUE(s->frame_range);
  EXPECT_EQ((*s->frame_range)[1], 50u);
  EXPECT_EQ(s->trailing_bytes, 1u);
  EXPECT_EQ(s->trailing_offset, static_cast<std::int64_t>(bytes.size() - 1));
  EXPECT_EQ(s->file_bytes, bytes.size());
  EXPECT_EQ(s->model_name.text, "miku");
  EXPECT_EQ(s->warnings.size(), 1u);
}

}  // namespace
}  // namespace mmdkit::vmd
