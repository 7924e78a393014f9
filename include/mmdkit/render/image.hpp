// mmdkit — images of the render layer: mmdkit::Image (core/image.hpp: RGBA8, top row first; PNG
// encoding and decoding live there, once) and the comparison used by golden-image tests.
#pragma once

#include "mmdkit/core/image.hpp"

namespace mmdkit::render {

using mmdkit::decode_image;
using mmdkit::encode_png;
using mmdkit::Image;

/// Peak signal-to-noise ratio of the RGB channels of two images of the same size, in dB
/// (infinity when identical); for golden-image tests. -1 when the sizes differ.
double psnr(const Image& a, const Image& b) noexcept;

}  // namespace mmdkit::render
