// vmd::generate: deterministic, counts and value ranges as documented, round trip through bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include "mmdkit/formats/vmd_generate.hpp"

namespace mmdkit::vmd {
namespace {

GenerateOptions all_sections(std::uint64_t seed) {
  GenerateOptions o;
  o.seed = seed;
  o.bone_keys = 1000;
  o.morph_keys = 100;
  o.camera_keys = 20;
  o.light_keys = 5;
  o.self_shadow_keys = 4;
  o.property_keys = 3;
  o.frames = 600;
  return o;
}

TEST(VmdGenerate, DeterministicBySeed) {
  auto a = write(generate(all_sections(42)));
  auto b = write(generate(all_sections(42)));
  auto c = write(generate(all_sections(43)));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  EXPECT_EQ(a->size(), c->size());
  // Size from the layout: header 50, six counts, records.
  EXPECT_EQ(a->size(), 50u + 6 * 4 + 1000 * 111 + 100 * 23 + 20 * 61 + 5 * 28 + 4 * 9 + 3 * (9 + 4 * 21));
}

TEST(VmdGenerate, ValuesAsDocumented) {
  Motion m = generate(all_sections(5));
  EXPECT_EQ(m.bone_keys.size(), 1000u);
  EXPECT_EQ(m.morph_keys.size(), 100u);
  EXPECT_EQ(m.camera_keys.size(), 20u);
  EXPECT_EQ(m.light_keys.size(), 5u);
  EXPECT_EQ(m.self_shadow_keys.size(), 4u);
  EXPECT_EQ(m.property_keys.size(), 3u);
  EXPECT_EQ(m.sections_present, 6);
  EXPECT_EQ(m.bone_names.size(), 32u);
  EXPECT_EQ(m.morph_names.size(), 16u);
  EXPECT_EQ(m.bone_names[0].text, "センター");
  EXPECT_EQ(m.morph_names[0].text, "あ");
  EXPECT_EQ(m.model_name.text, "mmdkit generated");
  EXPECT_EQ((std::vector<std::uint8_t>(m.bone_names[0].raw.begin(), m.bone_names[0].raw.begin() + 8)),
            (std::vector<std::uint8_t>{0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}));
  std::set<std::uint32_t> names;
  std::uint32_t last_name = 0, last_frame = 0;
  for (std::size_t i = 0; i < m.bone_keys.size(); ++i) {
    const BoneKey& k = m.bone_keys[i];
    double n2 = 0;
    for (float c : k.rotation) n2 += static_cast<double>(c) * static_cast<double>(c);
    EXPECT_NEAR(std::sqrt(n2), 1.0, 1e-6);
    for (float p : k.position) EXPECT_LE(std::abs(p), 10.0f);
    EXPECT_LE(k.frame, 600u);
    if (i > 0 && k.name == last_name) {
      EXPECT_GT(k.frame, last_frame) << i;  // grouped, increasing
    }
    if (i > 0 && k.name != last_name) {
      EXPECT_FALSE(names.count(k.name)) << "track split";
    }
    names.insert(k.name);
    last_name = k.name;
    last_frame = k.frame;
    BoneInterpolation b = decode_bone_interpolation(k.interpolation);
    EXPECT_EQ(encode_bone_interpolation(b.x, b.y, b.z, b.rotation), k.interpolation);
  }
  EXPECT_EQ(m.bone_keys.back().frame, 600u);
  for (const MorphKey& k : m.morph_keys) {
    EXPECT_GE(k.weight, 0.0f);
    EXPECT_LT(k.weight, 1.0f);
  }
  for (const CameraKey& k : m.camera_keys) {
    EXPECT_LE(k.distance, -10.0f);
    EXPECT_GE(k.view_angle, 10u);
    EXPECT_LE(k.view_angle, 60u);
    EXPECT_EQ(encode_camera_interpolation(decode_camera_interpolation(k.interpolation)), k.interpolation);
  }
  for (const LightKey& k : m.light_keys) {
    double n2 = 0;
    for (float c : k.direction) n2 += static_cast<double>(c) * static_cast<double>(c);
    const double n = std::sqrt(n2);
    EXPECT_NEAR(n, 1.0, 1e-6);
  }
  for (const SelfShadowKey& k : m.self_shadow_keys) EXPECT_LE(k.mode, 2);
  ASSERT_EQ(m.property_keys[0].ik.size(), 4u);
  EXPECT_EQ(m.property_keys[0].ik[0].name.text, "左足ＩＫ");
  EXPECT_TRUE(check(m).empty());
}

TEST(VmdGenerate, ReadBackGivesTheSameMotion) {
  Motion m = generate(all_sections(9));
  auto bytes = write(m);
  ASSERT_TRUE(bytes);
  auto r = read(*bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->warnings.empty());
  const Motion& b = r->motion;
  ASSERT_EQ(b.bone_names.size(), m.bone_names.size());
  for (std::size_t i = 0; i < b.bone_names.size(); ++i) {
    EXPECT_EQ(b.bone_names[i].text, m.bone_names[i].text);
    EXPECT_EQ(b.bone_names[i].raw, m.bone_names[i].raw);
  }
  ASSERT_EQ(b.bone_keys.size(), m.bone_keys.size());
  for (std::size_t i = 0; i < b.bone_keys.size(); ++i) {
    EXPECT_EQ(b.bone_keys[i].name, m.bone_keys[i].name);
    EXPECT_EQ(b.bone_keys[i].rotation, m.bone_keys[i].rotation);
  }
  EXPECT_EQ(b.property_keys[2].ik[3].name.text, "右つま先ＩＫ");
  EXPECT_EQ(*write(b), *bytes);
}

TEST(VmdGenerate, CameraOnlyMotionAndWideSpans) {
  GenerateOptions o;
  o.bone_keys = 0;
  o.morph_keys = 0;
  o.camera_keys = 3;
  Motion m = generate(o);
  EXPECT_EQ(m.model_name.text, "カメラ・照明");
  EXPECT_EQ(m.camera_keys[2].frame, 300u);
  // 40 keys on one track with frames = 10: the span widens to 39 so frames stay distinct.
  o = GenerateOptions{};
  o.bone_keys = 40 * 32;
  o.morph_keys = 0;
  o.frames = 10;
  m = generate(o);
  EXPECT_EQ(m.bone_keys[39].frame, 39u);
  EXPECT_TRUE(check(m).empty());
  o.version = Version::v1;
  EXPECT_EQ(generate(o).model_name.text, "mmdkit gen");  // cut to the 10-byte v1 field
  GenerateOptions cam;
  cam.version = Version::v1;
  cam.bone_keys = cam.morph_keys = 0;
  EXPECT_EQ(generate(cam).model_name.text, "カメラ・照");  // 10 bytes of カメラ・照明
  auto bytes = write(generate(o));
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 40u + 6 * 4 + 40 * 32 * 111);
}

// Given names (generate vmd --model): tracks of those names only, in order; a name CP932 cannot
// hold is skipped; a long one is cut to the 15-byte field; no names of a kind: no keys of it.
TEST(VmdGenerate, GivenNamesOnly) {
  GenerateOptions o;
  o.bone_keys = 10;
  o.morph_keys = 7;
  o.bone_names = {"センター", "\xF0\x9F\x98\x80", "左足ＩＫ", "ABCDEFGHIJKLMNOPQRS"};  // U+1F600: not in CP932
  o.morph_names = {"まばたき"};
  Motion m = generate(o);
  ASSERT_EQ(m.bone_names.size(), 3u);
  EXPECT_EQ(m.bone_names[0].text, "センター");
  EXPECT_EQ(m.bone_names[1].text, "左足ＩＫ");
  EXPECT_EQ(m.bone_names[2].text, "ABCDEFGHIJKLMNO");  // 15 bytes
  ASSERT_EQ(m.bone_keys.size(), 10u);  // 4 + 3 + 3 keys over the three tracks
  std::size_t on[3] = {};
  for (const BoneKey& k : m.bone_keys) ++on[k.name];
  EXPECT_EQ(on[0], 4u);
  EXPECT_EQ(on[1], 3u);
  EXPECT_EQ(on[2], 3u);
  // センター and 左足ＩＫ move (positions given), ABC... does not.
  for (const BoneKey& k : m.bone_keys) {
    if (k.name == 2) {
      EXPECT_EQ(k.position, (std::array<float, 3>{0, 0, 0}));
    }
  }
  ASSERT_EQ(m.morph_names.size(), 1u);
  EXPECT_EQ(m.morph_names[0].text, "まばたき");
  EXPECT_EQ(m.morph_keys.size(), 7u);
  o.morph_names = {"\xF0\x9F\x98\x80"};
  m = generate(o);
  EXPECT_TRUE(m.morph_names.empty());
  EXPECT_TRUE(m.morph_keys.empty());
  EXPECT_EQ(m.bone_keys.size(), 10u);
}

// BoneStyle::dance (generate vmd --model): the documented angle and position ranges per bone,
// each track about one axis (+Y for the root, センター, グルーブ and the leg IK), unit quaternions,
// deterministic by seed; without leg IK names センター and グルーブ only rise.
struct DanceBone {
  const char* name;
  double degrees;
  bool yaw;
  std::array<float, 3> lo, hi;
};
constexpr DanceBone kDance[] = {
    {"全ての親", 30, true, {0, 0, 0}, {0, 0, 0}},
    {"センター", 20, true, {-2, -1, -2}, {2, 0.5f, 2}},
    {"グルーブ", 10, true, {0, -0.5f, 0}, {0, 0.5f, 0}},
    {"上半身", 20, false, {}, {}},
    {"下半身", 20, false, {}, {}},
    {"首", 20, false, {}, {}},
    {"頭", 30, false, {}, {}},
    {"左肩", 15, false, {}, {}},
    {"左腕", 60, false, {}, {}},
    {"左腕捩", 30, false, {}, {}},
    {"右ひじ", 60, false, {}, {}},
    {"右手首", 30, false, {}, {}},
    {"左親指１", 30, false, {}, {}},
    {"両目", 10, false, {}, {}},
    {"左足", 20, false, {}, {}},
    {"左ひざ", 20, false, {}, {}},
    {"左足首", 20, false, {}, {}},
    {"左足ＩＫ", 15, true, {-0.5f, 0, -1}, {0.5f, 1.5f, 1}},
    {"右足ＩＫ", 15, true, {-0.5f, 0, -1}, {0.5f, 1.5f, 1}},
    {"左つま先ＩＫ", 0, false, {-0.3f, 0, -0.3f}, {0.3f, 0.3f, 0.3f}},
    {"髪1", 20, false, {}, {}},
};

TEST(VmdGenerate, DanceStaysWithinItsDocumentedRanges) {
  GenerateOptions o;
  o.bone_style = BoneStyle::dance;
  o.bone_keys = 50 * std::size(kDance);
  o.morph_keys = 0;
  o.frames = 600;
  for (const DanceBone& b : kDance) o.bone_names.emplace_back(b.name);
  const Motion m = generate(o);
  ASSERT_EQ(m.bone_names.size(), std::size(kDance));
  ASSERT_EQ(m.bone_keys.size(), o.bone_keys);
  std::vector<std::array<double, 3>> axis(std::size(kDance));
  std::vector<double> widest(std::size(kDance), 0.0);
  for (const BoneKey& k : m.bone_keys) {
    const DanceBone& b = kDance[k.name];
    SCOPED_TRACE(b.name);
    double n2 = 0;
    for (float c : k.rotation) n2 += static_cast<double>(c) * static_cast<double>(c);
    ASSERT_NEAR(std::sqrt(n2), 1.0, 1e-6);
    const double w = std::clamp(static_cast<double>(k.rotation[3]), -1.0, 1.0);
    const double angle = 2 * std::acos(std::abs(w)) * 180 / std::numbers::pi;
    EXPECT_LE(angle, b.degrees + 1e-3);
    widest[k.name] = std::max(widest[k.name], angle);
    double s = 0;  // |xyz| = sin(angle / 2)
    for (std::size_t i = 0; i < 3; ++i) s += static_cast<double>(k.rotation[i]) * static_cast<double>(k.rotation[i]);
    s = std::sqrt(s);
    if (s > 1e-3) {
      std::array<double, 3> a{};
      for (std::size_t i = 0; i < 3; ++i) a[i] = static_cast<double>(k.rotation[i]) / s * (w < 0 ? -1 : 1);
      if (b.yaw) {
        EXPECT_NEAR(std::abs(a[1]), 1.0, 1e-5);
      }
      auto& first = axis[k.name];
      if (first == std::array<double, 3>{}) first = a;
      EXPECT_NEAR(std::abs(a[0] * first[0] + a[1] * first[1] + a[2] * first[2]), 1.0, 1e-4) << "one axis per track";
    }
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_GE(k.position[i], b.lo[i]);
      EXPECT_LE(k.position[i], b.hi[i]);
    }
  }
  // The ranges are used, not just bounded: each turning track reaches past half its angle.
  for (std::size_t t = 0; t < std::size(kDance); ++t)
    if (kDance[t].degrees > 0) {
      EXPECT_GT(widest[t], kDance[t].degrees / 2) << kDance[t].name;
    }
  // Deterministic by seed; another seed, another dance.
  auto a = write(m), b = write(generate(o));
  o.seed = 2;
  auto c = write(generate(o));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  // No leg IK among the names: nothing holds the feet, so センター and グルーブ never go down.
  o.bone_names = {"センター", "グルーブ", "頭"};
  o.bone_keys = 300;
  for (const BoneKey& k : generate(o).bone_keys) {
    if (k.name == 0) {
      EXPECT_GE(k.position[1], 0.0f);
      EXPECT_LE(k.position[1], 1.0f);
    }
    if (k.name == 1) {
      EXPECT_GE(k.position[1], 0.0f);
      EXPECT_LE(k.position[1], 0.5f);
    }
  }
}

// Its speed is measured in bench/ (no wall-clock bound in a test).
TEST(VmdGenerate, OneMillionKeys) {
  GenerateOptions o;
  o.bone_keys = 1'000'000;
  o.morph_keys = 0;
  Motion m = generate(o);
  auto bytes = write(m);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 50u + 6 * 4 + 111'000'000u);
  auto sum = summarize(*bytes);
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->counts[0], 1'000'000u);
  EXPECT_EQ(sum->bone_tracks, 32u);
}

}  // namespace
}  // namespace mmdkit::vmd
