// Hand-built VMD bytes for tests, assembled field by field from the format notes (independent of
// vmd::write), plus small helpers.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mmdkit::vmd::test {

class VmdBytes {
 public:
  std::vector<std::uint8_t> b;

  VmdBytes& raw(std::string_view s) {
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  VmdBytes& raw(const std::vector<std::uint8_t>& v) {
    b.insert(b.end(), v.begin(), v.end());
    return *this;
  }
  /// `s` then NUL padding up to `size` bytes (s must not be longer).
  VmdBytes& field(std::string_view s, std::size_t size) {
    raw(s);
    b.insert(b.end(), size - s.size(), 0);
    return *this;
  }
  VmdBytes& u8(std::uint8_t v) {
    b.push_back(v);
    return *this;
  }
  VmdBytes& u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return *this;
  }
  VmdBytes& f32(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u32(u);
  }
  /// Header: v2 = "Vocaloid Motion Data 0002" + 20-byte name; v1 = "... file" + 10-byte name.
  VmdBytes& header(bool v2 = true, std::string_view model = "model") {
    field(v2 ? "Vocaloid Motion Data 0002" : "Vocaloid Motion Data file", 30);
    return field(model, v2 ? 20 : 10);
  }
  /// One bone record: name field (15 raw bytes given, or text NUL-padded), frame, position,
  /// rotation, 64 interpolation bytes each equal to `interp`.
  VmdBytes& bone(std::string_view name, std::uint32_t frame, float px = 1, float rw = 1, std::uint8_t interp = 20) {
    field(name, 15).u32(frame).f32(px).f32(2).f32(3).f32(0).f32(0).f32(0).f32(rw);
    b.insert(b.end(), 64, interp);
    return *this;
  }
  VmdBytes& morph(std::string_view name, std::uint32_t frame, float w) { return field(name, 15).u32(frame).f32(w); }
  VmdBytes& camera(std::uint32_t frame) {
    u32(frame).f32(-45).f32(0).f32(10).f32(0).f32(0.5f).f32(0).f32(0);
    for (int i = 0; i < 6; ++i) u8(20).u8(107).u8(20).u8(107);
    return u32(30).u8(0);
  }
  VmdBytes& light(std::uint32_t frame) { return u32(frame).f32(0.6015625f).f32(0.6015625f).f32(0.6015625f).f32(-0.5f).f32(-1).f32(0.5f); }
  VmdBytes& shadow(std::uint32_t frame, std::uint8_t mode) { return u32(frame).u8(mode).f32(0.01125f); }
  /// Property key with IK entries (name, enabled).
  VmdBytes& property(std::uint32_t frame, std::uint8_t visible,
                     const std::vector<std::pair<std::string_view, std::uint8_t>>& ik) {
    u32(frame).u8(visible).u32(static_cast<std::uint32_t>(ik.size()));
    for (auto& [n, e] : ik) field(n, 20).u8(e);
    return *this;
  }
};

/// CP932 bytes of some names used in fixtures (from the Shift-JIS table, not from iconv).
inline const std::string kCenterSjis = "\x83\x5A\x83\x93\x83\x5E\x81\x5B";  // センター
inline const std::string kAUpperSjis = "\x82\xA0";                            // あ
inline const std::string kLeftLegIkSjis = "\x8D\xB6\x91\xAB\x82\x68\x82\x6A";  // 左足ＩＫ

}  // namespace mmdkit::vmd::test
