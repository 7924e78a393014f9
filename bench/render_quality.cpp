// mmdkit — `render_quality A.png B.png [...]`: SSIM (render::ssim, Wang et al. 2004, on luma) and
// PSNR (render::psnr, RGB) of each image after the first against the first; the measure behind
// docs/BENCHMARKS.md "Rendering" (anti-aliasing and shadow map quality against 4× MSAA).
#include <cmath>
#include <cstdio>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/image.hpp"
#include "mmdkit/render/image.hpp"

namespace {

mmdkit::Result<mmdkit::Image> load(const char* path) {
  auto bytes = mmdkit::read_file(path);
  if (!bytes) return std::unexpected(bytes.error());
  return mmdkit::decode_image(*bytes, path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: render_quality REFERENCE.png IMAGE.png...\n");
    return 2;
  }
  auto ref = load(argv[1]);
  if (!ref) {
    std::fprintf(stderr, "%s: %s\n", argv[1], ref.error().message.c_str());
    return 1;
  }
  for (int i = 2; i < argc; ++i) {
    auto img = load(argv[i]);
    if (!img) {
      std::fprintf(stderr, "%s: %s\n", argv[i], img.error().message.c_str());
      return 1;
    }
    const double p = mmdkit::render::psnr(*ref, *img);
    std::printf("%s\tSSIM %.4f\tPSNR %s dB\n", argv[i], mmdkit::render::ssim(*ref, *img),
                std::isinf(p) ? "inf" : std::to_string(p).c_str());
  }
  return 0;
}
