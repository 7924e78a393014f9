// mmdkit — DDS decoding for core/image.hpp: uncompressed RGB(A) / luminance with channel masks and
// block-compressed DXT1 (BC1), DXT3 (BC2), DXT5 (BC3), top mip level only. Written from
// Microsoft's documentation of the format ("DDS_HEADER", "DDS_PIXELFORMAT",
// "Texture Block Compression in Direct3D 11"); the one file MMD models use besides stb's formats.
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "core/image_dds.hpp"

namespace mmdkit {

namespace {

constexpr std::uint32_t kFourCc = 0x4, kRgb = 0x40, kLuminance = 0x20000, kAlphaPixels = 0x1;
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 26;

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}

using Rgba = std::array<std::uint8_t, 4>;

Rgba rgb565(std::uint32_t c) {
  const std::uint32_t r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {static_cast<std::uint8_t>((r * 255 + 15) / 31), static_cast<std::uint8_t>((g * 255 + 31) / 63),
          static_cast<std::uint8_t>((b * 255 + 15) / 31), 255};
}

Rgba mix(const Rgba& a, const Rgba& b, unsigned wa, unsigned wb) {
  Rgba r{};
  for (int c = 0; c < 3; ++c) {
    const auto uc = static_cast<std::size_t>(c);
    r[uc] = static_cast<std::uint8_t>((a[uc] * wa + b[uc] * wb) / (wa + wb));
  }
  r[3] = 255;
  return r;
}

// The 16 colours of a BC1 colour block; `four` forces the 4-colour mode (BC2 / BC3).
void colour_block(const std::uint8_t* p, bool four, std::array<Rgba, 16>& out) {
  const std::uint32_t c0 = p[0] | (p[1] << 8), c1 = p[2] | (p[3] << 8);
  std::array<Rgba, 4> pal{rgb565(c0), rgb565(c1), {}, {}};
  if (four || c0 > c1) {
    pal[2] = mix(pal[0], pal[1], 2, 1);
    pal[3] = mix(pal[0], pal[1], 1, 2);
  } else {
    pal[2] = mix(pal[0], pal[1], 1, 1);
    pal[3] = {0, 0, 0, 0};
  }
  const std::uint32_t bits = le32(p + 4);
  for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(i)] = pal[(bits >> (2 * i)) & 3];
}

Result<Image> fail(std::string_view name, const std::string& why) {
  return make_error(ErrorCode::invalid_value, "'" + std::string(name) + "': DDS: " + why);
}

}  // namespace

Result<Image> decode_dds(std::span<const std::uint8_t> d, std::string_view name) {
  if (d.size() < 128 || std::memcmp(d.data(), "DDS ", 4) != 0 || le32(&d[4]) != 124 || le32(&d[76]) != 32)
    return fail(name, "header shorter than 128 bytes or with wrong sizes");
  const std::uint32_t height = le32(&d[12]), width = le32(&d[16]);
  const std::uint32_t pf_flags = le32(&d[80]), fourcc = le32(&d[84]), bits = le32(&d[88]);
  if (width == 0 || height == 0) return fail(name, "width or height 0");
  if (std::uint64_t{width} * height > kMaxPixels)
    return make_error(ErrorCode::limit_exceeded, "'" + std::string(name) + "': DDS of " + std::to_string(width) + " x " +
                                                     std::to_string(height) + " pixels (limit 2^26 pixels)");
  Image img;
  img.width = static_cast<int>(width);
  img.height = static_cast<int>(height);
  img.rgba.assign(std::size_t{width} * height * 4, 0);
  const std::span<const std::uint8_t> data = d.subspan(128);
  auto put = [&](std::uint32_t x, std::uint32_t y, const Rgba& c) {
    if (x < width && y < height) std::memcpy(&img.rgba[(std::size_t{y} * width + x) * 4], c.data(), 4);
  };
  if (pf_flags & kFourCc) {
    int kind = 0;
    if (fourcc == le32(reinterpret_cast<const std::uint8_t*>("DXT1"))) kind = 1;
    if (fourcc == le32(reinterpret_cast<const std::uint8_t*>("DXT3"))) kind = 3;
    if (fourcc == le32(reinterpret_cast<const std::uint8_t*>("DXT5"))) kind = 5;
    if (kind == 0) {
      char cc[5] = {static_cast<char>(d[84]), static_cast<char>(d[85]), static_cast<char>(d[86]), static_cast<char>(d[87]), 0};
      return make_error(ErrorCode::unsupported, "'" + std::string(name) + "': DDS compression '" + cc +
                                                    "' is not decoded (DXT1, DXT3, DXT5 and uncompressed are)");
    }
    const std::size_t bw = (width + 3) / 4, bh = (height + 3) / 4, block = kind == 1 ? 8 : 16;
    if (data.size() < bw * bh * block) return fail(name, "pixel data shorter than the image");
    std::array<Rgba, 16> px{};
    for (std::size_t by = 0; by < bh; ++by)
      for (std::size_t bx = 0; bx < bw; ++bx) {
        const std::uint8_t* p = &data[(by * bw + bx) * block];
        colour_block(p + (kind == 1 ? 0 : 8), kind != 1, px);
        if (kind == 3) {
          for (int i = 0; i < 16; ++i) {
            const unsigned a4 = (p[i / 2] >> (4 * (i % 2))) & 15;
            px[static_cast<std::size_t>(i)][3] = static_cast<std::uint8_t>(a4 * 17);
          }
        } else if (kind == 5) {
          const unsigned a0 = p[0], a1 = p[1];
          std::array<unsigned, 8> al{a0, a1, 0, 0, 0, 0, 0, 0};
          if (a0 > a1) {
            for (unsigned i = 1; i < 7; ++i) al[i + 1] = ((7 - i) * a0 + i * a1) / 7;
          } else {
            for (unsigned i = 1; i < 5; ++i) al[i + 1] = ((5 - i) * a0 + i * a1) / 5;
            al[6] = 0;
            al[7] = 255;
          }
          std::uint64_t idx = 0;
          for (int k = 0; k < 6; ++k) idx |= std::uint64_t{p[2 + k]} << (8 * k);
          for (int i = 0; i < 16; ++i) px[static_cast<std::size_t>(i)][3] = static_cast<std::uint8_t>(al[(idx >> (3 * i)) & 7]);
        }
        for (int i = 0; i < 16; ++i)
          put(static_cast<std::uint32_t>(bx * 4 + static_cast<std::size_t>(i % 4)),
              static_cast<std::uint32_t>(by * 4 + static_cast<std::size_t>(i / 4)), px[static_cast<std::size_t>(i)]);
      }
    return img;
  }
  if (!(pf_flags & (kRgb | kLuminance)) || (bits != 8 && bits != 16 && bits != 24 && bits != 32))
    return make_error(ErrorCode::unsupported, "'" + std::string(name) + "': DDS pixel format (flags " +
                                                  std::to_string(pf_flags) + ", " + std::to_string(bits) + " bits) is not decoded");
  const std::size_t bpp = bits / 8;
  if (data.size() < std::size_t{width} * height * bpp) return fail(name, "pixel data shorter than the image");
  std::array<std::uint32_t, 4> mask{le32(&d[92]), le32(&d[96]), le32(&d[100]), (pf_flags & kAlphaPixels) ? le32(&d[104]) : 0};
  auto channel = [](std::uint32_t v, std::uint32_t m) -> std::uint8_t {
    if (m == 0) return 255;
    const int shift = std::countr_zero(m);
    const std::uint32_t max = m >> shift;
    return static_cast<std::uint8_t>((std::uint64_t{(v & m) >> shift} * 255 + max / 2) / max);
  };
  for (std::uint32_t y = 0; y < height; ++y)
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::uint8_t* p = &data[(std::size_t{y} * width + x) * bpp];
      std::uint32_t v = 0;
      for (std::size_t k = 0; k < bpp; ++k) v |= std::uint32_t{p[k]} << (8 * k);
      Rgba c{};
      if (pf_flags & kLuminance) {
        c[0] = c[1] = c[2] = channel(v, mask[0]);
      } else {
        c[0] = channel(v, mask[0]);
        c[1] = channel(v, mask[1]);
        c[2] = channel(v, mask[2]);
      }
      c[3] = mask[3] ? channel(v, mask[3]) : 255;
      put(x, y, c);
    }
  return img;
}

}  // namespace mmdkit
