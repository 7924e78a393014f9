// Texture decoding by content: DDS (uncompressed with masks, BC1, BC3), 32-bit BMP with zero
// alpha (opaque, as MMD shows it), errors that name the problem.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mmdkit/render/texture.hpp"

namespace mmdkit::render {
namespace {

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + std::size_t(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

// DDS header for w × h: FourCC `fourcc` (compressed) or, when empty, RGB(A) with masks.
std::vector<std::uint8_t> dds_header(std::uint32_t w, std::uint32_t h, const char* fourcc, std::uint32_t bits = 0,
                                     std::array<std::uint32_t, 4> masks = {}) {
  std::vector<std::uint8_t> b(128, 0);
  std::memcpy(b.data(), "DDS ", 4);
  put32(b, 4, 124);
  put32(b, 12, h);
  put32(b, 16, w);
  put32(b, 76, 32);
  if (fourcc) {
    put32(b, 80, 0x4);
    std::memcpy(&b[84], fourcc, 4);
  } else {
    put32(b, 80, 0x40 | (masks[3] ? 0x1 : 0));
    put32(b, 88, bits);
    for (int i = 0; i < 4; ++i) put32(b, 92 + std::size_t(i) * 4, masks[std::size_t(i)]);
  }
  return b;
}

std::array<int, 4> px(const Image& img, int x, int y) {
  const std::uint8_t* p = img.at(x, y);
  return {p[0], p[1], p[2], p[3]};
}

TEST(Texture, DdsUncompressedWithMasks) {
  // 2 × 1, B8G8R8A8 in memory (masks R 0x00ff0000, G 0x0000ff00, B 0x000000ff, A 0xff000000).
  auto b = dds_header(2, 1, nullptr, 32, {0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000});
  for (std::uint8_t v : {10, 20, 30, 40, 50, 60, 70, 80}) b.push_back(v);  // B G R A, B G R A
  auto img = decode_texture(b, "a.dds");
  ASSERT_TRUE(img) << img.error().to_string();
  EXPECT_EQ(px(*img, 0, 0), (std::array<int, 4>{30, 20, 10, 40}));
  EXPECT_EQ(px(*img, 1, 0), (std::array<int, 4>{70, 60, 50, 80}));
}

TEST(Texture, DdsBc1And3) {
  // BC1: colour 0 = pure red (0xF800), colour 1 = pure blue (0x001F); c0 > c1 → 4-colour mode:
  // index 0 red, 1 blue, 2 = (2·red + blue)/3, 3 = (red + 2·blue)/3. Row 0 indices 0 1 2 3.
  auto b = dds_header(4, 4, "DXT1");
  for (std::uint8_t v : {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x00, 0x00, 0x00}) b.push_back(v);
  auto img = decode_texture(b, "a.dds");
  ASSERT_TRUE(img) << img.error().to_string();
  EXPECT_EQ(px(*img, 0, 0), (std::array<int, 4>{255, 0, 0, 255}));
  EXPECT_EQ(px(*img, 1, 0), (std::array<int, 4>{0, 0, 255, 255}));
  EXPECT_EQ(px(*img, 2, 0), (std::array<int, 4>{170, 0, 85, 255}));
  EXPECT_EQ(px(*img, 3, 0), (std::array<int, 4>{85, 0, 170, 255}));
  EXPECT_EQ(px(*img, 0, 1), (std::array<int, 4>{255, 0, 0, 255}));  // index 0 everywhere else
  // BC3: alpha endpoints 255, 0 (8-alpha mode), pixel 0 index 0 (255), pixel 1 index 1 (0),
  // pixel 2 index 2 = (6·255 + 1·0)/7 = 218; colour block as above.
  auto c = dds_header(4, 4, "DXT5");
  // Index bits: 0 | 1 << 3 | 2 << 6 = 0x88.
  for (std::uint8_t v : {255, 0, 0x88, 0, 0, 0, 0, 0}) c.push_back(v);
  for (std::uint8_t v : {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x00, 0x00, 0x00}) c.push_back(v);
  img = decode_texture(c, "b.dds");
  ASSERT_TRUE(img) << img.error().to_string();
  EXPECT_EQ(px(*img, 0, 0)[3], 255);
  EXPECT_EQ(px(*img, 1, 0)[3], 0);
  EXPECT_EQ(px(*img, 2, 0)[3], 218);
}

TEST(Texture, DdsErrorsNameTheProblem) {
  auto b = dds_header(4, 4, "DXT1");
  b.resize(130);
  auto r = decode_texture(b, "t.dds");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("truncated"), std::string::npos);
  auto c = dds_header(4, 4, "ATI2");
  c.resize(c.size() + 16);
  r = decode_texture(c, "u.dds");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'ATI2' is not supported"), std::string::npos);
  EXPECT_NE(r.error().message.find("u.dds"), std::string::npos);
  const std::vector<std::uint8_t> junk{'n', 'o', 't', ' ', 'a', 'n', ' ', 'i', 'm', 'a', 'g', 'e'};
  r = decode_texture(junk, "x.sph");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("x.sph"), std::string::npos);
}

TEST(Texture, Bmp32WithZeroAlphaIsOpaque) {
  // 1 × 1 32-bit BMP (BITMAPINFOHEADER, BI_RGB), pixel B G R A = 10 20 30 0.
  std::vector<std::uint8_t> b(58, 0);
  b[0] = 'B';
  b[1] = 'M';
  put32(b, 2, 58);
  put32(b, 10, 54);
  put32(b, 14, 40);
  put32(b, 18, 1);
  put32(b, 22, 1);
  b[26] = 1;
  b[28] = 32;
  b[54] = 10;
  b[55] = 20;
  b[56] = 30;
  b[57] = 0;
  auto img = decode_texture(b, "a.spa");  // content-sniffed: the name says nothing
  ASSERT_TRUE(img) << img.error().to_string();
  EXPECT_EQ(px(*img, 0, 0), (std::array<int, 4>{30, 20, 10, 255}));
}

TEST(Texture, GeneratedToonsAreWhiteOnTopAndTheirShadeBelow) {
  for (int i = 0; i < 10; ++i) {
    const Image t = generated_toon(i);
    ASSERT_EQ(t.width, 32);
    EXPECT_EQ(px(t, 5, 0), (std::array<int, 4>{255, 255, 255, 255})) << i;
    EXPECT_EQ(px(t, 5, 13), (std::array<int, 4>{255, 255, 255, 255})) << i;
    EXPECT_LT(px(t, 5, 31)[0] + px(t, 5, 31)[1] + px(t, 5, 31)[2], 3 * 255) << i;
    for (int y = 1; y < 32; ++y) EXPECT_LE(px(t, 0, y)[1], px(t, 0, y - 1)[1]) << i << " row " << y;  // monotone
  }
  EXPECT_EQ(px(generated_toon(10), 0, 31), (std::array<int, 4>{255, 255, 255, 255}));
}

}  // namespace
}  // namespace mmdkit::render
