// mmdkit (private) — the small images that the model generators (pmd::generate_textures,
// pmx::generate_textures) write beside their models: pixel formulas and encoding, in one place.
// 64 × 64, 24-bit RGB, integer formulas (identical for every seed); encoded by stb_image_write
// (Debian libstb), which is deterministic.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit::generated_images {

using Rgb = std::array<std::uint8_t, 3>;
using PixelFn = Rgb (*)(int x, int y);  ///< x, y in [0, kSize), origin top left

inline constexpr int kSize = 64;  ///< width and height in pixels

/// Skin with a faint checker of 8-pixel cells (to see the UVs).
Rgb body_pixel(int x, int y);
/// Lighter skin, two eyes (ellipses 5 × 7 around (20, 26) and (44, 26)) and a mouth.
Rgb face_pixel(int x, int y);
/// Multiply sphere map (.sph): 255 in the middle down to 160 at the rim (radius 32), linear in
/// squared distance, grey.
Rgb sph_pixel(int x, int y);
/// Additive sphere map (.spa): black, with a highlight of radius 28 around (24, 20) fading
/// linearly in squared distance, tinted blue-grey.
Rgb spa_pixel(int x, int y);

enum class ImageFormat { bmp, png };

/// The kSize × kSize image of `pixel` as a whole BMP (24-bit) or PNG file. `name` is only for the
/// message. Errors: io_error when the encoder fails (out of memory).
Result<std::vector<std::uint8_t>> encode(PixelFn pixel, ImageFormat format, const std::string& name);

/// One texture a generated model refers to: its path relative to the model's folder, pixels and
/// encoding.
struct Texture {
  const char* path;
  PixelFn pixel;
  ImageFormat format;
};

/// Every texture of `textures` encoded, in order, as `File{path, bytes}` (pmd::GeneratedFile,
/// pmx::GeneratedFile). Errors: as encode.
template <class File>
Result<std::vector<File>> encode_files(std::span<const Texture> textures) {
  std::vector<File> out;
  for (const Texture& t : textures) {
    auto bytes = encode(t.pixel, t.format, t.path);
    if (!bytes) return std::unexpected(std::move(bytes.error()));
    out.push_back(File{t.path, std::move(*bytes)});
  }
  return out;
}

}  // namespace mmdkit::generated_images
