// mmdkit — MMD's self-shadow settings at a fractional frame.
//
// Self-shadow keys step: mode and distance hold from a key until the next one (no interpolation;
// docs/formats/NOTES.md "Light and self-shadow"). Keys: stable sort by frame, last duplicate wins.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// Self-shadow state. Defaults are MMD's initial settings: mode 1, UI distance 8875
/// (stored (10000 − 8875) / 100000 = 0.01125).
struct SelfShadowState {
  std::uint8_t mode = 1;      ///< 0 off, 1 mode 1, 2 mode 2 (other stored values kept)
  float distance = 0.01125f;  ///< as stored: (10000 − UI distance) / 100000
};

/// A self-shadow key prepared for sampling.
struct SelfShadowTrackKey {
  std::uint32_t frame = 0;
  SelfShadowState value;
};

/// Stable sort by frame, last duplicate kept.
std::vector<SelfShadowTrackKey> build_self_shadow_track(std::span<const vmd::SelfShadowKey> keys);

/// The state at `frame`: the value of the last key at or before it (the first key's before it);
/// an empty track gives the default SelfShadowState.
SelfShadowState sample_self_shadow(std::span<const SelfShadowTrackKey> keys, double frame,
                                   std::uint32_t& cursor) noexcept;

}  // namespace mmdkit::anim
