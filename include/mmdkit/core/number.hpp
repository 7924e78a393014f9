// mmdkit — exact text form of binary32 floats, hex bytes.
//
// JSON output writes every float in the shortest decimal form that reads back to the same
// binary32 value (std::to_chars); parse_float reads it back directly as binary32 (std::from_chars),
// never through double, so float → text → float is bit-exact. NaN and infinities, which JSON
// numbers cannot hold, are written as the strings "nan:XXXXXXXX" / "inf" / "-inf" by callers
// that need them (see format_float_json).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"

namespace mmdkit {

/// Shortest decimal text that reads back as exactly `v` (finite values), e.g. "0.1", "-0", "1e-07".
std::string format_float(float v);

/// JSON value text for `v`: a number for finite values (like format_float), otherwise a quoted
/// string: "inf", "-inf", or "nan:XXXXXXXX" with the 8 hex digits of the bit pattern.
std::string format_float_json(float v);

/// Parses the text written by format_float (any decimal or exponent form) as binary32, or the
/// strings of format_float_json for non-finite values. nullopt if the whole text is not a number.
std::optional<float> parse_float(std::string_view text);

/// Lower-case hex of bytes, two digits each, no separators.
std::string to_hex(ByteSpan bytes);

/// Inverse of to_hex (upper or lower case). nullopt on odd length or a non-hex digit.
std::optional<std::vector<std::uint8_t>> from_hex(std::string_view hex);

}  // namespace mmdkit
