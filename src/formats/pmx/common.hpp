// mmdkit PMX internals shared by the reader, writer, JSON and generator.
#pragma once

#include <cstdint>
#include <string>

#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::pmx::detail {

/// Appends the UTF-8 form of UTF-16LE / UTF-8 bytes to `out` (invalid sequences → U+FFFD).
void decode_append(ByteSpan bytes, Encoding enc, std::string& out);

/// Encodes UTF-8 text for a PMX (UTF-16LE or UTF-8). Invalid UTF-8 → encoding_error.
Result<std::vector<std::uint8_t>> encode(std::string_view utf8, Encoding enc);

/// Fixed byte size of the deform data of a type (without the type byte), given the bone index size.
constexpr std::size_t deform_size(DeformType t, std::size_t bi) noexcept {
  switch (t) {
    case DeformType::bdef1: return bi;
    case DeformType::bdef2: return 2 * bi + 4;
    case DeformType::bdef4:
    case DeformType::qdef: return 4 * bi + 16;
    case DeformType::sdef: return 2 * bi + 4 + 36;
  }
  return 0;
}

inline constexpr std::size_t kMaterialOffsetSize = 1 + 4 * 28;  // without the index
inline constexpr std::size_t kRigidBodyFixedSize = 1 + 2 + 1 + 4 * 14 + 1;  // without names/index
inline constexpr std::size_t kJointFixedSize = 4 * 24;  // without names/type/indices

}  // namespace mmdkit::pmx::detail
