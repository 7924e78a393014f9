// FFmpeg loaded at run time (ffmpeg.hpp).
#include "render/ffmpeg.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace mmdkit::render::detail {
namespace {

#define MMDKIT_STR2(x) #x
#define MMDKIT_STR(x) MMDKIT_STR2(x)

struct Library {
  const char* soname;
  void* handle = nullptr;
};

// The sonames of the headers' major versions (the ABI this file is compiled against).
Library g_avutil{"libavutil.so." MMDKIT_STR(LIBAVUTIL_VERSION_MAJOR)};
Library g_avcodec{"libavcodec.so." MMDKIT_STR(LIBAVCODEC_VERSION_MAJOR)};
Library g_avformat{"libavformat.so." MMDKIT_STR(LIBAVFORMAT_VERSION_MAJOR)};
Library g_swscale{"libswscale.so." MMDKIT_STR(LIBSWSCALE_VERSION_MAJOR)};
Library g_swresample{"libswresample.so." MMDKIT_STR(LIBSWRESAMPLE_VERSION_MAJOR)};

Result<const Ffmpeg*> load() {
  static Ffmpeg table;
  for (Library* l : {&g_avutil, &g_avcodec, &g_avformat, &g_swscale, &g_swresample}) {
    l->handle = ::dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
      const char* why = ::dlerror();
      return make_error(ErrorCode::unsupported, std::string("video output and audio input need FFmpeg's ") + l->soname +
                                                    ", which cannot be loaded: " + (why ? why : "unknown reason"));
    }
  }
#define MMDKIT_FFMPEG_LOAD(lib, fn)                                                                        \
  table.fn = reinterpret_cast<decltype(table.fn)>(::dlsym(g_##lib.handle, #fn));                           \
  if (!table.fn)                                                                                           \
    return make_error(ErrorCode::unsupported, std::string("FFmpeg's ") + g_##lib.soname + " has no " #fn);
  MMDKIT_FFMPEG_FUNCTIONS(MMDKIT_FFMPEG_LOAD)
#undef MMDKIT_FFMPEG_LOAD
  return &table;
}

}  // namespace

Result<const Ffmpeg*> ffmpeg() {
  static std::once_flag once;
  static Result<const Ffmpeg*> loaded = make_error(ErrorCode::unsupported, "FFmpeg not loaded");
  std::call_once(once, [] { loaded = load(); });
  return loaded;
}

}  // namespace mmdkit::render::detail
