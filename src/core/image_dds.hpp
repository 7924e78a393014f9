// mmdkit (private) — DDS decoding behind core/image.hpp's decode_image.
#pragma once

#include <span>
#include <string_view>

#include "mmdkit/core/image.hpp"

namespace mmdkit {

/// The top mip level of a DDS file as RGBA (formats in image_dds.cpp). Errors: invalid_value for a
/// short or malformed file, unsupported for other compressions (DX10 header, BC4+), limit_exceeded
/// above 2^26 pixels. `name` is only for messages.
Result<Image> decode_dds(std::span<const std::uint8_t> bytes, std::string_view name);

}  // namespace mmdkit
