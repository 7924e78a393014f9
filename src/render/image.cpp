// mmdkit — image comparison (render/image.hpp).
#include "mmdkit/render/image.hpp"

#include <cmath>
#include <limits>

namespace mmdkit::render {

double psnr(const Image& a, const Image& b) noexcept {
  if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size()) return -1;
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4)
    for (std::size_t c = 0; c < 3; ++c) {
      const double d = double(a.rgba[i + c]) - double(b.rgba[i + c]);
      sum += d * d;
      ++n;
    }
  if (n == 0 || sum == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / (sum / double(n)));
}

}  // namespace mmdkit::render
