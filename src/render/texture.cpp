// mmdkit — texture decoding (stb_image + DDS) and the generated toon ramps (texture.hpp).
#include "mmdkit/render/texture.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace mmdkit::render {
namespace {

constexpr int kMaxSide = 16384;

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

// Value of a channel given its bit mask, scaled to 0..255 (mask 0 = `missing`).
std::uint8_t channel(std::uint32_t pixel, std::uint32_t mask, std::uint8_t missing) {
  if (mask == 0) return missing;
  const int shift = std::countr_zero(mask);
  const std::uint32_t max = mask >> shift;
  const std::uint32_t v = (pixel & mask) >> shift;
  return static_cast<std::uint8_t>((v * 255 + max / 2) / max);
}

std::array<std::uint8_t, 4> rgb565(std::uint16_t c) {
  const int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  return {static_cast<std::uint8_t>((r * 255 + 15) / 31), static_cast<std::uint8_t>((g * 255 + 31) / 63),
          static_cast<std::uint8_t>((b * 255 + 15) / 31), 255};
}

// One BC1 colour block (8 bytes) into 16 RGBA pixels; `bc1_alpha`: 3-colour mode gives transparent black.
void decode_bc1_colors(const std::uint8_t* b, bool bc1_alpha, std::array<std::array<std::uint8_t, 4>, 16>& out) {
  const std::uint16_t c0 = static_cast<std::uint16_t>(b[0] | b[1] << 8), c1 = static_cast<std::uint16_t>(b[2] | b[3] << 8);
  std::array<std::array<std::uint8_t, 4>, 4> pal{rgb565(c0), rgb565(c1), {}, {}};
  auto mix = [&](int a, int bw, int div) {
    std::array<std::uint8_t, 4> r{};
    for (int k = 0; k < 3; ++k) r[k] = static_cast<std::uint8_t>((pal[0][k] * a + pal[1][k] * bw) / div);
    r[3] = 255;
    return r;
  };
  if (c0 > c1 || !bc1_alpha) {
    pal[2] = mix(2, 1, 3);
    pal[3] = mix(1, 2, 3);
  } else {
    pal[2] = mix(1, 1, 2);
    pal[3] = {0, 0, 0, 0};
  }
  const std::uint32_t idx = le32(b + 4);
  for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(i)] = pal[(idx >> (2 * i)) & 3];
}

Result<Image> decode_dds(std::span<const std::uint8_t> d, const std::string& name) {
  auto bad = [&](const std::string& why) { return make_error(ErrorCode::invalid_value, name + ": DDS: " + why); };
  if (d.size() < 128) return bad("header needs 128 bytes, the file has " + std::to_string(d.size()));
  const std::uint8_t* h = d.data() + 4;
  const std::uint32_t height = le32(h + 8), width = le32(h + 12);
  const std::uint8_t* pf = h + 72;
  const std::uint32_t pf_flags = le32(pf + 4), fourcc = le32(pf + 8), bits = le32(pf + 12);
  const std::uint32_t rmask = le32(pf + 16), gmask = le32(pf + 20), bmask = le32(pf + 24), amask = le32(pf + 28);
  if (width == 0 || height == 0 || width > kMaxSide || height > kMaxSide)
    return make_error(ErrorCode::limit_exceeded, name + ": DDS size " + std::to_string(width) + "x" +
                                                     std::to_string(height) + " outside 1..16384");
  Image img;
  img.width = static_cast<int>(width);
  img.height = static_cast<int>(height);
  img.rgba.assign(std::size_t(width) * height * 4, 0);
  std::size_t off = 128;
  if (pf_flags & 0x4) {  // DDPF_FOURCC
    char cc[5] = {static_cast<char>(fourcc & 255), static_cast<char>(fourcc >> 8 & 255),
                  static_cast<char>(fourcc >> 16 & 255), static_cast<char>(fourcc >> 24), 0};
    const std::string code(cc);
    int kind = code == "DXT1" ? 1 : (code == "DXT2" || code == "DXT3") ? 2 : (code == "DXT4" || code == "DXT5") ? 3 : 0;
    if (!kind) return bad("compressed format '" + code + "' is not supported (BC1-BC3 = DXT1/3/5 are)");
    const std::size_t bw = (width + 3) / 4, bh = (height + 3) / 4, bsize = kind == 1 ? 8 : 16;
    if (d.size() - off < bw * bh * bsize)
      return bad("truncated: " + code + " data needs " + std::to_string(bw * bh * bsize) + " bytes, " +
                 std::to_string(d.size() - off) + " left");
    std::array<std::array<std::uint8_t, 4>, 16> px{};
    for (std::size_t by = 0; by < bh; ++by)
      for (std::size_t bx = 0; bx < bw; ++bx) {
        const std::uint8_t* b = d.data() + off + (by * bw + bx) * bsize;
        decode_bc1_colors(kind == 1 ? b : b + 8, kind == 1, px);
        if (kind == 2) {
          for (int i = 0; i < 16; ++i) {
            const int a4 = (b[i / 2] >> (4 * (i & 1))) & 15;
            px[static_cast<std::size_t>(i)][3] = static_cast<std::uint8_t>(a4 * 17);
          }
        } else if (kind == 3) {
          const int a0 = b[0], a1 = b[1];
          std::uint64_t bitsa = 0;
          for (int k = 0; k < 6; ++k) bitsa |= std::uint64_t(b[2 + k]) << (8 * k);
          for (int i = 0; i < 16; ++i) {
            const int code3 = static_cast<int>((bitsa >> (3 * i)) & 7);
            int a = 0;
            if (code3 == 0) a = a0;
            else if (code3 == 1) a = a1;
            else if (a0 > a1) a = ((8 - code3) * a0 + (code3 - 1) * a1) / 7;
            else if (code3 == 6) a = 0;
            else if (code3 == 7) a = 255;
            else a = ((6 - code3) * a0 + (code3 - 1) * a1) / 5;
            px[static_cast<std::size_t>(i)][3] = static_cast<std::uint8_t>(a);
          }
        }
        for (int i = 0; i < 16; ++i) {
          const std::size_t x = bx * 4 + std::size_t(i % 4), y = by * 4 + std::size_t(i / 4);
          if (x < width && y < height) std::memcpy(&img.rgba[(y * width + x) * 4], px[static_cast<std::size_t>(i)].data(), 4);
        }
      }
    return img;
  }
  if (!(pf_flags & 0x40) || (bits != 32 && bits != 24))  // DDPF_RGB
    return bad("pixel format (flags 0x" + std::to_string(pf_flags) + ", " + std::to_string(bits) +
               " bits) is not supported (uncompressed 24/32-bit RGB(A) and DXT1/3/5 are)");
  const std::size_t bpp = bits / 8, pitch = std::size_t(width) * bpp;
  if (d.size() - off < pitch * height)
    return bad("truncated: pixel data needs " + std::to_string(pitch * height) + " bytes, " +
               std::to_string(d.size() - off) + " left");
  const bool has_alpha = (pf_flags & 0x1) && amask;
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x) {
      const std::uint8_t* p = d.data() + off + y * pitch + x * bpp;
      const std::uint32_t v = bpp == 4 ? le32(p) : (std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16);
      std::uint8_t* o = &img.rgba[(y * width + x) * 4];
      o[0] = channel(v, rmask, 0);
      o[1] = channel(v, gmask, 0);
      o[2] = channel(v, bmask, 0);
      o[3] = has_alpha ? channel(v, amask, 255) : 255;
    }
  return img;
}

}  // namespace

Result<Image> decode_texture(std::span<const std::uint8_t> bytes, const std::string& name) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "DDS ", 4) == 0) return decode_dds(bytes, name);
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
