// Image decoding / PNG encoding (core/image.hpp).
#include "mmdkit/core/image.hpp"

#include <gtest/gtest.h>

#include "core/generated_images.hpp"

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

TEST(Image, GarbageAndDdsAreClearErrors) {
  const std::vector<std::uint8_t> junk{1, 2, 3, 4, 5};
  auto r = decode_image(junk, "junk.png");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_value);
  EXPECT_NE(r.error().message.find("junk.png"), std::string::npos);
  std::vector<std::uint8_t> dds{'D', 'D', 'S', ' '};
  dds.resize(128);
  auto d = decode_image(dds, "t.dds");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::unsupported);
}

}  // namespace
}  // namespace mmdkit
