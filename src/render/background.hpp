// mmdkit (private) — draws SceneFrame::backgrounds (a scene's background image and video frame)
// into the bound framebuffer after it is cleared: each picture stretched over its rectangle,
// bilinear, no blending, no depth (docs/RENDER.md "Background pictures").
#pragma once

#include <epoxy/gl.h>

#include <span>

#include "mmdkit/core/error.hpp"
#include "mmdkit/render/renderer.hpp"

namespace mmdkit::render::detail {

/// The program, vertex array and texture of the background pass (created on first use; the
/// context must be current and outlive it).
class BackgroundPass {
 public:
  BackgroundPass() = default;
  BackgroundPass(const BackgroundPass&) = delete;
  BackgroundPass& operator=(const BackgroundPass&) = delete;
  ~BackgroundPass();

  /// Draws `layers` in order into the bound framebuffer of `width` × `height` pixels. Errors:
  /// unsupported when the program does not compile; invalid_argument for an empty image or one
  /// larger than 16384 pixels a side.
  Result<void> draw(std::span<const BackgroundLayer> layers, int width, int height);

 private:
  GLuint prog_ = 0, vao_ = 0, tex_ = 0;
  GLint rect_ = -1, viewport_ = -1;
};

}  // namespace mmdkit::render::detail
