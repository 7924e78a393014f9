// Internal to the PMX reader: the vertex record layout and a branch-free decoder specialised on
// the bone index size (BI) and the additional-UV count (AUV).
//
// A vertex record is: position, normal, uv (32 bytes), AUV × vec4, deform type (1 byte), deform
// data (size by type, deform_size()), edge scale (4 bytes). The decoder reads a fixed window of
// kMaxRecord bytes whatever the type (it loads 4 bone indices and 4 weights and masks off the ones
// the type does not have), so the caller must prove kMaxRecord bytes are readable at `p`: either
// the input has that many bytes left, or `p` is a zero-padded copy of the record.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "formats/pmx/common.hpp"

namespace mmdkit::pmx::detail {

template <std::size_t BI, std::size_t AUV>
struct VertexLayout {
  static_assert(BI == 1 || BI == 2 || BI == 4);
  static_assert(AUV <= kMaxAdditionalUvs);
  /// position, normal, uv, additional UVs and the deform type byte.
  static constexpr std::size_t kFixed = 32 + 16 * AUV + 1;
  /// Deform data size by type (0..4) — the same numbers as deform_size().
  static constexpr std::array<std::size_t, 5> kDeformSize{BI, 2 * BI + 4, 4 * BI + 16, 2 * BI + 40, 4 * BI + 16};
  /// Whole record size by deform type.
  static constexpr std::array<std::size_t, 5> kRecord{kFixed + kDeformSize[0] + 4, kFixed + kDeformSize[1] + 4,
                                                     kFixed + kDeformSize[2] + 4, kFixed + kDeformSize[3] + 4,
                                                     kFixed + kDeformSize[4] + 4};
  /// The longest record (SDEF) and the bytes the decoder may read from its start.
  static constexpr std::size_t kMaxRecord = kRecord[3];
  static_assert(kRecord[2] <= kMaxRecord && kRecord[4] <= kMaxRecord);
  // The window the masked loads touch: 4 indices at the start of the deform data, 4 weights after
  // the last index of the type (at most after 4 indices), then nothing beyond kMaxRecord.
  static_assert(kFixed + 4 * BI + 16 <= kMaxRecord);
  static_assert(kDeformSize[0] == deform_size(DeformType::bdef1, BI) &&
                kDeformSize[1] == deform_size(DeformType::bdef2, BI) &&
                kDeformSize[2] == deform_size(DeformType::bdef4, BI) &&
                kDeformSize[3] == deform_size(DeformType::sdef, BI) &&
                kDeformSize[4] == deform_size(DeformType::qdef, BI));
};

/// Bone indices and weights each deform type stores (BDEF1, BDEF2, BDEF4, SDEF, QDEF).
inline constexpr std::array<std::uint32_t, 5> kDeformBones{1, 2, 4, 2, 4};
inline constexpr std::array<std::uint32_t, 5> kDeformWeights{0, 1, 4, 1, 4};

/// All-ones for slot k < count, else 0: masks instead of conditions, so that the compiler emits
/// no branch on the (often irregular) deform type.
constexpr std::array<std::array<std::uint32_t, 4>, 5> slot_masks(const std::array<std::uint32_t, 5>& count) {
  std::array<std::array<std::uint32_t, 4>, 5> m{};
  for (std::size_t t = 0; t < 5; ++t)
    for (std::size_t k = 0; k < 4; ++k) m[t][k] = k < count[t] ? 0xFFFFFFFFu : 0u;
  return m;
}
inline constexpr auto kBoneMask = slot_masks(kDeformBones);
inline constexpr auto kWeightMask = slot_masks(kDeformWeights);

template <std::size_t BI>
inline std::int32_t load_bone_index(const std::uint8_t* p) noexcept {
  if constexpr (BI == 1) return static_cast<std::int8_t>(p[0]);
  else if constexpr (BI == 2) return load_le<std::int16_t>(p);
  else return load_le<std::int32_t>(p);
}

/// Decodes the vertex record at `p` (deform type `type` <= 4, already checked) and appends it to
/// model.vertices (plus AUV entries of model.additional_uvs and, for SDEF, one model.sdef_params).
/// Values are bit-exact copies; the bones and weights a type does not store are 0, sdef is kNoSdef
/// unless SDEF. Precondition: VertexLayout<BI, AUV>::kMaxRecord bytes readable at `p`; the
/// vectors have capacity for the append (reserve), so it never reallocates vertices.
template <std::size_t BI, std::size_t AUV>
[[gnu::always_inline]] inline void decode_vertex(const std::uint8_t* p, std::uint8_t type, Model& model) noexcept {
  using L = VertexLayout<BI, AUV>;
  const std::uint8_t* d = p + L::kFixed;
  const std::uint8_t* w = d + kDeformBones[type] * BI;
  const bool sdef = type == static_cast<std::uint8_t>(DeformType::sdef);

  Vertex v;  // built in registers, then stored once (no default stores into the array)
  std::memcpy(v.position.data(), p, 12);
  std::memcpy(v.normal.data(), p + 12, 12);
  std::memcpy(v.uv.data(), p + 24, 8);
#pragma GCC unroll 4
  for (std::uint32_t k = 0; k < 4; ++k) {
    const auto b = static_cast<std::uint32_t>(load_bone_index<BI>(d + k * BI));
    v.bones[k] = static_cast<std::int32_t>(b & kBoneMask[type][k]);
    const std::uint32_t bits = load_le<std::uint32_t>(w + 4 * k);
    v.weights[k] = std::bit_cast<float>(bits & kWeightMask[type][k]);
  }
  std::memcpy(&v.edge_scale, d + L::kDeformSize[type], 4);
  v.deform = static_cast<DeformType>(type);
  v.sdef = sdef ? static_cast<std::uint32_t>(model.sdef_params.size()) : kNoSdef;
  model.vertices.push_back(v);
  for (std::size_t k = 0; k < AUV; ++k) {
    Vec4& uv = model.additional_uvs.emplace_back();
    std::memcpy(uv.data(), p + 32 + 16 * k, 16);
  }
  if (sdef) {
    SdefParams& sp = model.sdef_params.emplace_back();
    std::memcpy(sp.c.data(), d + 2 * BI + 4, 12);
    std::memcpy(sp.r0.data(), d + 2 * BI + 16, 12);
    std::memcpy(sp.r1.data(), d + 2 * BI + 28, 12);
  }
}

}  // namespace mmdkit::pmx::detail
