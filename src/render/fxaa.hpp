// mmdkit (private) — the anti-aliasing filter of RenderSettings::fxaa (docs/RENDER.md
// "Anti-aliasing"), run on the read-back picture on the CPU.
#pragma once

#include <cstdint>
#include <vector>

#include "mmdkit/core/image.hpp"

namespace mmdkit::render::detail {

/// Buffers reused from frame to frame (no allocation per frame after the first).
struct FxaaWork {
  std::vector<std::uint8_t> source;  ///< the picture before filtering
  std::vector<float> luma;           ///< per pixel, 0..1
};

/// Filters `image` (RGBA8, any row order) in place. Deterministic: plain float arithmetic in a
/// fixed order, so the same picture gives the same bytes.
void fxaa(Image& image, FxaaWork& work);

}  // namespace mmdkit::render::detail
