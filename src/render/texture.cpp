// mmdkit — texture decoding (core/image.hpp) and the generated toon ramps (texture.hpp).
#include "mmdkit/render/texture.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

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
  // MMD's shared toon01..toon10.bmp as measured (docs/RENDER.md "Toon ramps"): 32 x 32, the colour
  // of each row in the first column (the column the shader samples: u = 0) given at key rows,
  // linear between keys, constant before the first and after the last. Every row of MMD's files
  // is a key or lies on the line between its keys, so the first column is MMD's to the unit.
  struct Key {
    int row;
    std::uint8_t r, g, b;
  };
  static constexpr Key kWhite{0, 255, 255, 255};
  static const std::array<std::vector<Key>, 10> kToons{{
      {kWhite, {15, 255, 255, 255}, {16, 205, 205, 205}},  // toon01: grey
      {kWhite, {15, 255, 255, 255}, {16, 245, 225, 225}},  // toon02: pale pink
      {kWhite, {15, 255, 255, 255}, {16, 154, 154, 154}},  // toon03: dark grey
      {kWhite, {15, 255, 255, 255}, {16, 248, 239, 235}},  // toon04: very pale skin
      // toon05: white, then a soft ramp over rows 18..26 into a skin shade.
      {kWhite, {18, 255, 255, 255}, {19, 255, 254, 254}, {20, 255, 250, 248}, {21, 255, 246, 242},
       {22, 255, 240, 234}, {23, 255, 236, 229}, {24, 255, 233, 224}, {25, 255, 231, 222}, {26, 255, 231, 221},
       {29, 255, 231, 221}, {30, 255, 231, 222}, {31, 254, 232, 223}},
      // toon06: yellow with a highlight band (rows 8..11), ramping into ochre over rows 21..26.
      {{0, 255, 237, 97}, {7, 255, 237, 97}, {8, 255, 238, 106}, {9, 255, 246, 175}, {10, 255, 254, 242},
       {11, 255, 242, 138}, {12, 255, 237, 97}, {21, 255, 237, 97}, {22, 254, 235, 94}, {23, 238, 218, 69},
       {24, 209, 187, 24}, {25, 197, 174, 6}, {26, 195, 172, 3}},
      {kWhite},  // toon07..toon10: white (no shading)
      {kWhite},
      {kWhite},
      {kWhite},
  }};
  constexpr int kSize = 32;
  Image img;
  img.width = img.height = kSize;
  img.rgba.assign(kSize * kSize * 4, 255);
  if (index < 0 || index > 9) return img;
  const std::vector<Key>& keys = kToons[static_cast<std::size_t>(index)];
  for (int y = 0; y < kSize; ++y) {
    std::array<int, 3> c{keys.back().r, keys.back().g, keys.back().b};
    if (y <= keys.front().row) {
      c = {keys.front().r, keys.front().g, keys.front().b};
    } else {
      for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
        const Key& a = keys[k];
        const Key& e = keys[k + 1];
        if (y < a.row || y > e.row) continue;
        const int span = e.row - a.row, t = y - a.row;  // exact when y is a key row
        c = {(a.r * (span - t) + e.r * t + span / 2) / span, (a.g * (span - t) + e.g * t + span / 2) / span,
             (a.b * (span - t) + e.b * t + span / 2) / span};
        break;
      }
    }
    for (int x = 0; x < kSize; ++x)
      for (int ch = 0; ch < 3; ++ch)
        img.rgba[static_cast<std::size_t>((y * kSize + x) * 4 + ch)] = static_cast<std::uint8_t>(c[static_cast<std::size_t>(ch)]);
  }
  return img;
}

}  // namespace mmdkit::render
