// mmdkit — 8-bit RGBA images: decoding the texture files MMD models use and PNG encoding.
//
// Decoding covers what MMD loads (D3DX on Windows): PNG, JPEG, BMP (also as the content of .sph /
// .spa sphere maps), TGA, GIF (first frame) through stb_image (Debian libstb), and DDS (uncompressed
// with channel masks, DXT1 / DXT3 / DXT5, top mip level; our own decoder), chosen by content,
// never by the file extension (MMD models often carry BMPs named .png and the reverse).
// Shared by every layer that needs pixels (glTF export embeds textures as PNG; rendering).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit {

/// Pixels row by row from the top-left corner, 4 bytes each (R, G, B, A; 0..255, as stored).
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  ///< width × height × 4 bytes

  /// Pixel (x, y) from the top-left corner; x < width, y < height.
  const std::uint8_t* at(int x, int y) const noexcept {
    return rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
  }
};

/// Container of an image file, from its first bytes.
enum class ImageContainer : std::uint8_t { unknown, png, jpeg, bmp, gif, dds, tga };

/// The container by signature (PNG, JPEG, BMP "BM", GIF, DDS "DDS "); `tga` when none matches and
/// the 18-byte TGA header is plausible (TGA has no signature); `unknown` otherwise.
ImageContainer detect_image(std::span<const std::uint8_t> bytes) noexcept;

/// Decodes a PNG / JPEG / BMP / TGA / GIF / DDS file into RGBA. Errors: invalid_value with the
/// decoder's reason and `name` (only for messages); unsupported for DDS compressions other than
/// DXT1/3/5 (DX10 header, BC4 and later); limit_exceeded for an image of more than 2^26 pixels
/// (refused before decoding, from the header).
Result<Image> decode_image(std::span<const std::uint8_t> bytes, std::string_view name);

/// True when some pixel has alpha < 255.
bool has_transparency(const Image& image) noexcept;

/// The image as a PNG file (stb_image_write, deterministic): RGBA, or RGB when `alpha` is false.
/// Errors: invalid_argument for an empty or inconsistent image, io_error when encoding fails.
Result<std::vector<std::uint8_t>> encode_png(const Image& image, bool alpha = true);

}  // namespace mmdkit
