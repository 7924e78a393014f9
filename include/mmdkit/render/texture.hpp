// mmdkit — texture files of MMD models decoded to RGBA, and the shared toon ramps.
//
// Decoding is mmdkit::decode_image's (core/image.hpp): by content, never by extension (sphere maps
// are usually BMPs named .sph / .spa): PNG, BMP (a 32-bit BMP whose alpha is zero everywhere is
// opaque, as MMD shows it), TGA, JPEG, GIF, and DDS (uncompressed, DXT1/3/5), decoded on the CPU
// so that the result does not depend on the driver's S3TC support.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "mmdkit/core/error.hpp"
#include "mmdkit/render/image.hpp"

namespace mmdkit::render {

/// Decodes a texture file's bytes (see above) for upload. `name` is only for messages. Errors:
/// decode_image's (the file and the reason named), limit_exceeded (more than 16384 pixels per
/// side, OpenGL's usual limit).
Result<Image> decode_texture(std::span<const std::uint8_t> bytes, const std::string& name);

/// mmdkit's stand-in for MMD's shared toon<index+1>.bmp (index 0..9): 32 × 32 pixels whose rows
/// have the colours measured from MMD's files in the column the shader samples (u = 0; the lit side
/// at the top: the renderer samples row 0.5 − 0.5·N·L): toon01..04 white over a flat shade from
/// row 16, toon05 a soft skin ramp, toon06 yellow with a highlight band over ochre, toon07..10
/// white (docs/RENDER.md "Toon ramps"). MMD's own files are used instead when found (--toon-dir or
/// the model's folder). Index outside 0..9: all white.
Image generated_toon(int index);

}  // namespace mmdkit::render
