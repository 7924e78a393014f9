// mmdkit — EGL + OpenGL 3.3 core context (context.hpp).
#include "mmdkit/render/context.hpp"

#include <dlfcn.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace mmdkit::render {

struct Context::Impl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  ContextInfo info;
  // The display is not terminated: EGL displays are per-process singletons (another Context may
  // share it), and eglTerminate makes Mesa unload its driver, after which leak reports of the
  // driver's own allocations cannot be attributed to it (tests/lsan-suppressions.txt).
  ~Impl() {
    if (display != EGL_NO_DISPLAY) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    }
  }
};

namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string_view(v) != "0";
}

bool has_extension(const char* list, std::string_view name) {
  if (!list) return false;
  std::string_view s(list);
  std::size_t pos = 0;
  while ((pos = s.find(name, pos)) != std::string_view::npos) {
    const bool start = pos == 0 || s[pos - 1] == ' ';
    const bool end = pos + name.size() == s.size() || s[pos + name.size()] == ' ';
    if (start && end) return true;
    pos += name.size();
  }
  return false;
}

// A GL 3.3 core context on `display` (initialized), current without a surface. Empty on failure.
EGLContext make_context(EGLDisplay display) {
  if (!eglBindAPI(EGL_OPENGL_API)) return EGL_NO_CONTEXT;
  // No surface is ever created (we draw into framebuffer objects): any config, or none at all
  // (EGL_KHR_no_config_context), will do; the default EGL_SURFACE_TYPE (window) must be lifted.
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) {
    if (!has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_no_config_context")) return EGL_NO_CONTEXT;
    config = EGL_NO_CONFIG_KHR;
  }
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = eglCreateContext(display, config, EGL_NO_CONTEXT, attribs);
  if (ctx == EGL_NO_CONTEXT) return EGL_NO_CONTEXT;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    eglDestroyContext(display, ctx);
    return EGL_NO_CONTEXT;
  }
  return ctx;
}

std::string gl_string(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s ? std::string(s) : std::string();
}

}  // namespace

Context::Context(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

const ContextInfo& Context::info() const noexcept { return impl_->info; }

Result<void> Context::make_current() const {
  if (!eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl_->context))
    return make_error(ErrorCode::unsupported, "eglMakeCurrent failed (EGL error 0x" +
                                                  std::to_string(eglGetError()) + ")");
  return {};
}

Result<Context> Context::create() {
  // libepoxy aborts when libEGL cannot be loaded: check first, with a message that names the package.
  if (void* h = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(h);
  } else {
    return make_error(ErrorCode::unsupported,
                      "cannot render: libEGL.so.1 is not installed (Debian package libegl1, pulled in by libegl-dev)");
  }
  auto impl = std::make_unique<Impl>();
  const char* client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const bool software_only = env_set("MMDKIT_RENDER_SOFTWARE") || env_set("LIBGL_ALWAYS_SOFTWARE");
  std::string tried;

  // 1. Hardware EGL devices (skipping Mesa's software device, which the surfaceless path covers).
  if (!software_only && has_extension(client_ext, "EGL_EXT_device_enumeration") &&
      has_extension(client_ext, "EGL_EXT_platform_device")) {
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (eglQueryDevicesEXT(16, devices, &n)) {
      for (EGLint i = 0; i < n && impl->context == EGL_NO_CONTEXT; ++i) {
        const char* dev_ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
        if (has_extension(dev_ext, "EGL_MESA_device_software")) continue;
        EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        EGLint major = 0, minor = 0;
        if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) continue;
        EGLContext c = make_context(d);
        if (c == EGL_NO_CONTEXT) {
          eglTerminate(d);
          tried += " device " + std::to_string(i) + " gave no GL 3.3 core context;";
          continue;
        }
        impl->display = d;
        impl->context = c;
        impl->info.platform = "device";
      }
    }
  }
  // 2. Mesa's surfaceless platform (llvmpipe without a GPU).
  if (impl->context == EGL_NO_CONTEXT) {
    if (!has_extension(client_ext, "EGL_MESA_platform_surfaceless")) {
      return make_error(ErrorCode::unsupported,
                        "cannot render: no EGL device gave an OpenGL 3.3 context and EGL has no surfaceless "
                        "platform (install the Mesa EGL driver: Debian packages libegl-mesa0 and "
                        "libgl1-mesa-dri)" + (tried.empty() ? std::string() : ";" + tried));
    }
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor))
      return make_error(ErrorCode::unsupported,
                        "cannot render: the EGL surfaceless display does not initialize (Mesa's GL driver is "
                        "missing: Debian package libgl1-mesa-dri)");
    EGLContext c = make_context(d);
    if (c == EGL_NO_CONTEXT) {
      eglTerminate(d);
      return make_error(ErrorCode::unsupported,
                        "cannot render: no OpenGL 3.3 core context on the surfaceless display (Mesa's llvmpipe in "
                        "Debian package libgl1-mesa-dri gives 4.5)");
    }
    impl->display = d;
    impl->context = c;
    impl->info.platform = "surfaceless";
  }
  ContextInfo& info = impl->info;
  info.vendor = gl_string(GL_VENDOR);
  info.renderer = gl_string(GL_RENDERER);
  info.version = gl_string(GL_VERSION);
  const int gl = epoxy_gl_version();
  if (gl < 33)
    return make_error(ErrorCode::unsupported, "cannot render: OpenGL " + std::to_string(gl / 10) + "." +
                                                  std::to_string(gl % 10) + " (" + info.renderer +
                                                  "), 3.3 core is needed (Debian package libgl1-mesa-dri)");
  GLint samples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &samples);
  info.max_samples = samples;
  info.s3tc = epoxy_has_gl_extension("GL_EXT_texture_compression_s3tc");
  info.software = info.renderer.find("llvmpipe") != std::string::npos ||
                  info.renderer.find("softpipe") != std::string::npos;
  return Context(std::move(impl));
}

}  // namespace mmdkit::render
