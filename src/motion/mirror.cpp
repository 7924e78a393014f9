// mmdkit — `mirror` (motion/mirror.hpp).
#include "mmdkit/motion/mirror.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "mmdkit/core/text.hpp"

namespace mmdkit::motion {

namespace {

bool is_separator(char c) { return c == '_' || c == '.' || c == '-' || c == ' '; }

// The wink pairs (UTF-8).
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kWinks{{
    {"ウィンク", "ウィンク右"},
    {"ウィンク２", "ｳｨﾝｸ２右"},
}};

std::string swap_chars(std::string_view s) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kPairs{{
      {"左", "右"}, {"右", "左"}, {"Ｌ", "Ｒ"}, {"Ｒ", "Ｌ"}}};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool done = false;
    for (const auto& [from, to] : kPairs) {
      if (s.substr(i, from.size()) == from) {
        out += to;
        i += from.size();
        done = true;
        break;
      }
    }
    if (done) continue;
    const char c = s[i];
    if ((c == 'L' || c == 'R') && (i == 0 || is_separator(s[i - 1])) && (i + 1 == s.size() || is_separator(s[i + 1]))) {
      out += c == 'L' ? 'R' : 'L';
    } else {
      out += c;
    }
    ++i;
  }
  return out;
}

}  // namespace

std::string mirror_name(std::string_view utf8, bool morph) {
  if (morph) {
    for (const auto& [a, b] : kWinks) {
      if (utf8 == a) return std::string(b);
      if (utf8 == b) return std::string(a);
    }
  }
  std::string s = swap_chars(utf8);
  if (morph)
    for (const auto& [a, b] : kWinks)
      if (s == a || s == b) return std::string(utf8);
  return s;
}

std::vector<std::uint8_t> mirror_name_cp932(ByteSpan raw, bool morph) {
  std::vector<std::uint8_t> out(raw.begin(), raw.end());
  std::size_t end = 0;
  while (end < out.size() && out[end] != 0) ++end;
  if (morph) {
    // Whole-name pairs (their sizes differ): the new name and a NUL are written over the start of
    // the field, the bytes after them are kept.
    const std::string text = decode_text(ByteSpan(out.data(), end), Encoding::cp932);
    for (const auto& [a, b] : kWinks) {
      if (text != a && text != b) continue;
      auto enc = encode_text(text == a ? b : a, Encoding::cp932);
      if (!enc) return out;
      // The bytes of the old name and its NUL are cleared first, so that swapping back gives
      // the same bytes (NUL padding after the name is kept as NUL).
      std::vector<std::uint8_t> r = out;
      if (r.size() < enc->size() + 1) r.resize(enc->size() + 1, 0);
      std::fill(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(std::min(r.size(), end + 1)), 0);
      std::copy(enc->begin(), enc->end(), r.begin());
      r[enc->size()] = 0;
      return r;
    }
    const std::string swapped = swap_chars(text);
    for (const auto& [a, b] : kWinks)
      if (swapped == a || swapped == b) return out;
  }
  auto is_lead = [](std::uint8_t b) { return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC); };
  auto is_sep = [](std::uint8_t b) { return b == '_' || b == '.' || b == '-' || b == ' '; };
  // Positions of characters: start offset of each, to look at neighbours.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < end;) {
    starts.push_back(i);
    i += (is_lead(out[i]) && i + 1 < end) ? 2 : 1;
  }
  for (std::size_t c = 0; c < starts.size(); ++c) {
    const std::size_t i = starts[c];
    const bool two = is_lead(out[i]) && i + 1 < end;
    if (two) {
      const std::uint16_t v = static_cast<std::uint16_t>(out[i] << 8 | out[i + 1]);
      std::uint16_t w = v;
      if (v == 0x8DB6) w = 0x8945;       // 左 → 右
      else if (v == 0x8945) w = 0x8DB6;  // 右 → 左
      else if (v == 0x826B) w = 0x8271;  // Ｌ → Ｒ
      else if (v == 0x8271) w = 0x826B;  // Ｒ → Ｌ
      out[i] = static_cast<std::uint8_t>(w >> 8);
      out[i + 1] = static_cast<std::uint8_t>(w & 0xFF);
      continue;
    }
    if (out[i] != 'L' && out[i] != 'R') continue;
    const bool before = c == 0 || (starts[c - 1] + 1 == i && is_sep(out[starts[c - 1]]));
    const bool after = c + 1 == starts.size() || (starts[c + 1] == i + 1 && is_sep(out[i + 1]) && !(is_lead(out[i + 1])));
    if (before && after) out[i] = out[i] == 'L' ? 'R' : 'L';
  }
  return out;
}

namespace {

template <std::size_t N>
Result<void> mirror_fixed(vmd::FixedName<N>& n, Encoding enc, bool morph) {
  if (enc == Encoding::cp932 && !n.raw.empty()) {
    n.raw = mirror_name_cp932(ByteSpan(n.raw.data(), n.raw.size()), morph);
    n.text = decode_text(until_nul(ByteSpan(n.raw.data(), n.raw.size())), enc);
    return {};
  }
  const std::string m = mirror_name(n.text, morph);
  if (m == n.text) return {};
  n.text = m;
  if (!n.raw.empty()) {
    auto raw = encode_text(m, enc);
    if (!raw) return std::unexpected(raw.error());
    if (raw->size() > N) return make_error(ErrorCode::encoding_error, "mirrored name '" + m + "' is longer than " + std::to_string(N) + " bytes");
    n.raw = *raw;
  }
  return {};
}

}  // namespace

Result<vmd::Motion> mirror(const vmd::Motion& motion, const MirrorOptions& options) {
  vmd::Motion out = motion;
  for (auto& n : out.bone_names)
    if (auto r = mirror_fixed(n, out.encoding, false); !r) return std::unexpected(r.error());
  if (options.morph_names)
    for (auto& n : out.morph_names)
      if (auto r = mirror_fixed(n, out.encoding, true); !r) return std::unexpected(r.error());
  for (auto& k : out.property_keys)
    for (auto& ik : k.ik)
      if (auto r = mirror_fixed(ik.name, out.encoding, false); !r) return std::unexpected(r.error());
  for (auto& k : out.bone_keys) {
    k.position[0] = -k.position[0];
    k.rotation[1] = -k.rotation[1];
    k.rotation[2] = -k.rotation[2];
  }
  for (auto& k : out.camera_keys) {
    k.target[0] = -k.target[0];
    k.rotation[1] = -k.rotation[1];
    k.rotation[2] = -k.rotation[2];
  }
  for (auto& k : out.light_keys) k.direction[0] = -k.direction[0];
  return out;
}

namespace {

Result<void> mirror_text(EncodedText& n, Encoding enc, bool morph) {
  if (enc == Encoding::cp932 && !n.raw.empty()) {
    n.raw = mirror_name_cp932(ByteSpan(n.raw.data(), n.raw.size()), morph);
    n.text = decode_text(ByteSpan(n.raw.data(), n.raw.size()), enc);
    return {};
  }
  const std::string m = mirror_name(n.text, morph);
  if (m == n.text) return {};
  if (auto raw = encode_text(m, enc); !raw) return std::unexpected(raw.error());
  n.assign(m);
  return {};
}

void flip(float& v) {
  if (v != 0) v = -v;
}

}  // namespace

Result<vpd::Pose> mirror(const vpd::Pose& pose, const MirrorOptions& options) {
  vpd::Pose out = pose;
  for (vpd::Bone& b : out.bones) {
    if (auto r = mirror_text(b.name, out.encoding, false); !r) return std::unexpected(r.error());
    flip(b.translation[0]);
    flip(b.rotation[1]);
    flip(b.rotation[2]);
  }
  if (options.morph_names)
    for (vpd::Morph& m : out.morphs)
      if (auto r = mirror_text(m.name, out.encoding, true); !r) return std::unexpected(r.error());
  return out;
}

}  // namespace mmdkit::motion
