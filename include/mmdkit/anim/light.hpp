// mmdkit — MMD's directional light at a fractional frame.
//
// Light keys interpolate linearly (color and direction componentwise; no curves in the file),
// docs/formats/NOTES.md "Light and self-shadow". Keys: stable sort by frame, last duplicate wins;
// before the first key the first holds, after the last the last.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// The light at one time. Defaults are MMD's initial light: UI color 154 (stored 154/256 =
/// 0.6015625; the /256 rule is disputed, see docs/formats/NOTES.md) and direction (−0.5, −1, 0.5).
struct LightState {
  Vec3 color{0.6015625f, 0.6015625f, 0.6015625f};  ///< RGB as stored (UI value / 256)
  Vec3 direction{-0.5f, -1.0f, 0.5f};  ///< the light travels along this vector, world space (not normalized)
};

/// A light key prepared for sampling.
struct LightTrackKey {
  std::uint32_t frame = 0;
  LightState value;
};

/// Stable sort by frame, last duplicate kept.
std::vector<LightTrackKey> build_light_track(std::span<const vmd::LightKey> keys);

/// The light at `frame`, linear between keys; an empty track gives the default LightState.
LightState sample_light(std::span<const LightTrackKey> keys, double frame, std::uint32_t& cursor) noexcept;

}  // namespace mmdkit::anim
