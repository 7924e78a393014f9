#include "formats/generate/generated_images.hpp"

#include <stb_image_write.h>

#include <algorithm>

namespace mmdkit::generated_images {
namespace {

constexpr std::uint8_t u8(int v) { return static_cast<std::uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

struct Sink {
  std::vector<std::uint8_t> bytes;
  bool failed = false;
};

// stb_image_write's output callback (C code calls it: no exception may leave it).
void sink(void* context, void* data, int size) {
  auto* s = static_cast<Sink*>(context);
  try {
    const auto* p = static_cast<const std::uint8_t*>(data);
    s->bytes.insert(s->bytes.end(), p, p + size);
  } catch (...) {
    s->failed = true;
  }
}

}  // namespace

Rgb body_pixel(int x, int y) { return ((x / 8) + (y / 8)) % 2 ? Rgb{236, 203, 184} : Rgb{246, 214, 196}; }

Rgb face_pixel(int x, int y) {
  auto eye = [](int dx, int dy) { return dx * dx * 49 + dy * dy * 25 <= 25 * 49; };
  if (eye(x - 20, y - 26) || eye(x - 44, y - 26)) return {58, 40, 48};
  if (y >= 44 && y <= 46 && x >= 26 && x <= 38) return {196, 96, 104};
  return {250, 226, 212};
}

Rgb sph_pixel(int x, int y) {
  const int dx = 2 * x - 63, dy = 2 * y - 63, d2 = std::min(dx * dx + dy * dy, 64 * 64);
  const auto v = static_cast<std::uint8_t>(255 - d2 * 95 / (64 * 64));
  return {v, v, v};
}

Rgb spa_pixel(int x, int y) {
  const int dx = x - 24, dy = y - 20, d2 = dx * dx + dy * dy, r2 = 28 * 28;
  const int i = d2 >= r2 ? 0 : 255 - d2 * 255 / r2;
  return {u8(i * 3 / 5), u8(i * 7 / 10), u8(i * 4 / 5)};
}

Result<std::vector<std::uint8_t>> encode(PixelFn pixel, ImageFormat format, const std::string& name) {
  std::vector<std::uint8_t> rgb;
  rgb.reserve(kSize * kSize * 3);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const Rgb c = pixel(x, y);
      rgb.insert(rgb.end(), c.begin(), c.end());
    }
  Sink s;
  const int ok = format == ImageFormat::png
                     ? stbi_write_png_to_func(sink, &s, kSize, kSize, 3, rgb.data(), kSize * 3)
                     : stbi_write_bmp_to_func(sink, &s, kSize, kSize, 3, rgb.data());
  if (!ok || s.failed)
    return make_error(ErrorCode::io_error, "stb_image_write could not encode the generated texture '" + name + "'");
  return std::move(s.bytes);
}

}  // namespace mmdkit::generated_images
