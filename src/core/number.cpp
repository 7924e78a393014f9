#include "mmdkit/core/number.hpp"

#include <bit>
#include <charconv>
#include <cmath>

namespace mmdkit {

std::string format_float(float v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string format_float_json(float v) {
  if (std::isfinite(v)) return format_float(v);
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  std::uint32_t bits = std::bit_cast<std::uint32_t>(v);
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, bits, 16);
  std::string hex(buf, r.ptr);
  return "\"nan:" + std::string(8 - hex.size(), '0') + hex + "\"";
}

std::optional<float> parse_float(std::string_view text) {
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  if (text.starts_with("nan:") && text.size() == 12) {
    std::uint32_t bits = 0;
    auto r = std::from_chars(text.data() + 4, text.data() + 12, bits, 16);
    if (r.ec != std::errc{} || r.ptr != text.data() + 12) return std::nullopt;
    float f = std::bit_cast<float>(bits);
    if (!std::isnan(f)) return std::nullopt;
    return f;
  }
  const char* b = text.data();
  const char* e = b + text.size();
  if (b != e && *b == '+') return std::nullopt;
  float v = 0;
  auto r = std::from_chars(b, e, v);
  if (r.ec == std::errc::result_out_of_range) {
    // from_chars reports subnormal/overflow edge cases as out of range; fall back to strtof,
    // which rounds correctly to binary32 (denormals, +-inf on overflow).
    std::string s(text);
    char* end = nullptr;
    v = std::strtof(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  }
  if (r.ec != std::errc{} || r.ptr != e) return std::nullopt;
  // from_chars also accepts "nan", "inf", "infinity": only the forms above stand for non-finite values.
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string to_hex(ByteSpan bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

}  // namespace mmdkit
