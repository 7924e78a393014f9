// PMD reading and writing on models built in code: layout, optional tail variants, truncation,
// corruption, encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::pmd {
namespace {

using test::sample_model;
using test::sample_size;
using test::sample_with_tail;

std::vector<std::uint8_t> must_write(const Model& m) {
  auto b = write(m);
  EXPECT_TRUE(b) << (b ? "" : b.error().to_string());
  return b ? *b : std::vector<std::uint8_t>{};
}

std::vector<std::uint8_t> cp932(const std::string& s) {
  auto r = encode_text(s, Encoding::cp932);
  EXPECT_TRUE(r);
  return r ? *r : std::vector<std::uint8_t>{};
}

float f32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  float f;
  std::memcpy(&f, b.data() + at, 4);
  return f;
}
std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
std::uint16_t u16_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint16_t v;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}

constexpr Tail kTails[] = {Tail::none, Tail::english, Tail::toon_textures, Tail::rigid_bodies, Tail::joints};

TEST(PmdWrite, HeaderAndRecordsAtTheDocumentedOffsets) {
  auto b = must_write(sample_model());
  ASSERT_EQ(b.size(), sample_size(Tail::joints));
  EXPECT_EQ(std::string(b.begin(), b.begin() + 3), "Pmd");
  EXPECT_EQ(f32_at(b, 3), 1.0f);
  auto name = cp932("テストモデル");
  EXPECT_TRUE(std::equal(name.begin(), name.end(), b.begin() + 7));
  EXPECT_EQ(b[7 + name.size()], 0);
  EXPECT_EQ(u32_at(b, 283), 3u);                    // vertex count
  EXPECT_EQ(f32_at(b, 283 + 4 + 38 + 4), 1.5f);     // vertex 1 position y
  EXPECT_EQ(u16_at(b, 283 + 4 + 38 + 32), 1u);      // vertex 1 bone 0
  EXPECT_EQ(b[283 + 4 + 38 + 36], 75);              // vertex 1 weight
  EXPECT_EQ(b[283 + 4 + 2 * 38 + 37], 1);           // vertex 2 edge_off
  const std::size_t faces = 283 + 4 + 3 * 38;
  EXPECT_EQ(u32_at(b, faces), 3u);
  const std::size_t materials = faces + 4 + 6;
  EXPECT_EQ(u32_at(b, materials), 2u);
  EXPECT_EQ(b[materials + 4 + 44], 3);              // toon index after 11 floats
  EXPECT_EQ(u32_at(b, materials + 4 + 46), 3u);     // face index count
  const std::size_t bones = materials + 4 + 2 * 70;
  EXPECT_EQ(u16_at(b, bones), 3u);
  EXPECT_EQ(u16_at(b, bones + 2 + 20), kNoBone);    // bone 0 parent
  EXPECT_EQ(b[bones + 2 + 39 + 24], 2);             // bone 1 type
  EXPECT_EQ(b[bones + 2 + 2 * 39 + 10], 0xFD);      // garbage after the NUL kept
}

TEST(PmdRead, ReadsBackEveryField) {
  Model src = sample_model();
  auto b = must_write(src);
  auto r = read(b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->warnings.empty());
  const Model& m = r->model;
  EXPECT_EQ(m.encoding, Encoding::cp932);
  EXPECT_EQ(m.name.text, "テストモデル");
  EXPECT_EQ(m.comment.text, "一行目\r\n二行目");
  ASSERT_EQ(m.vertices.size(), 3u);
  EXPECT_EQ(m.vertices[2].position, (std::array<float, 3>{2, 3, -0.25f}));
  EXPECT_EQ(m.vertices[2].uv[1], 2.0f / 3.0f);
  EXPECT_EQ(m.vertices[2].weight, 50);
  EXPECT_EQ(m.indices, (std::vector<std::uint16_t>{0, 1, 2}));
  ASSERT_EQ(m.materials.size(), 2u);
  EXPECT_EQ(m.materials[0].texture.text, "tex.bmp*sph.spa");
  EXPECT_EQ(m.materials[1].texture.text, "abcdefghijklmnop.bmp");  // 20 bytes, no NUL
  EXPECT_EQ(m.materials[1].toon_index, kNoToon);
  ASSERT_EQ(m.bones.size(), 3u);
  EXPECT_EQ(m.bones[2].name.text, "左ひざ");
  EXPECT_EQ(m.bones[2].name.raw.size(), 20u);
  EXPECT_EQ(m.bones[2].name.raw[19], 0xFD);
  EXPECT_EQ(m.bones[1].position[1], 9.0f);
  ASSERT_EQ(m.ik_chains.size(), 1u);
  EXPECT_EQ(m.ik_chains[0].links, (std::vector<std::uint16_t>{2, 0}));
  EXPECT_EQ(m.ik_chains[0].iterations, 40);
  EXPECT_EQ(m.ik_chains[0].unit_angle, 0.5f);
  ASSERT_EQ(m.morphs.size(), 3u);
  EXPECT_EQ(m.morphs[1].name.text, "まばたき");
  EXPECT_EQ(m.morphs[2].offsets[1].vertex, 1u);
  EXPECT_EQ(m.morphs[2].offsets[1].offset[1], 0.2f);
  EXPECT_EQ(m.morph_display, (std::vector<std::uint16_t>{1, 2}));
  ASSERT_EQ(m.bone_frames.size(), 2u);
  EXPECT_EQ(m.bone_frames[0].text, "ＩＫ\n");
  ASSERT_EQ(m.bone_display.size(), 2u);
  EXPECT_EQ(m.bone_display[1].bone, 2);
  EXPECT_EQ(m.bone_display[1].frame, 2);
  EXPECT_EQ(m.tail, Tail::joints);
  ASSERT_TRUE(m.english);
  EXPECT_EQ(m.english->bone_names[1].text, "leg IK_L");
  EXPECT_EQ(m.english->morph_names[0].text, "blink");
  EXPECT_EQ(m.english->frame_names[1].text, "Body");
  EXPECT_EQ(m.toon_textures[9].text, "toon10.bmp");
  ASSERT_EQ(m.rigid_bodies.size(), 2u);
  EXPECT_EQ(m.rigid_bodies[0].collision_mask, 0xFFFE);
  EXPECT_EQ(m.rigid_bodies[1].shape, 2);
  EXPECT_EQ(m.rigid_bodies[1].mode, 1);
  EXPECT_EQ(m.rigid_bodies[0].size[0], 1.6f);
  ASSERT_EQ(m.joints.size(), 1u);
  EXPECT_EQ(m.joints[0].name.text, "右髪1");
  EXPECT_EQ(m.joints[0].rigid_b, 1u);
  EXPECT_EQ(m.joints[0].spring_rotation[2], 30.0f);
  EXPECT_TRUE(m.trailing.empty());
  EXPECT_EQ(m.trailing_offset, -1);
}

// Each optional-tail variant: the file ends after that part, reads back to the same part, writes
// back byte-identically.
TEST(PmdTail, EveryVariantRoundTrips) {
  for (bool english : {true, false}) {
    for (Tail t : kTails) {
      SCOPED_TRACE(std::string(tail_name(t)) + (english ? " with English" : " English flag 0"));
      auto b = must_write(sample_with_tail(t, english));
      ASSERT_EQ(b.size(), sample_size(t, english));
      auto r = read(b);
      ASSERT_TRUE(r) << r.error().to_string();
      EXPECT_TRUE(r->warnings.empty());
      EXPECT_EQ(r->model.tail, t);
      EXPECT_EQ(r->model.english.has_value(), english && t >= Tail::english);
      if (t >= Tail::english) {
        EXPECT_EQ(b[sample_size(Tail::none)], english ? 1 : 0);
      }
      EXPECT_EQ(r->model.rigid_bodies.size(), t >= Tail::rigid_bodies ? 2u : 0u);
      EXPECT_EQ(r->model.joints.size(), t >= Tail::joints ? 1u : 0u);
      auto again = write(r->model);
      ASSERT_TRUE(again);
      EXPECT_EQ(*again, b);
    }
  }
}

TEST(PmdTail, WriterRaisesTailToHoldData) {
  Model m = sample_model();
  m.tail = Tail::none;  // but English, toon, rigid bodies and joints are set
  auto b = must_write(m);
  EXPECT_EQ(b.size(), sample_size(Tail::joints));
}

TEST(PmdTail, EnglishNameCountMismatchIsAnError) {
  Model m = sample_model();
  m.english->morph_names.pop_back();
  auto b = write(m);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(b.error().section, "english");
}

TEST(PmdTail, UnknownEnglishFlagKeptAsTrailing) {
  auto b = must_write(sample_with_tail(Tail::joints));
  const std::size_t at = sample_size(Tail::none);
  b[at] = 2;
  auto r = read(b);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->model.tail, Tail::none);
  EXPECT_EQ(r->model.trailing.size(), b.size() - at);
  EXPECT_EQ(r->model.trailing_offset, static_cast<std::int64_t>(at));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, ErrorCode::trailing_data);
  EXPECT_EQ(r->warnings[0].offset, static_cast<std::int64_t>(at));
  auto again = write(r->model);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, b);
  auto strict = read(b, ReadOptions{.encoding = std::nullopt, .strict = true});
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().code, ErrorCode::trailing_data);
  EXPECT_EQ(strict.error().offset, static_cast<std::int64_t>(at));
}

TEST(PmdTail, BytesAfterJointsAreTrailing) {
  auto b = must_write(sample_model());
  const std::size_t n = b.size();
  b.insert(b.end(), {0xDE, 0xAD, 0xBE});
  auto r = read(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.tail, Tail::joints);
  EXPECT_EQ(r->model.trailing, (std::vector<std::uint8_t>{0xDE, 0xAD, 0xBE}));
  EXPECT_EQ(r->model.trailing_offset, static_cast<std::int64_t>(n));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].section, "trailing");
  auto again = write(r->model);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, b);
}

// Every prefix of the generated file: before the end of the bone display list an error located
// inside the prefix; from there on a valid parse whose tail is the longest complete part, whose
// trailing bytes are the rest, and which writes back the prefix exactly.
TEST(PmdTruncation, EveryPrefixOfGeneratedModel) {
  for (bool english : {true, false}) {
    auto full = must_write(sample_with_tail(Tail::joints, english));
    const std::size_t mandatory = sample_size(Tail::none);
    for (std::size_t len = 0; len <= full.size(); ++len) {
      SCOPED_TRACE("prefix " + std::to_string(len));
      ByteSpan prefix(full.data(), len);
      auto r = read(prefix);
      if (len < mandatory) {
        ASSERT_FALSE(r);
        const Error& e = r.error();
        EXPECT_TRUE(e.code == ErrorCode::truncated || e.code == ErrorCode::count_too_large ||
                    e.code == ErrorCode::empty_input)
            << e.to_string();
        EXPECT_FALSE(e.section.empty());
        EXPECT_GE(e.offset, 0);
        EXPECT_LE(e.offset, static_cast<std::int64_t>(len));
        continue;
      }
      ASSERT_TRUE(r) << r.error().to_string();
      Tail expect = Tail::none;
      for (Tail t : kTails)
        if (sample_size(t, english) <= len) expect = t;
      EXPECT_EQ(r->model.tail, expect);
      EXPECT_EQ(r->model.trailing.size(), len - sample_size(expect, english));
      EXPECT_EQ(r->warnings.size(), r->model.trailing.empty() ? 0u : 1u);
      auto again = write(r->model);
      ASSERT_TRUE(again);
      ASSERT_TRUE(std::equal(again->begin(), again->end(), prefix.begin(), prefix.end()));
    }
  }
}

TEST(PmdTruncation, CutBoneNamesTheRecordAndOffset) {
  auto full = must_write(sample_model());
  const std::size_t bones = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 2 * 70;
  ByteSpan prefix(full.data(), bones + 2 + 39 + 5);  // inside bone 1
  auto r = read(prefix);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().section, "bones");
  EXPECT_EQ(r.error().record, 1);
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(bones + 2 + 39));
}

TEST(PmdRead, RejectsHugeCountsBeforeAllocating) {
  auto b = must_write(sample_model());
  b[283] = 0xFF;
  b[284] = 0xFF;
  b[285] = 0xFF;
  b[286] = 0x7F;
  auto r = read(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().section, "vertices");
}

TEST(PmdRead, HugeMorphOffsetCountNamesTheMorph) {
  auto b = must_write(sample_model());
  // Morph section: after IK chains.
  const std::size_t morphs = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 2 * 70 + 2 + 3 * 39 + 2 + 15;
  ASSERT_EQ(u16_at(b, morphs), 3u);
  const std::size_t morph1_count = morphs + 2 + (25 + 32) + 20;
  ASSERT_EQ(u32_at(b, morph1_count), 1u);
  b[morph1_count + 3] = 0x40;
  auto r = read(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().section, "morphs");
  EXPECT_EQ(r.error().record, 1);
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(morph1_count));
}

TEST(PmdRead, SignatureAndEmptyInput) {
  std::vector<std::uint8_t> empty;
  auto a = read(empty);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::empty_input);
  auto b = must_write(sample_model());
  b[0] = 'X';
  auto c = read(b);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::bad_signature);
  EXPECT_EQ(c.error().offset, 0);
}

TEST(PmdRead, FaceCountNotMultipleOfThreeIsKept) {
  Model m = sample_model();
  m.indices = {0, 1, 2, 1};
  auto b = must_write(m);
  auto r = read(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.indices.size(), 4u);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(PmdRead, UnusualVersionIsKeptWithWarning) {
  Model m = sample_model();
  m.version = 2.5f;
  auto b = must_write(m);
  auto r = read(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.version, 2.5f);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].offset, 3);
  EXPECT_EQ(*write(r->model), b);
}

// Single-byte corruption never crashes; whatever parses writes back the corrupted bytes exactly.
TEST(PmdCorruption, EverySingleByteOfGeneratedModel) {
  auto good = must_write(sample_model());
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (std::uint8_t v : {std::uint8_t(good[i] ^ 0xFF), std::uint8_t(0), std::uint8_t(0xFF), std::uint8_t(good[i] + 1)}) {
      auto b = good;
      b[i] = v;
      auto r = read(b);
      if (!r) {
        EXPECT_LE(r.error().offset, static_cast<std::int64_t>(b.size()));
        continue;
      }
      auto again = write(r->model);
      ASSERT_TRUE(again) << "byte " << i;
      ASSERT_EQ(*again, b) << "byte " << i << " = " << int(v);
    }
  }
}

TEST(PmdEncoding, DetectsGbkAndKeepsRawUnderForcedEncoding) {
  Model m = sample_model();
  m.encoding = Encoding::gbk;
  const char* names[] = {"头部", "左手腕", "右肩膀"};
  for (int i = 0; i < 3; ++i) m.bones[std::size_t(i)].name = test::text<kNameSize>(names[i], Encoding::gbk);
  m.name = test::text<kNameSize>("测试模型", Encoding::gbk);
  m.comment = test::text<kCommentSize>("简体中文说明", Encoding::gbk);
  for (Morph& x : m.morphs) x.name = test::text<kNameSize>("眨眼", Encoding::gbk);
  for (FrameName& f : m.bone_frames) f = test::text<kFrameNameSize>("身体", Encoding::gbk);
  for (RigidBody& rb : m.rigid_bodies) rb.name = test::text<kNameSize>("头", Encoding::gbk);
  m.joints[0].name = test::text<kNameSize>("头发", Encoding::gbk);
  auto b = must_write(m);
  auto r = read(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.encoding, Encoding::gbk);
  EXPECT_EQ(r->model.bones[1].name.text, "左手腕");
  EXPECT_EQ(r->model.name.text, "测试模型");
  auto forced = read(b, ReadOptions{.encoding = Encoding::cp932, .strict = false});
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->model.encoding, Encoding::cp932);
  EXPECT_NE(forced->model.bones[1].name.text, "左手腕");
  EXPECT_EQ(*write(forced->model), b);
}

TEST(PmdWrite, EncodesTextWithoutRawAndRejectsTooLong) {
  Model m = sample_model();
  m.bones[0].name.raw.clear();
  m.bones[0].name.text = "右足首";
  auto b = must_write(m);
  auto r = read(b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.bones[0].name.text, "右足首");
  m.bones[0].name.text = "とても長いボーンの名前です";  // 26 bytes in CP932
  auto e = write(m);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(e.error().section, "bones");
  EXPECT_EQ(e.error().record, 0);
}

TEST(PmdTexture, SplitsSphereMaps) {
  auto a = texture_parts("tex.bmp*sph.spa");
  EXPECT_EQ(a.texture, "tex.bmp");
  EXPECT_EQ(a.sphere, "sph.spa");
  EXPECT_EQ(a.sphere_mode, 2);
  auto b = texture_parts("face.SPH");
  EXPECT_EQ(b.texture, "");
  EXPECT_EQ(b.sphere, "face.SPH");
  EXPECT_EQ(b.sphere_mode, 1);
  auto c = texture_parts("body.png");
  EXPECT_EQ(c.texture, "body.png");
  EXPECT_EQ(c.sphere_mode, 0);
}

}  // namespace
}  // namespace mmdkit::pmd
