// VMD interpolation blocks: bone (64 bytes, 4 shifted rows) and camera (24 bytes, 6 × x1 x2 y1 y2).
// Layout checked on the corpus; see docs/formats/NOTES.md "Bone interpolation block" and docs/formats/vmd.md.
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {

BoneInterpolation decode_bone_interpolation(const std::array<std::uint8_t, 64>& raw) noexcept {
  // Curve c comes from row c: row c is row 0 shifted left by c, so its bytes 16c + {0, 4, 8, 12}
  // are row 0's bytes c + {0, 4, 8, 12} = (x1, y1, x2, y2) of curve c. Reading it from row c (not
  // row 0) avoids bytes 2 and 3, which newer MMD uses for the physics toggle.
  auto curve = [&](int c) {
    const std::size_t base = static_cast<std::size_t>(16 * c);
    return Curve{raw[base], raw[base + 4], raw[base + 8], raw[base + 12]};
  };
  BoneInterpolation b;
  b.x = curve(0);
  b.y = curve(1);
  b.z = curve(2);
  b.rotation = curve(3);
  b.toggle_bytes = {raw[2], raw[3]};
  return b;
}

std::array<std::uint8_t, 64> encode_bone_interpolation(const Curve& x, const Curve& y, const Curve& z,
                                                       const Curve& rotation, bool physics_off) noexcept {
  const Curve* c[4] = {&x, &y, &z, &rotation};
  std::array<std::uint8_t, 16> row0{};
  for (int i = 0; i < 4; ++i) {
    row0[static_cast<std::size_t>(i)] = c[i]->x1;
    row0[static_cast<std::size_t>(4 + i)] = c[i]->y1;
    row0[static_cast<std::size_t>(8 + i)] = c[i]->x2;
    row0[static_cast<std::size_t>(12 + i)] = c[i]->y2;
  }
  // Rows 1..3 are row 0 shifted left by 1..3 bytes; the bytes shifted in are 01 00 00 (MMD).
  static constexpr std::uint8_t pad[3] = {1, 0, 0};
  std::array<std::uint8_t, 64> out{};
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t i = 0; i < 16; ++i) {
      std::size_t src = i + r;
      out[16 * r + i] = src < 16 ? row0[src] : pad[src - 16];
    }
  }
  if (physics_off) {
    out[2] = 0x63;
    out[3] = 0x0F;
  }
  return out;
}

CameraInterpolation decode_camera_interpolation(const std::array<std::uint8_t, 24>& raw) noexcept {
  auto curve = [&](std::size_t i) { return Curve{raw[4 * i], raw[4 * i + 2], raw[4 * i + 1], raw[4 * i + 3]}; };
  return CameraInterpolation{curve(0), curve(1), curve(2), curve(3), curve(4), curve(5)};
}

std::array<std::uint8_t, 24> encode_camera_interpolation(const CameraInterpolation& c) noexcept {
  const Curve* cs[6] = {&c.x, &c.y, &c.z, &c.rotation, &c.distance, &c.view_angle};
  std::array<std::uint8_t, 24> out{};
  for (std::size_t i = 0; i < 6; ++i) {
    out[4 * i] = cs[i]->x1;
    out[4 * i + 1] = cs[i]->x2;
    out[4 * i + 2] = cs[i]->y1;
    out[4 * i + 3] = cs[i]->y2;
  }
  return out;
}

}  // namespace mmdkit::vmd
