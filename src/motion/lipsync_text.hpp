// Internal (motion layer): small text helpers of the score readers.
#pragma once

#include <string_view>

namespace mmdkit::motion::detail {

/// True when `s` is well-formed UTF-8 (no overlong forms checked; enough to tell it from CP932).
inline bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (int k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += static_cast<std::size_t>(len);
  }
  return true;
}

}  // namespace mmdkit::motion::detail
