// mmdkit — the comparison of rendered images used by golden-image tests. The images themselves
// are mmdkit::Image (core/image.hpp: RGBA8, top row first; PNG encoding and decoding live there).
#pragma once

#include "mmdkit/core/image.hpp"

namespace mmdkit::render {

/// Peak signal-to-noise ratio of the RGB channels of two images of the same size, in dB
/// (infinity when identical); for golden-image tests. -1 when the sizes differ.
double psnr(const Image& a, const Image& b) noexcept;

}  // namespace mmdkit::render
