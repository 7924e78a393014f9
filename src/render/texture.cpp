// mmdkit — texture decoding (core/image.hpp) and the generated toon ramps (texture.hpp).
#include "mmdkit/render/texture.hpp"

#include <algorithm>
#include <array>

namespace mmdkit::render {
namespace {

constexpr int kMaxSide = 16384;

}  // namespace

Result<Image> decode_texture(std::span<const std::uint8_t> bytes, const std::string& name) {
  auto img = mmdkit::decode_image(bytes, name);
  if (img && (img->width > kMaxSide || img->height > kMaxSide))
    return make_error(ErrorCode::limit_exceeded, name + ": image larger than 16384 pixels per side");
  return img;
}

Image generated_toon(int index) {
  // Shadow (bottom) colours standing in for MMD's toon01..toon10 (docs/RENDER.md "Toon ramps").
  static constexpr std::array<std::array<int, 3>, 10> kShadow{{
      {205, 205, 205},  // toon01: neutral grey
      {240, 210, 200},  // toon02: warm skin shade
      {180, 180, 180},  // toon03: darker grey
      {235, 220, 190},  // toon04: warm yellow
      {205, 215, 235},  // toon05: cool blue
      {220, 200, 215},  // toon06: violet
      {195, 220, 200},  // toon07: green
      {240, 200, 170},  // toon08: orange skin
      {225, 225, 225},  // toon09: light grey
      {250, 235, 235},  // toon10: very light pink
  }};
  constexpr int kSize = 32;
  Image img;
  img.width = img.height = kSize;
  img.rgba.assign(kSize * kSize * 4, 255);
  if (index < 0 || index > 9) return img;
  const auto& s = kShadow[static_cast<std::size_t>(index)];
  for (int y = 0; y < kSize; ++y) {
    // 0 above row 14, 1 from row 18, linear between.
    const int t = std::clamp(y - 14, 0, 4);
    for (int x = 0; x < kSize; ++x)
      for (int c = 0; c < 3; ++c)
        img.rgba[static_cast<std::size_t>((y * kSize + x) * 4 + c)] =
            static_cast<std::uint8_t>((255 * (4 - t) + s[static_cast<std::size_t>(c)] * t) / 4);
  }
  return img;
}

}  // namespace mmdkit::render
