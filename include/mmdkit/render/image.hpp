// mmdkit — the comparison of rendered images used by golden-image tests and quality measures. The images themselves
// are mmdkit::Image (core/image.hpp: RGBA8, top row first; PNG encoding and decoding live there).
#pragma once

#include "mmdkit/core/image.hpp"

namespace mmdkit::render {

/// Peak signal-to-noise ratio of the RGB channels of two images of the same size, in dB
/// (infinity when identical); for golden-image tests. -1 when the sizes differ.
double psnr(const Image& a, const Image& b) noexcept;

/// Structural similarity (SSIM; Z. Wang, A. C. Bovik, H. R. Sheikh, E. P. Simoncelli, "Image
/// quality assessment: from error visibility to structural similarity", IEEE TIP 13(4), 2004) of
/// the luma (0.299 R + 0.587 G + 0.114 B, 0..255) of two images of the same size: the mean over
/// every pixel whose 11 × 11 window lies inside the image of
/// (2 μa μb + C1)(2 σab + C2) / ((μa² + μb² + C1)(σa² + σb² + C2)), with the paper's circular
/// Gaussian window (σ = 1.5, normalised), C1 = (0.01 · 255)², C2 = (0.03 · 255)². 1 for identical
/// images, lower the more they differ. -1 when the sizes differ or an image is under 11 × 11.
double ssim(const Image& a, const Image& b);

}  // namespace mmdkit::render
