// mmdkit — image decoding and PNG encoding (core/image.hpp) through stb_image / stb_image_write.
#include "mmdkit/core/image.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cstring>
#include <limits>
#include <memory>

#include "core/image_dds.hpp"

namespace mmdkit {

namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 26;

bool starts(std::span<const std::uint8_t> b, std::string_view sig) noexcept {
  return b.size() >= sig.size() && std::memcmp(b.data(), sig.data(), sig.size()) == 0;
}

// stb_image_write's output callback (C code calls it: no exception may leave it).
void sink(void* context, void* data, int size) noexcept {
  auto* out = static_cast<std::vector<std::uint8_t>*>(context);
  try {
    const auto* p = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), p, p + size);
  } catch (...) {
    out->clear();
    out->shrink_to_fit();
  }
}

}  // namespace

ImageContainer detect_image(std::span<const std::uint8_t> b) noexcept {
  if (starts(b, "\x89PNG\r\n\x1a\n")) return ImageContainer::png;
  if (starts(b, "\xff\xd8\xff")) return ImageContainer::jpeg;
  if (starts(b, "BM")) return ImageContainer::bmp;
  if (starts(b, "GIF8")) return ImageContainer::gif;
  if (starts(b, "DDS ")) return ImageContainer::dds;
  // TGA: colour map type 0/1, image type 1-3 or 9-11, pixel depth 8/15/16/24/32.
  if (b.size() >= 18 && b[1] <= 1) {
    const std::uint8_t type = b[2];
    const std::uint8_t depth = b[16];
    const bool type_ok = (type >= 1 && type <= 3) || (type >= 9 && type <= 11);
    const bool depth_ok = depth == 8 || depth == 15 || depth == 16 || depth == 24 || depth == 32;
    if (type_ok && depth_ok) return ImageContainer::tga;
  }
  return ImageContainer::unknown;
}

Result<Image> decode_image(std::span<const std::uint8_t> bytes, std::string_view name) {
  const std::string n(name);
  if (detect_image(bytes) == ImageContainer::dds) return decode_dds(bytes, name);
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    return make_error(ErrorCode::limit_exceeded, "'" + n + "': image file larger than 2 GiB");
  const int len = static_cast<int>(bytes.size());
  int w = 0, h = 0, comp = 0;
  if (stbi_info_from_memory(bytes.data(), len, &w, &h, &comp) == 0)
    return make_error(ErrorCode::invalid_value,
                      "'" + n + "': not a decodable image (" + std::string(stbi_failure_reason()) + ")");
  if (w <= 0 || h <= 0 || static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) > kMaxPixels)
    return make_error(ErrorCode::limit_exceeded, "'" + n + "': image of " + std::to_string(w) + " x " +
                                                     std::to_string(h) + " pixels (limit 2^26 pixels)");
  std::unique_ptr<stbi_uc, void (*)(void*)> px(stbi_load_from_memory(bytes.data(), len, &w, &h, &comp, 4),
                                               stbi_image_free);
  if (!px)
    return make_error(ErrorCode::invalid_value,
                      "'" + n + "': image could not be decoded (" + std::string(stbi_failure_reason()) + ")");
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(px.get(), px.get() + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  return img;
}

bool has_transparency(const Image& image) noexcept {
  for (std::size_t i = 3; i < image.rgba.size(); i += 4)
    if (image.rgba[i] != 255) return true;
  return false;
}

Result<std::vector<std::uint8_t>> encode_png(const Image& image, bool alpha) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4)
    return make_error(ErrorCode::invalid_argument, "encode_png: empty image or pixel count not width x height x 4");
  std::vector<std::uint8_t> out;
  int ok = 0;
  if (alpha) {
    ok = stbi_write_png_to_func(sink, &out, image.width, image.height, 4, image.rgba.data(), image.width * 4);
  } else {
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
    for (std::size_t i = 0, j = 0; i < image.rgba.size(); i += 4, j += 3) std::memcpy(&rgb[j], &image.rgba[i], 3);
    ok = stbi_write_png_to_func(sink, &out, image.width, image.height, 3, rgb.data(), image.width * 3);
  }
  if (ok == 0 || out.empty()) return make_error(ErrorCode::io_error, "stb_image_write could not encode the PNG");
  return out;
}

}  // namespace mmdkit
