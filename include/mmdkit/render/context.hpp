// mmdkit — an offscreen OpenGL 3.3 core context through EGL, with no window system.
//
// Which device (docs/RENDER.md "Context"): a hardware EGL device when one initializes
// (EGL_EXT_platform_device, e.g. NVIDIA or Mesa on a DRM render node), otherwise Mesa's software
// rasterizer llvmpipe through the surfaceless platform (EGL_MESA_platform_surfaceless). The
// environment variable MMDKIT_RENDER_SOFTWARE=1 (or Mesa's LIBGL_ALWAYS_SOFTWARE=1) skips hardware
// devices, for reproducible images. One context per thread; Context is move-only and makes itself
// current on creation.
#pragma once

#include <memory>
#include <string>

#include "mmdkit/core/error.hpp"

namespace mmdkit::render {

/// What the driver reports.
struct ContextInfo {
  std::string platform;   ///< "device" (EGL device) or "surfaceless"
  std::string vendor;     ///< GL_VENDOR, e.g. "Mesa"
  std::string renderer;   ///< GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string version;    ///< GL_VERSION, e.g. "4.5 (Core Profile) Mesa 22.3.6"
  int max_samples = 1;    ///< GL_MAX_SAMPLES (MSAA limit)
  bool s3tc = false;      ///< GL_EXT_texture_compression_s3tc (DDS BC1–BC3 upload)
  bool software = false;  ///< the renderer is llvmpipe / softpipe
};

/// An EGL display + OpenGL 3.3 (or later) core context, current on the creating thread.
class Context {
 public:
  /// Creates the context. Errors (unsupported) say what is missing and which Debian package
  /// provides it: no libEGL (libegl1 / libegl-dev), no Mesa EGL driver (libegl-mesa0), no GL
  /// driver (libgl1-mesa-dri), or a GL version below 3.3.
  static Result<Context> create();

  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  ~Context();

  const ContextInfo& info() const noexcept;

  /// Makes the context current on the calling thread again (after another context was used).
  Result<void> make_current() const;

  struct Impl;  ///< private (src/render/context.cpp)

 private:
  explicit Context(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmdkit::render
