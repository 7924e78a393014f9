// Image decoding / PNG encoding (core/image.hpp).
#include "mmdkit/core/image.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "formats/generate/generated_images.hpp"

namespace mmdkit {
namespace {

TEST(Image, PngRoundTripKeepsEveryPixel) {
  Image img;
  img.width = 3;
  img.height = 2;
  for (int i = 0; i < 6; ++i)
    for (int c = 0; c < 4; ++c) img.rgba.push_back(static_cast<std::uint8_t>(i * 40 + c * 7));
  auto png = encode_png(img, true);
  ASSERT_TRUE(png);
  EXPECT_EQ(detect_image(*png), ImageContainer::png);
  auto back = decode_image(*png, "x.png");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->width, 3);
  EXPECT_EQ(back->height, 2);
  EXPECT_EQ(back->rgba, img.rgba);
  EXPECT_TRUE(has_transparency(*back));
}

TEST(Image, BmpDecodesToTheGeneratorsPixels) {
  auto bmp = generated_images::encode(generated_images::face_pixel, generated_images::ImageFormat::bmp, "f.bmp");
  ASSERT_TRUE(bmp);
  EXPECT_EQ(detect_image(*bmp), ImageContainer::bmp);
  auto img = decode_image(*bmp, "f.bmp");
  ASSERT_TRUE(img) << img.error().to_string();
  ASSERT_EQ(img->width, generated_images::kSize);
  for (int y : {0, 26, 40, 63})
    for (int x : {0, 20, 44, 63}) {
      const auto want = generated_images::face_pixel(x, y);
      const std::uint8_t* p = img->at(x, y);
      EXPECT_EQ(p[0], want[0]);
      EXPECT_EQ(p[1], want[1]);
      EXPECT_EQ(p[2], want[2]);
      EXPECT_EQ(p[3], 255);
    }
  EXPECT_FALSE(has_transparency(*img));
}

// A DDS header (128 bytes) for `w` × `h`: FourCC `cc` (4 chars) or, when empty, uncompressed
// `bits` bits with masks r, g, b, a (alpha-pixels flag when a != 0).
std::vector<std::uint8_t> dds_header(std::uint32_t w, std::uint32_t h, const char* cc, std::uint32_t bits = 0,
                                     std::array<std::uint32_t, 4> masks = {}) {
  std::vector<std::uint8_t> d(128, 0);
  auto put = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) d[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  std::memcpy(d.data(), "DDS ", 4);
  put(4, 124);
  put(12, h);
  put(16, w);
  put(76, 32);
  if (cc[0] != 0) {
    put(80, 0x4);
    std::memcpy(&d[84], cc, 4);
  } else {
    put(80, 0x40 | (masks[3] ? 0x1 : 0));
    put(88, bits);
    for (std::size_t i = 0; i < 4; ++i) put(92 + 4 * i, masks[i]);
  }
  return d;
}

TEST(Image, DdsDxt1FourAndThreeColourModes) {
  auto d = dds_header(8, 4, "DXT1");
  // Block 0: c0 red (0xF800) > c1 blue (0x001F): 4 colours; pixels 0..3 use indices 0, 1, 2, 3.
  const std::uint8_t b0[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0};
  // Block 1: c0 blue <= c1 red: 3 colours + transparent black; indices 0x23: pixel 0 → 3,
  // pixel 1 → 0, pixel 2 → 2 (the mean), pixel 3 → 0.
  const std::uint8_t b1[8] = {0x1F, 0x00, 0x00, 0xF8, 0x23, 0, 0, 0};
  d.insert(d.end(), b0, b0 + 8);
  d.insert(d.end(), b1, b1 + 8);
  EXPECT_EQ(detect_image(d), ImageContainer::dds);
  auto img = decode_image(d, "t.dds");
  ASSERT_TRUE(img) << img.error().to_string();
  ASSERT_EQ(img->width, 8);
  auto px = [&](int x, int y) { const auto* p = img->at(x, y); return std::vector<int>{p[0], p[1], p[2], p[3]}; };
  EXPECT_EQ(px(0, 0), (std::vector<int>{255, 0, 0, 255}));
  EXPECT_EQ(px(1, 0), (std::vector<int>{0, 0, 255, 255}));
  EXPECT_EQ(px(2, 0), (std::vector<int>{170, 0, 85, 255}));   // (2 red + blue) / 3
  EXPECT_EQ(px(3, 0), (std::vector<int>{85, 0, 170, 255}));   // (red + 2 blue) / 3
  EXPECT_EQ(px(0, 1), (std::vector<int>{255, 0, 0, 255}));    // index 0 everywhere else
  EXPECT_EQ(px(4, 0), (std::vector<int>{0, 0, 0, 0}));        // index 3: transparent
  EXPECT_EQ(px(5, 0), (std::vector<int>{0, 0, 255, 255}));    // index 0: c0 = blue
  EXPECT_EQ(px(6, 0), (std::vector<int>{127, 0, 127, 255}));  // index 2: (blue + red) / 2
  EXPECT_TRUE(has_transparency(*img));
}

TEST(Image, DdsDxt5AlphaAndUncompressedMasks) {
  auto d = dds_header(4, 4, "DXT5");
  // Alpha 255 / 0 (8-value mode): pixel 0 index 0 (255), pixel 1 index 1 (0), pixel 2 index 2
  // ((6·255 + 0) / 7 = 218); colour block all white (c0 = c1 = 0xFFFF).
  // 3-bit indices, pixel i at bits 3i..3i+2: 0 | 1 << 3 | 2 << 6 = 0x88.
  const std::uint8_t blk[16] = {255, 0, 0x88, 0x00, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  d.insert(d.end(), blk, blk + 16);
  auto img = decode_image(d, "a.dds");
  ASSERT_TRUE(img) << img.error().to_string();
  EXPECT_EQ(img->at(0, 0)[3], 255);
  EXPECT_EQ(img->at(1, 0)[3], 0);
  EXPECT_EQ(img->at(2, 0)[3], 218);
  EXPECT_EQ(img->at(2, 0)[0], 255);
  // 32-bit BGRA as D3D writes it: bytes B, G, R, A.
  auto u = dds_header(2, 1, "", 32, {0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000});
  const std::uint8_t pix[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  u.insert(u.end(), pix, pix + 8);
  auto ui = decode_image(u, "u.dds");
  ASSERT_TRUE(ui) << ui.error().to_string();
  EXPECT_EQ((std::vector<int>{ui->at(1, 0)[0], ui->at(1, 0)[1], ui->at(1, 0)[2], ui->at(1, 0)[3]}),
            (std::vector<int>{70, 60, 50, 80}));
  // 16-bit R5G6B5 without alpha: 0xF800 is red.
  auto r = dds_header(1, 1, "", 16, {0xF800, 0x07E0, 0x001F, 0});
  r.push_back(0x00);
  r.push_back(0xF8);
  auto ri = decode_image(r, "r.dds");
  ASSERT_TRUE(ri);
  EXPECT_EQ((std::vector<int>{ri->at(0, 0)[0], ri->at(0, 0)[1], ri->at(0, 0)[3]}), (std::vector<int>{255, 0, 255}));
}

TEST(Image, GarbageAndDdsAreClearErrors) {
  const std::vector<std::uint8_t> junk{1, 2, 3, 4, 5};
  auto r = decode_image(junk, "junk.png");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_value);
  EXPECT_NE(r.error().message.find("junk.png"), std::string::npos);
  auto dx10 = dds_header(4, 4, "DX10");
  dx10.resize(128 + 64);
  auto d = decode_image(dx10, "t.dds");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::unsupported);
  EXPECT_NE(d.error().message.find("DX10"), std::string::npos);
  auto cut = dds_header(8, 8, "DXT1");
  cut.resize(128 + 8);  // 4 blocks needed, 1 given
  auto c = decode_image(cut, "cut.dds");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::invalid_value);
  EXPECT_NE(c.error().message.find("cut.dds"), std::string::npos);
  auto huge = dds_header(1u << 20, 1u << 20, "DXT1");
  EXPECT_EQ(decode_image(huge, "huge.dds").error().code, ErrorCode::limit_exceeded);
}

}  // namespace
}  // namespace mmdkit
