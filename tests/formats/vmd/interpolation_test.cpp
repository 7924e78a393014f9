// Interpolation blocks: bone curves read from their own row (bytes 2-3 hold the physics toggle in
// newer MMD), canonical encoding, camera block order x1 x2 y1 y2.
#include <gtest/gtest.h>

#include "mmdkit/formats/vmd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vmd {
namespace {

// Canonical block for all-linear curves, written out by hand from docs/formats/NOTES.md: row 0 is
// X_x1 Y_x1 Z_x1 R_x1 X_y1 .. R_y1 X_x2 .. R_x2 X_y2 .. R_y2; row r is row 0 shifted left by r,
// padded with 01 00 00.
constexpr std::array<std::uint8_t, 64> kLinearBlock = {
    20, 20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107,  //
    20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 1,   //
    20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 1, 0,    //
    20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 1, 0, 0};

// Builds the canonical block of four curves by the rule above (independently of the library).
std::array<std::uint8_t, 64> block_of(const Curve (&c)[4]) {
  std::uint8_t row0[16];
  for (int i = 0; i < 4; ++i) {
    row0[i] = c[i].x1;
    row0[4 + i] = c[i].y1;
    row0[8 + i] = c[i].x2;
    row0[12 + i] = c[i].y2;
  }
  const std::uint8_t pad[3] = {1, 0, 0};
  std::array<std::uint8_t, 64> b{};
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 16; ++i) b[static_cast<std::size_t>(16 * r + i)] = i + r < 16 ? row0[i + r] : pad[i + r - 16];
  return b;
}

TEST(VmdInterpolation, LinearBlockMatchesHandWrittenBytes) {
  EXPECT_EQ(encode_bone_interpolation(kLinearCurve, kLinearCurve, kLinearCurve, kLinearCurve), kLinearBlock);
  BoneInterpolation b = decode_bone_interpolation(kLinearBlock);
  EXPECT_EQ(b.x, kLinearCurve);
  EXPECT_EQ(b.rotation, kLinearCurve);
  EXPECT_FALSE(b.physics_off());
}

TEST(VmdInterpolation, CurvesComeFromTheirOwnRowNotTheToggleBytes) {
  const Curve c[4] = {{1, 2, 3, 4}, {11, 12, 13, 14}, {21, 22, 23, 24}, {31, 32, 33, 34}};
  auto block = block_of(c);
  block[2] = 0x63;  // physics off, as newer MMD writes
  block[3] = 0x0F;
  BoneInterpolation b = decode_bone_interpolation(block);
  EXPECT_EQ(b.x, c[0]);
  EXPECT_EQ(b.y, c[1]);
  EXPECT_EQ(b.z, c[2]);  // x1 = 21 from row 2 (byte 34), not 0x63 from byte 2
  EXPECT_EQ(b.rotation, c[3]);
  EXPECT_TRUE(b.physics_off());
  EXPECT_EQ(encode_bone_interpolation(c[0], c[1], c[2], c[3], true), block);
  block[2] = 0;  // physics on: 00 00
  block[3] = 0;
  b = decode_bone_interpolation(block);
  EXPECT_EQ(b.z, c[2]);
  EXPECT_EQ(b.rotation, c[3]);
  EXPECT_FALSE(b.physics_off());
}

TEST(VmdInterpolation, EncodeDecodeIdentityOnCanonicalBlocks) {
  std::uint32_t s = 12345;
  auto next = [&] {
    s = s * 1103515245u + 12345u;
    return static_cast<std::uint8_t>((s >> 16) % 128);
  };
  for (int n = 0; n < 500; ++n) {
    Curve c[4];
    for (auto& k : c) k = Curve{next(), next(), next(), next()};
    auto block = block_of(c);
    EXPECT_EQ(encode_bone_interpolation(c[0], c[1], c[2], c[3]), block);
    BoneInterpolation b = decode_bone_interpolation(block);
    EXPECT_EQ(encode_bone_interpolation(b.x, b.y, b.z, b.rotation), block);
  }
}

TEST(VmdInterpolation, CameraBlockIsX1X2Y1Y2PerCurve) {
  std::array<std::uint8_t, 24> raw{};
  for (std::size_t i = 0; i < 24; ++i) raw[i] = static_cast<std::uint8_t>(i + 1);
  CameraInterpolation c = decode_camera_interpolation(raw);
  EXPECT_EQ(c.x, (Curve{1, 3, 2, 4}));  // bytes: x1=1, x2=2, y1=3, y2=4
  EXPECT_EQ(c.y, (Curve{5, 7, 6, 8}));
  EXPECT_EQ(c.z, (Curve{9, 11, 10, 12}));
  EXPECT_EQ(c.rotation, (Curve{13, 15, 14, 16}));
  EXPECT_EQ(c.distance, (Curve{17, 19, 18, 20}));
  EXPECT_EQ(c.view_angle, (Curve{21, 23, 22, 24}));
  EXPECT_EQ(encode_camera_interpolation(c), raw);
  // MMD's linear default: 20 107 20 107 six times.
  std::array<std::uint8_t, 24> linear{};
  for (std::size_t i = 0; i < 24; i += 4) {
    linear[i] = 20;
    linear[i + 1] = 107;
    linear[i + 2] = 20;
    linear[i + 3] = 107;
  }
  CameraInterpolation l = decode_camera_interpolation(linear);
  EXPECT_EQ(l.view_angle, kLinearCurve);
  EXPECT_EQ(l.x, kLinearCurve);
}

TEST(VmdInterpolation, CorpusToggleBlocksDecodeFromRows) {
  // Real files: rows 1-3 of each bone block repeat row 0 shifted (the padding is 01 00 00 in
  // older files, 00 00 00 in newer ones). Where bytes 2-3 differ from bytes 32 and 48 (the
  // physics toggle), Z.x1 and R.x1 must come from bytes 32 and 48.
  MMDKIT_REQUIRE_CORPUS();
  std::size_t blocks = 0, toggled = 0;
  for (const auto& f : mmdkit::test::corpus_files("vmd")) {
    auto r = read_file(f.path);
    if (!r) continue;
    for (const BoneKey& k : r->motion.bone_keys) {
      const auto& b = k.interpolation;
      bool shifted = true;
      for (std::size_t row = 1; row < 4; ++row)
        for (std::size_t i = 0; i + row < 16; ++i)
          if (i + row != 2 && i + row != 3) shifted = shifted && b[16 * row + i] == b[i + row];
      if (!shifted) continue;
      ++blocks;
      BoneInterpolation d = decode_bone_interpolation(b);
      EXPECT_EQ(d.x, (Curve{b[0], b[4], b[8], b[12]}));
      EXPECT_EQ(d.y, (Curve{b[1], b[5], b[9], b[13]}));
      EXPECT_EQ(d.z, (Curve{b[32], b[6], b[10], b[14]}));
      EXPECT_EQ(d.rotation, (Curve{b[48], b[7], b[11], b[15]}));
      if (b[2] != b[32] || b[3] != b[48]) ++toggled;
    }
  }
  EXPECT_GT(blocks, 60000u);  // 63,649 bone keys in the corpus
  EXPECT_GT(toggled, 20000u); // 24,860 of them carry toggle bytes (tools/vmd_counts.py-style scan)
}

}  // namespace
}  // namespace mmdkit::vmd
