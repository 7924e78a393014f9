// VMD <-> JSON: in-memory round trips of motions built field by field (every section, NaN/inf/-0,
// odd interpolation blocks, toggle bytes, raw names with garbage, GBK names, trailing bytes),
// hand-written JSON checked against hand-assembled VMD bytes, and schema/syntax errors.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "formats/vmd/old_name_form.hpp"
#include "mmdkit/core/euler.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vmd {
namespace {

using test::kAUpperSjis;
using test::kCenterSjis;
using test::kLeftLegIkSjis;
using test::VmdBytes;

std::vector<std::uint8_t> bytes_of(std::string_view s, std::size_t pad_to = 0) {
  std::vector<std::uint8_t> v(s.begin(), s.end());
  if (v.size() < pad_to) v.resize(pad_to, 0);
  return v;
}

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

// ---- field-by-field equality (floats by bit pattern, so NaN payloads and -0 count) ----------

template <std::size_t N>
void expect_floats(const std::array<float, N>& a, const std::array<float, N>& b, const std::string& what) {
  for (std::size_t i = 0; i < N; ++i) EXPECT_EQ(bits(a[i]), bits(b[i])) << what << "[" << i << "]";
}

template <std::size_t N>
void expect_name(const FixedName<N>& a, const FixedName<N>& b, const std::string& what) {
  EXPECT_EQ(a.raw, b.raw) << what << " raw";
  EXPECT_EQ(a.text, b.text) << what << " text";
}

void expect_motion_eq(const Motion& a, const Motion& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.signature, b.signature);
  expect_name(a.model_name, b.model_name, "model_name");
  EXPECT_EQ(a.encoding, b.encoding);
  ASSERT_EQ(a.bone_names.size(), b.bone_names.size());
  for (std::size_t i = 0; i < a.bone_names.size(); ++i) expect_name(a.bone_names[i], b.bone_names[i], "bone_names");
  ASSERT_EQ(a.morph_names.size(), b.morph_names.size());
  for (std::size_t i = 0; i < a.morph_names.size(); ++i)
    expect_name(a.morph_names[i], b.morph_names[i], "morph_names");
  ASSERT_EQ(a.bone_keys.size(), b.bone_keys.size());
  for (std::size_t i = 0; i < a.bone_keys.size(); ++i) {
    const auto &x = a.bone_keys[i], &y = b.bone_keys[i];
    std::string w = "bone_keys[" + std::to_string(i) + "]";
    EXPECT_EQ(x.name, y.name) << w;
    EXPECT_EQ(x.frame, y.frame) << w;
    expect_floats(x.position, y.position, w + ".position");
    expect_floats(x.rotation, y.rotation, w + ".rotation");
    EXPECT_EQ(x.interpolation, y.interpolation) << w;
  }
  ASSERT_EQ(a.morph_keys.size(), b.morph_keys.size());
  for (std::size_t i = 0; i < a.morph_keys.size(); ++i) {
    EXPECT_EQ(a.morph_keys[i].name, b.morph_keys[i].name);
    EXPECT_EQ(a.morph_keys[i].frame, b.morph_keys[i].frame);
    EXPECT_EQ(bits(a.morph_keys[i].weight), bits(b.morph_keys[i].weight));
  }
  ASSERT_EQ(a.camera_keys.size(), b.camera_keys.size());
  for (std::size_t i = 0; i < a.camera_keys.size(); ++i) {
    const auto &x = a.camera_keys[i], &y = b.camera_keys[i];
    EXPECT_EQ(x.frame, y.frame);
    EXPECT_EQ(bits(x.distance), bits(y.distance));
    expect_floats(x.target, y.target, "camera target");
    expect_floats(x.rotation, y.rotation, "camera rotation");
    EXPECT_EQ(x.interpolation, y.interpolation);
    EXPECT_EQ(x.view_angle, y.view_angle);
    EXPECT_EQ(x.perspective, y.perspective);
  }
  ASSERT_EQ(a.light_keys.size(), b.light_keys.size());
  for (std::size_t i = 0; i < a.light_keys.size(); ++i) {
    EXPECT_EQ(a.light_keys[i].frame, b.light_keys[i].frame);
    expect_floats(a.light_keys[i].color, b.light_keys[i].color, "light color");
    expect_floats(a.light_keys[i].direction, b.light_keys[i].direction, "light direction");
  }
  ASSERT_EQ(a.self_shadow_keys.size(), b.self_shadow_keys.size());
  for (std::size_t i = 0; i < a.self_shadow_keys.size(); ++i) {
    EXPECT_EQ(a.self_shadow_keys[i].frame, b.self_shadow_keys[i].frame);
    EXPECT_EQ(a.self_shadow_keys[i].mode, b.self_shadow_keys[i].mode);
    EXPECT_EQ(bits(a.self_shadow_keys[i].distance), bits(b.self_shadow_keys[i].distance));
  }
  ASSERT_EQ(a.property_keys.size(), b.property_keys.size());
  for (std::size_t i = 0; i < a.property_keys.size(); ++i) {
    const auto &x = a.property_keys[i], &y = b.property_keys[i];
    EXPECT_EQ(x.frame, y.frame);
    EXPECT_EQ(x.visible, y.visible);
    ASSERT_EQ(x.ik.size(), y.ik.size());
    for (std::size_t j = 0; j < x.ik.size(); ++j) {
      expect_name(x.ik[j].name, y.ik[j].name, "ik name");
      EXPECT_EQ(x.ik[j].enabled, y.ik[j].enabled);
    }
  }
  EXPECT_EQ(a.sections_present, b.sections_present);
  EXPECT_EQ(a.trailing, b.trailing);
  EXPECT_EQ(a.trailing_offset, b.trailing_offset);
}

// ---- an independent canonical bone block (docs/formats/NOTES.md "Bone interpolation block") -----------

std::array<std::uint8_t, 64> block_by_hand(std::array<std::array<std::uint8_t, 4>, 4> curves /* x1 y1 x2 y2 */,
                                           std::uint8_t b2, std::uint8_t b3) {
  std::uint8_t row0[16];
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 4; ++k) row0[4 * k + c] = curves[static_cast<std::size_t>(c)][static_cast<std::size_t>(k)];
  std::array<std::uint8_t, 64> out{};
  const std::uint8_t pad[3] = {1, 0, 0};
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(16 * r + i)] = i + r < 16 ? row0[i + r] : pad[i + r - 16];
  out[2] = b2;
  out[3] = b3;
  return out;
}

constexpr std::array<std::uint8_t, 4> kLin{20, 20, 107, 107};

// ---- the rich in-memory motion --------------------------------------------------------------

TrackName track(std::string raw, std::string text) {
  return TrackName{bytes_of(raw, kTrackNameSize), std::move(text)};
}

Motion rich_motion() {
  Motion m;
  m.version = Version::v2;
  // Signature with MMD's leftover bytes after the NUL ("0002\0JKLM").
  std::string sig = std::string("Vocaloid Motion Data 0002") + '\0' + "JKLM";
  std::memcpy(m.signature.data(), sig.data(), sig.size());
  // Model name with garbage after the NUL.
  m.model_name.raw = bytes_of(kCenterSjis + std::string(1, '\0') + "\xFD\xFD\xFD", 20);
  m.model_name.text = "センター";
  m.encoding = Encoding::cp932;

  m.bone_names.push_back(track(kCenterSjis, "センター"));                                     // canonical
  m.bone_names.push_back(track(kCenterSjis + std::string(1, '\0') + "on Dat", "センター"));  // same text, garbage
  // 15 bytes ending in a lone lead byte 0x81: the text drops it (cut double-byte character).
  m.bone_names.push_back(track("abcdefghijklmn\x81", "abcdefghijklmn"));
  m.bone_names.push_back(track("quote\"back\\tab\t", "quote\"back\\tab\t"));  // JSON escapes
  m.morph_names.push_back(track(kAUpperSjis, "あ"));
  m.morph_names.push_back(track("", ""));  // empty name

  const float nan_payload = std::bit_cast<float>(0x7fc01234u);
  const float neg_nan = std::bit_cast<float>(0xffa00001u);  // signalling-pattern NaN with sign
  const float inf = INFINITY;
  auto lin = encode_bone_interpolation(kLinearCurve, kLinearCurve, kLinearCurve, kLinearCurve);

  BoneKey k0;
  k0.name = 0, k0.frame = 0, k0.position = {1.5f, -0.0f, 0.1f}, k0.rotation = {0, 0, 0, 1};
  k0.interpolation = lin;
  BoneKey k1;  // NaN/inf, physics off, curves
  k1.name = 1, k1.frame = 10, k1.position = {nan_payload, inf, -inf}, k1.rotation = {neg_nan, 0.5f, -0.5f, 1e-45f};
  k1.interpolation = block_by_hand({{{10, 20, 30, 40}, kLin, {0, 127, 127, 0}, {64, 0, 64, 127}}}, 0x63, 0x0F);
  BoneKey k2;  // newer MMD "physics on": bytes 2-3 are 00 00
  k2.name = 2, k2.frame = 4294967295u, k2.position = {3.4028235e38f, -1.17549435e-38f, 1e-40f};
  k2.rotation = {0.1f, 0.2f, 0.3f, 0.9273618f};
  k2.interpolation = block_by_hand({{kLin, kLin, {1, 2, 3, 4}, kLin}}, 0, 0);
  BoneKey k3;  // odd toggle bytes
  k3.name = 3, k3.frame = 7;
  k3.interpolation = block_by_hand({{kLin, kLin, kLin, kLin}}, 1, 2);
  BoneKey k4;  // a block that is not canonical at all (garbage in the padding rows)
  k4.name = 0, k4.frame = 20;
  for (std::size_t i = 0; i < 64; ++i) k4.interpolation[i] = static_cast<std::uint8_t>(i * 37 + 5);
  BoneKey k5;  // same as k0 but on the name with the same text and different raw bytes
  k5.name = 1, k5.frame = 30, k5.interpolation = lin;
  BoneKey k6;  // newer MMD: rows 1-3 padded with 00 00 00 instead of 01 00 00
  k6.name = 2, k6.frame = 31;
  k6.interpolation = block_by_hand({{kLin, {1, 2, 3, 4}, kLin, kLin}}, 0, 0);
  for (std::size_t i : {31u, 46u, 47u, 61u, 62u, 63u}) k6.interpolation[i] = 0;
  m.bone_keys = {k0, k1, k2, k3, k4, k5, k6};

  m.morph_keys = {{0, 0, 0.5f}, {1, 3, -0.0f}, {0, 5, nan_payload}, {0, 6, 1e-45f}};

  CameraKey c0;
  c0.frame = 0, c0.distance = -45, c0.target = {0, 10, 0}, c0.rotation = {0.1f, -3.1415927f, inf};
  for (std::size_t i = 0; i < 24; ++i) c0.interpolation[i] = static_cast<std::uint8_t>(200 + i);
  c0.view_angle = 30, c0.perspective = 1;
  CameraKey c1;
  c1.frame = 100, c1.distance = -0.0f;
  c1.interpolation = encode_camera_interpolation(CameraInterpolation{});
  c1.view_angle = 4000000000u, c1.perspective = 7;
  m.camera_keys = {c0, c1};

  m.light_keys = {{0, {0.6015625f, 0.6015625f, 0.6015625f}, {-0.5f, -1, 0.5f}}, {9, {nan_payload, 0, 1}, {0, 0, 0}}};
  m.self_shadow_keys = {{0, 1, 0.01125f}, {5, 255, -0.0f}};

  PropertyKey p0;
  p0.frame = 0, p0.visible = 1;
  p0.ik.push_back({FixedName<kIkNameSize>{bytes_of(kLeftLegIkSjis, 20), "左足ＩＫ"}, 1});
  p0.ik.push_back({FixedName<kIkNameSize>{bytes_of(kLeftLegIkSjis + std::string(1, '\0') + "\xFD", 20), "左足ＩＫ"}, 0});
  PropertyKey p1;
  p1.frame = 3, p1.visible = 2;  // other values are kept
  p1.ik.push_back({FixedName<kIkNameSize>{bytes_of(kLeftLegIkSjis, 20), "左足ＩＫ"}, 9});
  PropertyKey p2;
  p2.frame = 4, p2.visible = 0;
  m.property_keys = {p0, p1, p2};

  m.sections_present = 6;
  m.trailing = {0xde, 0xad, 0xbe, 0xef, 0x00};
  m.trailing_offset = 12345;
  return m;
}

Motion round_trip(const Motion& m, const JsonWriteOptions& o = {}) {
  std::string j = to_json(m, o);
  auto back = from_json(j);
  EXPECT_TRUE(back) << back.error().to_string() << "\n" << j;
  return back ? std::move(*back) : Motion{};
}

TEST(VmdJson, RichMotionRoundTripsEveryField) {
  Motion m = rich_motion();
  for (bool pretty : {true, false}) {
    for (bool euler : {false, true}) {
      SCOPED_TRACE(std::string("pretty=") + (pretty ? "1" : "0") + " euler=" + (euler ? "1" : "0"));
      Motion b = round_trip(m, {euler, pretty});
      expect_motion_eq(m, b);
      auto w1 = write(m), w2 = write(b);
      ASSERT_TRUE(w1 && w2);
      EXPECT_EQ(*w1, *w2);
    }
  }
}

TEST(VmdJson, DocumentStartsWithFormatAndUsesNamedCurves) {
  Motion m = rich_motion();
  std::string j = to_json(m);
  EXPECT_TRUE(j.starts_with("{\"format\": \"vmd\",")) << j.substr(0, 40);
  EXPECT_TRUE(to_json(m, {false, false}).starts_with("{\"format\": \"vmd\","));
  // Non-canonical header pieces carry hex; the signature hex is the 30 raw bytes.
  EXPECT_NE(j.find("\"signature_hex\":\"566f6361"), std::string::npos);
  EXPECT_NE(j.find("\"model_name\":{\"text\":"), std::string::npos);
  // Named curves and physics toggles.
  EXPECT_NE(j.find("\"interpolation\":{\"x\":[10,20,30,40],\"z\":[0,127,127,0],\"rotation\":[64,0,64,127]}"),
            std::string::npos);
  EXPECT_NE(j.find("\"physics_off\":true"), std::string::npos);
  EXPECT_NE(j.find("\"physics_off\":false"), std::string::npos);
  EXPECT_NE(j.find("\"toggle\":[1,2]"), std::string::npos);
  EXPECT_NE(j.find("\"interpolation\":{\"y\":[1,2,3,4]},\"physics_off\":false,\"pad\":[0,0,0]}"), std::string::npos);
  // Only the garbage block needs raw hex: exactly one interpolation_hex among bone keys.
  std::size_t n = 0;
  for (std::size_t at = j.find("\"interpolation_hex\""); at != std::string::npos;
       at = j.find("\"interpolation_hex\"", at + 1))
    ++n;
  EXPECT_EQ(n, 1u);
  // Non-finite floats as strings, -0 kept.
  EXPECT_NE(j.find("\"nan:7fc01234\""), std::string::npos);
  EXPECT_NE(j.find("\"nan:ffa00001\""), std::string::npos);
  EXPECT_NE(j.find("[\"nan:7fc01234\",\"inf\",\"-inf\"]"), std::string::npos);
  EXPECT_NE(j.find("\"position\":[1.5,-0,0.1]"), std::string::npos);
  // The name with garbage after the NUL shares its text; its raw hex tells it apart.
  EXPECT_NE(j.find("\"name\":{\"text\":\"センター\",\"raw\":\"835a8393835e815b006f6e20446174\"}"), std::string::npos);
  // JSON escapes.
  EXPECT_NE(j.find(R"("quote\"back\\tab\t")"), std::string::npos);
  // Pretty: one record per line; every key line holds exactly one "frame".
  std::size_t lines_with_frame = 0, frames = 0;
  std::size_t start = 0;
  while (start < j.size()) {
    std::size_t end = j.find('\n', start);
    if (end == std::string::npos) end = j.size();
    std::string_view line(j.data() + start, end - start);
    std::size_t c = 0;
    for (std::size_t at = line.find("\"frame\":"); at != std::string_view::npos; at = line.find("\"frame\":", at + 1)) ++c;
    if (c) ++lines_with_frame;
    frames += c;
    start = end + 1;
  }
  EXPECT_EQ(frames, 7u + 4u + 2u + 2u + 2u + 3u);
  EXPECT_EQ(lines_with_frame, frames);
}

TEST(VmdJson, NameTableWrittenOnlyWhenKeysDoNotImplyIt) {
  // Canonical names in first-appearance order: no table, no hex.
  GenerateOptions g;
  g.bone_keys = 40, g.morph_keys = 10;
  Motion gen = generate(g);
  std::string jg = to_json(gen);
  EXPECT_EQ(jg.find("\"bone_names\""), std::string::npos);
  EXPECT_EQ(jg.find("\"morph_names\""), std::string::npos);
  EXPECT_EQ(jg.find("\"raw\""), std::string::npos);
  // A name with raw bytes that are not its canonical encoding: the table holds the hex once;
  // keys repeat it only where the text is ambiguous.
  Motion m = rich_motion();
  std::string j = to_json(m);
  EXPECT_NE(j.find("\"bone_names\""), std::string::npos);
  EXPECT_NE(j.find("{\"name\":{\"text\":\"abcdefghijklmn\",\"raw\":\"6162636465666768696a6b6c6d6e81\"}}"),
            std::string::npos);
  EXPECT_NE(j.find("\"frame\":4294967295,\"name\":\"abcdefghijklmn\",\"position\""), std::string::npos);
  // An unused name and a different order: the table is written and read back in that order.
  Motion u = gen;
  u.bone_names.push_back(track("unused", "unused"));
  std::swap(u.bone_names[0], u.bone_names[2]);
  for (auto& k : u.bone_keys) k.name = k.name == 0 ? 2 : k.name == 2 ? 0 : k.name;
  std::string ju = to_json(u);
  EXPECT_NE(ju.find("\"bone_names\""), std::string::npos);
  EXPECT_EQ(ju.find("\"raw\""), std::string::npos);
  expect_motion_eq(u, round_trip(u));
  expect_motion_eq(m, round_trip(m));
}

TEST(VmdJson, MmdBlockWithLeftoverPadBytesNeedsNoHex) {
  // A key as MMD 9 wrote it (corpus: miu200521358/mlib_go test_resources/サンプルモーション_0046.vmd,
  // 右足ＩＫ at frame 0): every row is a window of one 19-byte sequence ending in c8 cc cc, and
  // bytes 2-3 are the physics toggle 00 00. Curves read by hand from rows 0-3 at offsets 0,4,8,12.
  auto raw = from_hex(
      "40280000002800144040576b7f7f576b284014002800144040576b7f7f576bc8"
      "4014002800144040576b7f7f576bc8cc14002800144040576b7f7f576bc8cccc");
  ASSERT_TRUE(raw && raw->size() == 64);
  Motion m;
  m.bone_names.push_back(track("a", "a"));
  BoneKey k;
  std::copy(raw->begin(), raw->end(), k.interpolation.begin());
  m.bone_keys = {k};
  std::string j = to_json(m);
  EXPECT_NE(j.find("\"interpolation\":{\"x\":[64,0,64,127],\"y\":[40,40,64,127],\"z\":[64,0,87,87]},"
                   "\"physics_off\":false,\"pad\":[200,204,204]}"),
            std::string::npos)
      << j;
  EXPECT_EQ(j.find("interpolation_hex"), std::string::npos);
  expect_motion_eq(m, round_trip(m));
}

TEST(VmdJson, GbkNamesAreTextWithoutHex) {
  Motion m;
  m.encoding = Encoding::gbk;
  m.model_name = {bytes_of("\xD6\xD0\xCE\xC4", 20), "中文"};  // GBK 中文
  m.bone_names.push_back(track("\xCD\xB7", "头"));              // GBK 头
  m.morph_names.push_back(track("\xD0\xA6", "笑"));              // GBK 笑
  BoneKey k;
  k.interpolation = encode_bone_interpolation(kLinearCurve, kLinearCurve, kLinearCurve, kLinearCurve);
  m.bone_keys = {k};
  m.morph_keys = {{0, 1, 1.0f}};
  m.signature = {};
  std::memcpy(m.signature.data(), "Vocaloid Motion Data 0002", 25);
  std::string j = to_json(m);
  EXPECT_NE(j.find("\"encoding\":\"gbk\""), std::string::npos);
  EXPECT_NE(j.find("\"model_name\":\"中文\""), std::string::npos);
  EXPECT_NE(j.find("\"name\":\"头\""), std::string::npos);
  EXPECT_EQ(j.find("_hex"), std::string::npos) << j;  // everything canonical: no raw bytes at all
  Motion b = round_trip(m);
  expect_motion_eq(m, b);
}

TEST(VmdJson, VersionOneHeaderUsesTenByteModelName) {
  Motion m;
  m.version = Version::v1;
  std::memcpy(m.signature.data(), "Vocaloid Motion Data file", 25);
  m.model_name = {bytes_of("abc", 10), "abc"};
  m.sections_present = 2;
  std::string j = to_json(m);
  EXPECT_NE(j.find("\"version\":1"), std::string::npos);
  EXPECT_EQ(j.find("_hex"), std::string::npos) << j;
  expect_motion_eq(m, round_trip(m));
  // A 20-byte model name on a version 1 motion (built in code) still comes back as it was.
  m.model_name = {bytes_of("abc", 20), "abc"};
  j = to_json(m);
  EXPECT_NE(j.find("\"model_name\":{\"text\":\"abc\",\"raw\":\"6162630000000000000000000000000000000000\"}"),
            std::string::npos)
      << j;
  expect_motion_eq(m, round_trip(m));
}

// Hand-written JSON (no raw fields, Euler instead of a quaternion) gives exactly the bytes of a
// VMD assembled field by field.
TEST(VmdJson, HandWrittenJsonDerivesRawBytes) {
  std::string j = R"({"format": "vmd",
    "model_name": "センター",
    "sections_present": 6,
    "bone_keys": [
      {"frame": 5, "name": "センター", "position": [1, 2, 3], "euler": [30, 0, 0],
       "interpolation": {"rotation": [64, 0, 64, 127]}},
      {"frame": 6, "name": "センター", "physics_off": true}
    ],
    "morph_keys": [{"frame": 1, "name": "あ", "weight": 0.25}],
    "camera_keys": [{"frame": 0, "distance": -45, "target": [0, 10, 0], "rotation": [0.5, 0, 0],
                     "view_angle": 30}],
    "light_keys": [{"frame": 0, "color": [0.6015625, 0.6015625, 0.6015625], "direction": [-0.5, -1, 0.5]}],
    "self_shadow_keys": [{"frame": 0, "mode": 1, "distance": 0.01125}],
    "property_keys": [{"frame": 0, "visible": 1, "ik": [{"name": "左足ＩＫ", "enabled": 0}]}]
  })";
  auto m = from_json(j);
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->bone_names.size(), 1u);
  EXPECT_EQ(m->bone_names[0].raw, bytes_of(kCenterSjis, 15));
  // euler (30, 0, 0) = 30 degrees about +X.
  const float s = static_cast<float>(std::sin(15 * std::numbers::pi / 180)), c = static_cast<float>(std::cos(15 * std::numbers::pi / 180));
  EXPECT_NEAR(m->bone_keys[0].rotation[0], s, 1e-7);
  EXPECT_NEAR(m->bone_keys[0].rotation[3], c, 1e-7);
  EXPECT_EQ(m->bone_keys[0].rotation[1], 0.0f);
  auto out = write(*m);
  ASSERT_TRUE(out) << out.error().to_string();

  VmdBytes v;
  v.header(true, kCenterSjis).u32(2);
  v.field(kCenterSjis, 15).u32(5).f32(1).f32(2).f32(3);
  for (float f : m->bone_keys[0].rotation) v.f32(f);
  auto b0 = block_by_hand({{kLin, kLin, kLin, {64, 0, 64, 127}}}, 20, 64);  // canonical bytes 2-3 = Z.x1, R.x1
  v.raw(std::vector<std::uint8_t>(b0.begin(), b0.end()));
  v.field(kCenterSjis, 15).u32(6).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(1);
  auto b1 = block_by_hand({{kLin, kLin, kLin, kLin}}, 0x63, 0x0F);
  v.raw(std::vector<std::uint8_t>(b1.begin(), b1.end()));
  v.u32(1).morph(kAUpperSjis, 1, 0.25f);
  v.u32(1).camera(0);
  v.u32(1).light(0);
  v.u32(1).shadow(0, 1);
  v.u32(1).property(0, 1, {{kLeftLegIkSjis, 0}});
  EXPECT_EQ(*out, v.b);
}

TEST(VmdJson, EditedEulerWinsOverTheQuaternion) {
  // Issue 13.4: an edited "euler" was ignored without a word; now it wins, as an edited name does.
  auto m = from_json(R"({"format": "vmd", "bone_keys": [
      {"frame": 0, "name": "a", "rotation": [0, 0, 0, 1], "euler": [45, 0, 0]},
      {"frame": 1, "name": "a", "rotation": [0, 0, 0, 1], "euler": [0, 0, 0]},
      {"frame": 2, "name": "a", "rotation": [0, 0, 0, 1], "euler": [0.0001, 0, 0]}]})");
  ASSERT_TRUE(m) << m.error().to_string();
  const float s = std::sin(std::numbers::pi_v<float> / 8), c = std::cos(std::numbers::pi_v<float> / 8);
  EXPECT_NEAR(m->bone_keys[0].rotation[0], s, 1e-6);  // 45 degrees about +X
  EXPECT_NEAR(m->bone_keys[0].rotation[3], c, 1e-6);
  // Unedited (what the dumper writes) or within 0.001 degrees: the quaternion as stored.
  EXPECT_EQ(m->bone_keys[1].rotation, (std::array<float, 4>{0, 0, 0, 1}));
  EXPECT_EQ(m->bone_keys[2].rotation, (std::array<float, 4>{0, 0, 0, 1}));
}

TEST(VmdJson, DumpedEulerNearGimbalLockReadsBackUnedited) {
  // X within 0.08 degrees of 90 is written as exactly 90 (a different rotation by up to 0.08
  // degrees): the unedited dump must still give the stored quaternion bit for bit.
  Motion m;
  m.bone_names.push_back(track("a", "a"));
  BoneKey k;
  k.rotation = euler_degrees_to_quaternion({89.97f, 10, 5});
  m.bone_keys = {k};
  auto back = from_json(to_json(m, {true, false}));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->bone_keys[0].rotation, k.rotation);
}

TEST(VmdJson, EulerOptionWritesUiAngles) {
  Motion m;
  m.bone_names.push_back(track("a", "a"));
  BoneKey k;
  k.rotation = euler_degrees_to_quaternion({0, 90, 0});
  k.interpolation = encode_bone_interpolation(kLinearCurve, kLinearCurve, kLinearCurve, kLinearCurve);
  m.bone_keys = {k};
  std::string j = to_json(m, {true, true});
  auto at = j.find("\"euler\":[");
  ASSERT_NE(at, std::string::npos);
  // Expect ~[0,90,0]: parse the three numbers back.
  auto back = from_json(j);
  ASSERT_TRUE(back);
  std::string arr = j.substr(at + 9, j.find(']', at) - at - 9);
  float e[3];
  std::size_t p = 0;
  for (float& x : e) {
    std::size_t q = arr.find(',', p);
    x = std::stof(arr.substr(p, q == std::string::npos ? std::string::npos : q - p));
    p = q + 1;
  }
  EXPECT_NEAR(e[0], 0, 1e-4);
  EXPECT_NEAR(e[1], 90, 1e-4);
  EXPECT_NEAR(e[2], 0, 1e-4);
}

TEST(VmdJson, GeneratedMotionRoundTrips) {
  GenerateOptions g;
  g.seed = 3;
  g.bone_keys = 14000;  // ~1.55 MB of bone keys, the size of a long dance motion
  g.morph_keys = 3000;
  g.camera_keys = 50;
  g.light_keys = 5;
  g.self_shadow_keys = 5;
  g.property_keys = 20;
  Motion m = generate(g);
  auto bin = write(m);
  ASSERT_TRUE(bin);
  EXPECT_GT(bin->size(), 1'500'000u);
  std::string j = to_json(m);
  auto back = from_json(j);
  ASSERT_TRUE(back) << back.error().to_string();
  expect_motion_eq(m, *back);
  auto w = write(*back);
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, *bin);
  // JSON speed is measured in bench/ (no wall-clock bound in a test).
}

// ---- errors --------------------------------------------------------------------------------

struct BadCase {
  const char* json;
  ErrorCode code;
  const char* section;  // JSON path
  const char* message_part;
};

TEST(VmdJson, SchemaErrorsNameTheJsonPath) {
  const BadCase cases[] = {
      {R"({"version": 2})", ErrorCode::json_schema, "format", "missing member"},
      {R"({"format": "pmx"})", ErrorCode::json_schema, "format", "\"vmd\""},
      {R"([1, 2])", ErrorCode::json_schema, "", "must be an object"},
      {R"({"format": "vmd", "version": 3})", ErrorCode::json_schema, "version", "out of range"},
      {R"({"format": "vmd", "version": "2"})", ErrorCode::json_schema, "version", "must be an integer"},
      {R"({"format": "vmd", "bogus": 1})", ErrorCode::json_schema, "bogus", "unknown member"},
      {R"({"format": "vmd", "encoding": "latin1"})", ErrorCode::json_schema, "encoding", "unknown encoding"},
      {R"({"format": "vmd", "signature_hex": "5665"})", ErrorCode::json_schema, "signature_hex", "30 bytes"},
      {R"({"format": "vmd", "bone_keys": {}})", ErrorCode::json_schema, "bone_keys", "must be an array"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a"}, {"name": "a"}]})", ErrorCode::json_schema,
       "bone_keys[1].frame", "missing member"},
      {R"({"format": "vmd", "bone_keys": [{"frame": -1, "name": "a"}]})", ErrorCode::json_schema,
       "bone_keys[0].frame", "out of range"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 4294967296, "name": "a"}]})", ErrorCode::json_schema,
       "bone_keys[0].frame", "out of range"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 1.5, "name": "a"}]})", ErrorCode::json_schema,
       "bone_keys[0].frame", "must be an integer"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0}]})", ErrorCode::json_schema, "bone_keys[0].name",
       "missing member"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "position": [1, 2]}]})",
       ErrorCode::json_schema, "bone_keys[0].position", "3 elements"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "position": [1, "x", 2]}]})",
       ErrorCode::json_schema, "bone_keys[0].position[1]", "must be a number"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "rotation": [0, 0, 0, true]}]})",
       ErrorCode::json_schema, "bone_keys[0].rotation[3]", "must be a number"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "interpolation": {"x": [1, 2, 3]}}]})",
       ErrorCode::json_schema, "bone_keys[0].interpolation.x", "[x1, y1, x2, y2]"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "interpolation": {"x": [1, 2, 3, 256]}}]})",
       ErrorCode::json_schema, "bone_keys[0].interpolation.x[3]", "out of range"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "interpolation": {"w": [1, 2, 3, 4]}}]})",
       ErrorCode::json_schema, "bone_keys[0].interpolation.w", "unknown member"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "physics_off": 1}]})", ErrorCode::json_schema,
       "bone_keys[0].physics_off", "true or false"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "interpolation_hex": "00"}]})",
       ErrorCode::json_schema, "bone_keys[0].interpolation_hex", "64 bytes"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "name_hex": "zz"}]})", ErrorCode::json_schema,
       "bone_keys[0].name_hex", "hex"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "0123456789abcdef"}]})", ErrorCode::json_schema,
       "bone_keys[0].name", "16 bytes"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "rotaton": [0, 0, 0, 1]}]})",
       ErrorCode::json_schema, "bone_keys[0].rotaton", "unknown member"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name_index": 0}]})", ErrorCode::json_schema,
       "bone_keys[0].name_index", "no name table"},
      {R"({"format": "vmd", "morph_keys": [{"frame": 0, "name": "a", "weight": "0.5"}]})", ErrorCode::json_schema,
       "morph_keys[0].weight", "\"nan:XXXXXXXX\""},
      {R"({"format": "vmd", "camera_keys": [{"frame": 0, "view_angle": -1}]})", ErrorCode::json_schema,
       "camera_keys[0].view_angle", "out of range"},
      {R"({"format": "vmd", "self_shadow_keys": [{"frame": 0, "mode": 300}]})", ErrorCode::json_schema,
       "self_shadow_keys[0].mode", "out of range"},
      {R"({"format": "vmd", "property_keys": [{"frame": 0, "ik": [{"enabled": 1}]}]})", ErrorCode::json_schema,
       "property_keys[0].ik[0].name", "missing member"},
      {R"({"format": "vmd", "property_keys": [{"frame": 0, "ik": [{"name": "012345678901234567890"}]}]})",
       ErrorCode::json_schema, "property_keys[0].ik[0].name", "21 bytes"},
      {R"({"format": "vmd", "model_name": "\u00e9\u00e9"})", ErrorCode::encoding_error, "model_name", "cp932"},
      {R"({"format": "vmd", "trailing_hex": "abc"})", ErrorCode::json_schema, "trailing_hex", "hex digits"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "physics_off": true, "toggle": [0, 0]}]})",
       ErrorCode::json_schema, "bone_keys[0].toggle", "not both"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "toggle": [1]}]})", ErrorCode::json_schema,
       "bone_keys[0].toggle", "2 integers"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "pad": [1, 0]}]})", ErrorCode::json_schema,
       "bone_keys[0].pad", "3 integers"},
      {R"({"format": "vmd", "bone_keys": [{"frame": 0, "name": "a", "pad": [1, 0, -1]}]})", ErrorCode::json_schema,
       "bone_keys[0].pad[2]", "out of range"},
      {R"({"format": "vmd", "bone_names": [{"name": "a"}], "bone_keys": [{"frame": 0, "name": "a", "name_index": 0}]})",
       ErrorCode::json_schema, "bone_keys[0].name_index", "not both"},
      {R"({"format": "vmd", "bone_names": [{"name": "a"}], "bone_keys": [{"frame": 0, "name_index": 1}]})",
       ErrorCode::json_schema, "bone_keys[0].name_index", "out of range [0, 0]"},
      {R"({"format": "vmd", "bone_names": [{"name": "a", "hex": "61"}]})", ErrorCode::json_schema,
       "bone_names[0].hex", "unknown member"},
      {R"({"format": "vmd", "camera_keys": [{"frame": 0, "interpolation_hex": "00"}]})", ErrorCode::json_schema,
       "camera_keys[0].interpolation_hex", "24 bytes"},
      {R"({"format": "vmd", "light_keys": [{"frame": 0, "color": ["-inf", "nan:7fc00000", "NaN"]}]})",
       ErrorCode::json_schema, "light_keys[0].color[2]", "must be a number"},
      {R"({"format": "vmd", "sections_present": 7})", ErrorCode::json_schema, "sections_present", "out of range"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.json);
    auto r = from_json(c.json);
    ASSERT_FALSE(r);
    EXPECT_EQ(error_code_name(r.error().code), error_code_name(c.code)) << r.error().to_string();
    EXPECT_EQ(r.error().section, c.section) << r.error().to_string();
    EXPECT_NE(r.error().message.find(c.message_part), std::string::npos) << r.error().to_string();
  }
}

TEST(VmdJson, SchemaErrorCarriesRecordIndex) {
  auto r = from_json(R"({"format": "vmd", "morph_keys": [{"frame": 0, "name": "a"}, {"frame": 1, "name": "a"},
                                                         {"frame": 2, "name": 5}]})");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().section, "morph_keys[2].name");
  EXPECT_EQ(r.error().record, 2);
}

TEST(VmdJson, SyntaxErrorsGiveByteOffset) {
  struct S {
    std::string json;
    std::size_t offset;
  };
  const std::string a = R"({"format": "vmd", "version": 2,,})";
  const std::string b = R"({"format": "vmd", "model_name": "abc)";
  const std::string c = R"({"format": "vmd"} x)";
  const std::string d = "{\"format\": \"vmd\", \"model_name\": \"\xff\"}";  // invalid UTF-8
  const S cases[] = {{a, a.find(",,") + 1}, {b, b.size()}, {c, c.find('x')}, {d, d.find('\xff')}};
  for (const auto& s : cases) {
    SCOPED_TRACE(s.json);
    auto r = from_json(s.json);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::json_syntax) << r.error().to_string();
    EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(s.offset)) << r.error().to_string();
  }
  auto e = from_json("");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, ErrorCode::json_syntax);
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

TEST(VmdJson, DocumentationExamplesImport) {
  // The two examples of docs/formats/vmd-json.md.
  auto full = from_json(R"({"format": "vmd",
  "version":2,
  "signature_hex":"566f63616c6f6964204d6f74696f6e20446174612030303032004a4b4c4d",
  "encoding":"cp932",
  "model_name":{"text":"初音ミク","raw":"8f8989b9837e834e00fdfdfdfdfdfdfdfdfdfdfd"},
  "sections_present":6,
  "bone_names":[
    {"name":{"text":"センター","raw":"835a8393835e815b00fdfdfdfdfdfd"}}
  ],
  "bone_keys":[
    {"frame":0,"name":"センター","position":[0,0,0],"rotation":[0,0,0,1]},
    {"frame":10,"name":"センター","position":[0,1.5,0],"rotation":[0,0.13052619,0,0.9914449],"interpolation":{"rotation":[64,0,64,127]},"physics_off":false,"pad":[0,0,0]}
  ],
  "morph_keys":[
    {"frame":0,"name":"あ","weight":0.5}
  ],
  "camera_keys":[],
  "light_keys":[],
  "self_shadow_keys":[],
  "property_keys":[
    {"frame":0,"visible":1,"ik":[{"name":"左足ＩＫ","enabled":1},{"name":"右足ＩＫ","enabled":1}]}
  ]
})");
  ASSERT_TRUE(full) << full.error().to_string();
  EXPECT_EQ(full->bone_names.size(), 1u);
  EXPECT_EQ(full->bone_keys.size(), 2u);
  EXPECT_EQ(full->bone_keys[1].interpolation[15], 127);  // row 0 byte 15 = R.y2
  EXPECT_EQ(full->bone_keys[1].interpolation[31], 0);    // pad 00
  EXPECT_EQ(full->property_keys[0].ik.size(), 2u);
  auto minimal = from_json(R"({"format": "vmd", "model_name": "初音ミク",
 "bone_keys": [{"frame": 0, "name": "頭", "euler": [0, 30, 0]}]})");
  ASSERT_TRUE(minimal) << minimal.error().to_string();
  // UI Y = 30 is -30 degrees about +Y: (0, -sin 15, 0, cos 15).
  EXPECT_NEAR(minimal->bone_keys[0].rotation[1], -0.25881904, 1e-7);
  EXPECT_NEAR(minimal->bone_keys[0].rotation[3], 0.96592583, 1e-7);
  EXPECT_EQ(minimal->model_name.raw.size(), 20u);
}

TEST(VmdJson, EulerMatchesMmdPanelValuesQuotedByMlibGo) {
  // miu200521358/mlib_go pkg/vmd/vmd_reader_test.go lists 左足ＩＫ of its サンプルモーション.vmd at
  // position (-1.63, 0.05, 2.58) with degrees (-1.4, 6.7, -5.2), in MMD's one-decimal display. The
  // corpus pose サンプルモーション_0046.vmd has 左足ＩＫ at that position.
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("miu200521358__mlib_go/test_resources/サンプルモーション_0046.vmd");
  ASSERT_TRUE(f);
  auto bytes = mmdkit::test::read_bytes(f->path);
  auto r = read(bytes);
  ASSERT_TRUE(r);
  const Motion& m = r->motion;
  int found = 0;
  for (const auto& k : m.bone_keys) {
    if (m.bone_names[k.name].text != "左足ＩＫ") continue;
    ++found;
    EXPECT_NEAR(k.position[0], -1.63, 0.005);
    EXPECT_NEAR(k.position[1], 0.05, 0.005);
    EXPECT_NEAR(k.position[2], 2.58, 0.005);
    auto e = quaternion_to_euler_degrees(k.rotation);
    EXPECT_NEAR(e[0], -1.4, 0.05);
    EXPECT_NEAR(e[1], 6.7, 0.05);
    EXPECT_NEAR(e[2], -5.2, 0.05);
  }
  EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

TEST(VmdJson, DeepNestingIsAnErrorNotACrash) {
  // 200,000 nested arrays: the parser is iterative, and the schema walk never descends into
  // values it does not expect.
  std::string deep = R"({"format": "vmd", "bone_keys": )" + std::string(200000, '[') + std::string(200000, ']') + "}";
  auto r = from_json(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::json_schema);
  EXPECT_EQ(r.error().section, "bone_keys[0]");
}

TEST(VmdJson, MutatedDocumentsNeverCrash) {
  // Random byte edits and truncations of a valid document: every result is a motion or an error.
  Motion m = rich_motion();
  const std::string base = to_json(m);
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  std::size_t ok = 0, failed = 0;
  const char alphabet[] = "{}[],:\"0123456789-.eE \\ntfna";
  for (int i = 0; i < 3000; ++i) {
    std::string s = base;
    int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits; ++e) {
      std::size_t at = next() % s.size();
      switch (next() % 3) {
        case 0: s[at] = alphabet[next() % (sizeof alphabet - 1)]; break;
        case 1: s.erase(at, 1 + next() % 8); break;
        default: s.resize(at); break;
      }
      if (s.empty()) s = "{";
    }
    auto r = from_json(s);
    (r ? ok : failed)++;
  }
  EXPECT_EQ(ok + failed, 3000u);
  EXPECT_GT(failed, 0u);
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

TEST(VmdJson, CorpusMotionsComeBackFieldByField) {
  // Field-by-field equality (beyond the byte identity of json_corpus_test.cpp), and the claim of
  // docs/formats/vmd-json.md that no corpus block needs "interpolation_hex".
  MMDKIT_REQUIRE_CORPUS();
  std::size_t checked = 0, hex_blocks = 0;
  for (const auto& f : mmdkit::test::corpus_files("vmd")) {
    SCOPED_TRACE(f.local_path);
    auto bytes = mmdkit::test::read_bytes(f.path);
    auto r = read(bytes);
    if (!r) continue;
    std::string j = to_json(r->motion, {false, false});
    for (std::size_t at = j.find("\"interpolation_hex\""); at != std::string::npos;
         at = j.find("\"interpolation_hex\"", at + 1))
      ++hex_blocks;
    auto back = from_json(j);
    ASSERT_TRUE(back) << back.error().to_string();
    expect_motion_eq(r->motion, *back);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  EXPECT_EQ(hex_blocks, 0u);
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

TEST(VmdJson, DuplicateRawNamesInATableBuiltInCodeKeepTheirIndex) {
  Motion m;
  m.bone_names = {track("a", "a"), track("a", "a"), track("b", "b")};
  auto lin = encode_bone_interpolation(kLinearCurve, kLinearCurve, kLinearCurve, kLinearCurve);
  for (std::uint32_t n : {0u, 1u, 2u, 1u}) {
    BoneKey k;
    k.name = n;
    k.frame = n;
    k.interpolation = lin;
    m.bone_keys.push_back(k);
  }
  std::string j = to_json(m);
  EXPECT_NE(j.find("\"bone_names\""), std::string::npos);
  EXPECT_NE(j.find("\"name_index\":1"), std::string::npos);
  expect_motion_eq(m, round_trip(m));
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

TEST(VmdJson, NameIndexNonFiniteStringsAndCameraHexImport) {
  auto m = from_json(R"({"format": "vmd",
    "bone_names": [{"name": "a"}, {"name": "b\ufffd", "name_hex": "62ff"}],
    "bone_keys": [{"frame": 1, "name_index": 1, "position": ["inf", "-inf", "nan:7fc00001"]},
                  {"frame": 2, "name": "a", "toggle": [5, 6], "pad": [7, 8, 9]}],
    "camera_keys": [{"frame": 0, "interpolation_hex": "000102030405060708090a0b0c0d0e0f1011121314151617"}]})");
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->bone_names.size(), 2u);
  EXPECT_EQ(m->bone_names[1].raw, (std::vector<std::uint8_t>{0x62, 0xff}));
  EXPECT_EQ(m->bone_keys[0].name, 1u);
  EXPECT_EQ(bits(m->bone_keys[0].position[0]), 0x7f800000u);
  EXPECT_EQ(bits(m->bone_keys[0].position[1]), 0xff800000u);
  EXPECT_EQ(bits(m->bone_keys[0].position[2]), 0x7fc00001u);
  EXPECT_EQ(m->bone_keys[1].name, 0u);
  auto expected = block_by_hand({{kLin, kLin, kLin, kLin}}, 5, 6);
  for (std::size_t r = 1; r < 4; ++r)
    for (std::size_t i = 0; i < r; ++i) expected[16 * r + 16 - r + i] = static_cast<std::uint8_t>(7 + i);
  EXPECT_EQ(m->bone_keys[1].interpolation, expected);
  for (std::size_t i = 0; i < 24; ++i) EXPECT_EQ(m->camera_keys[0].interpolation[i], i);
}

}  // namespace
}  // namespace mmdkit::vmd

namespace mmdkit::vmd {
namespace {

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// A motion whose names carry garbage after the NUL (so the JSON holds both text and hex).
Motion motion_with_garbage_names() {
  Motion m;
  m.version = Version::v2;
  std::memcpy(m.signature.data(), "Vocaloid Motion Data 0002", 25);
  m.model_name = {bytes_of(std::string("abc\0zzzz", 8), kModelNameSizeV2), "abc"};
  m.bone_names.push_back(track(kCenterSjis + std::string("\0xyz", 4), "センター"));
  m.bone_keys.resize(1);
  m.bone_keys[0].frame = 3;
  m.bone_keys[0].name = 0;
  m.bone_keys[0].rotation = {0, 0, 0, 1};
  m.sections_present = 2;
  return m;
}

TEST(VmdJson, OldHexSiblingFormStillImports) {
  const Motion m = motion_with_garbage_names();
  const std::string old = test::to_old_name_form(to_json(m));
  ASSERT_NE(old.find("\"model_name\":\"abc\",\"model_name_hex\":\"616263007a7a7a7a"), std::string::npos) << old;
  ASSERT_NE(old.find("\"name\":\"センター\",\"name_hex\":"), std::string::npos) << old;
  auto back = from_json(old);
  ASSERT_TRUE(back) << back.error().to_string();
  expect_motion_eq(m, *back);
  // An edited text still wins over stale hex in the old form.
  auto e = from_json(replace_all(old, "センター", "全ての親"));
  ASSERT_TRUE(e) << e.error().to_string();
  EXPECT_EQ(e->bone_names[0].text, "全ての親");
  // Raw bytes given twice (object and sibling) are refused.
  auto twice = from_json(R"({"format": "vmd", "model_name": {"text": "a", "raw": "61"}, "model_name_hex": "61"})");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().section, "model_name_hex");
}

TEST(VmdJson, EditedNameTextWinsOverStaleHex) {
  const Motion m = motion_with_garbage_names();
  const std::string j = to_json(m);
  ASSERT_NE(j.find("\"model_name\":{\"text\":\"abc\",\"raw\":"), std::string::npos) << j;
  ASSERT_NE(j.find("\"name\":{\"text\":\"センター\",\"raw\":"), std::string::npos) << j;
  // Unedited: the raw bytes come back exactly, garbage after the NUL included.
  auto same = from_json(j);
  ASSERT_TRUE(same) << same.error().to_string();
  EXPECT_EQ(same->model_name.raw, m.model_name.raw);
  ASSERT_EQ(same->bone_names.size(), 1u);
  EXPECT_EQ(same->bone_names[0].raw, m.bone_names[0].raw);
  // Edited text: the new text, encoded and NUL-padded, replaces the stale raw bytes.
  std::string edited = replace_all(j, "\"model_name\":{\"text\":\"abc\"", "\"model_name\":{\"text\":\"xy\"");
  edited = replace_all(edited, "センター", "全ての親");
  ASSERT_NE(edited, j);
  auto e = from_json(edited);
  ASSERT_TRUE(e) << e.error().to_string() << "\n" << edited;
  EXPECT_EQ(e->model_name.text, "xy");
  EXPECT_EQ(e->model_name.raw, bytes_of("xy", kModelNameSizeV2));
  ASSERT_EQ(e->bone_names.size(), 1u);
  auto want = encode_text("全ての親", Encoding::cp932);
  ASSERT_TRUE(want);
  want->resize(kTrackNameSize, 0);
  EXPECT_EQ(e->bone_names[0].text, "全ての親");
  EXPECT_EQ(e->bone_names[0].raw, *want);
  ASSERT_EQ(e->bone_keys.size(), 1u);
  EXPECT_EQ(e->bone_keys[0].name, 0u);
  // The written VMD holds the new names.
  auto bytes = write(*e);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto back = read(*bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->motion.model_name.text, "xy");
  ASSERT_EQ(back->motion.bone_names.size(), 1u);
  EXPECT_EQ(back->motion.bone_names[0].text, "全ての親");
  // An edited name too long for its field is a schema error at its JSON path.
  auto too_long = from_json(replace_all(j, "センター", "あいうえおかきくけこ"));
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, ErrorCode::json_schema);
  EXPECT_EQ(too_long.error().section, "bone_names[0].name.text");
}

}  // namespace
}  // namespace mmdkit::vmd
