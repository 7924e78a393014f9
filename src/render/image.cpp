// mmdkit — image comparison (render/image.hpp).
#include "mmdkit/render/image.hpp"

#include <cmath>
#include <limits>
#include <vector>

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

double ssim(const Image& a, const Image& b) {
  constexpr int kR = 5;  // 11 × 11 window
  const int w = a.width, h = a.height;
  if (w != b.width || h != b.height || w < 2 * kR + 1 || h < 2 * kR + 1) return -1;
  const auto n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  if (a.rgba.size() != n * 4 || b.rgba.size() != n * 4) return -1;
  auto luma = [&](const Image& img) {
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i)
      y[i] = 0.299 * img.rgba[i * 4] + 0.587 * img.rgba[i * 4 + 1] + 0.114 * img.rgba[i * 4 + 2];
    return y;
  };
  const std::vector<double> x = luma(a), y = luma(b);
  // The Gaussian window is separable: weight(dx, dy) = g(dx) · g(dy).
  double g[2 * kR + 1], total = 0;
  for (int d = -kR; d <= kR; ++d) total += g[d + kR] = std::exp(-double(d * d) / (2 * 1.5 * 1.5));
  for (double& v : g) v /= total;
  // Weighted sums of x, y, x², y², xy over each window: rows first, then columns.
  const std::size_t ow = static_cast<std::size_t>(w - 2 * kR);
  std::vector<double> rows[5];
  for (auto& r : rows) r.assign(ow * static_cast<std::size_t>(h), 0.0);
  for (int j = 0; j < h; ++j)
    for (std::size_t i = 0; i < ow; ++i) {
      double s[5] = {0, 0, 0, 0, 0};
      for (int d = 0; d <= 2 * kR; ++d) {
        const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(w) + i + static_cast<std::size_t>(d);
        const double gx = g[d] * x[k], gy = g[d] * y[k];
        s[0] += gx;
        s[1] += gy;
        s[2] += gx * x[k];
        s[3] += gy * y[k];
        s[4] += gx * y[k];
      }
      for (int c = 0; c < 5; ++c) rows[c][static_cast<std::size_t>(j) * ow + i] = s[c];
    }
  const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
  double sum = 0;
  for (int j = kR; j < h - kR; ++j)
    for (std::size_t i = 0; i < ow; ++i) {
      double s[5] = {0, 0, 0, 0, 0};
      for (int d = 0; d <= 2 * kR; ++d)
        for (int c = 0; c < 5; ++c) s[c] += g[d] * rows[c][static_cast<std::size_t>(j - kR + d) * ow + i];
      const double va = s[2] - s[0] * s[0], vb = s[3] - s[1] * s[1], cov = s[4] - s[0] * s[1];
      sum += (2 * s[0] * s[1] + c1) * (2 * cov + c2) / ((s[0] * s[0] + s[1] * s[1] + c1) * (va + vb + c2));
    }
  return sum / (double(ow) * double(h - 2 * kR));
}

}  // namespace mmdkit::render
