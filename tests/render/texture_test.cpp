// Texture decoding for the renderer (DDS and the other containers are tested with core/image.hpp):
// a 32-bit BMP with zero alpha (opaque, as MMD shows it) named .spa, errors naming the file, the
// generated toon ramps.
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

std::array<int, 4> px(const Image& img, int x, int y) {
  const std::uint8_t* p = img.at(x, y);
  return {p[0], p[1], p[2], p[3]};
}

TEST(Texture, UnreadableFileIsNamed) {
  const std::vector<std::uint8_t> junk{'n', 'o', 't', ' ', 'a', 'n', ' ', 'i', 'm', 'a', 'g', 'e'};
  auto r = decode_texture(junk, "x.sph");
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
