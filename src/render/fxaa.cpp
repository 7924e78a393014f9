// mmdkit — the anti-aliasing filter (fxaa.hpp), written from the published description of FXAA:
// T. Lottes, "FXAA", NVIDIA white paper (2009, 2011), and the walk-through of its "quality" variant
// 3.11 by S. Rodriguez, "Implementing FXAA" (2016); no code copied. On the CPU because llvmpipe
// runs a full-screen shader's every branch for every pixel, while here the flat pixels (most of a
// picture) cost one contrast test. Coordinates are pixel indices (pixel i's centre at i).
#include "render/fxaa.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

namespace mmdkit::render::detail {

namespace {

struct Picture {
  const std::uint8_t* rgba;
  const float* luma;
  int w, h;
  float at(int x, int y) const {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
    return luma[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
  }
  // Bilinear luma at a continuous position (clamped to the picture).
  float sample(float x, float y) const {
    const float fx = std::floor(x), fy = std::floor(y);
    const float tx = x - fx, ty = y - fy;
    const int x0 = int(fx), y0 = int(fy);
    const float top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx;
    const float bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx;
    return top + (bottom - top) * ty;
  }
};

constexpr float kSteps[] = {1.5f, 2.0f, 2.0f, 2.0f, 2.0f, 4.0f, 8.0f};  // after the first step of 1

// Rows y0 .. y1 − 1 of the output (each pixel read from `pic`, written to `out` only).
void filter_rows(const Picture& pic, std::uint8_t* out, int y0, int y1) {
  const int w = pic.w, h = pic.h;
  const std::uint8_t* src = pic.rgba;
  const auto same = [&](std::size_t i, std::size_t j) { return std::memcmp(src + i * 4, src + j * 4, 3) == 0; };
  for (int y = y0; y < y1; ++y)
    for (int x = 0; x < w; ++x) {
      // A pixel inside the picture with the colour of its four neighbours has no contrast: the
      // test below would leave it as it is (the quick way through most of a picture).
      if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
        const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
        const std::size_t row = static_cast<std::size_t>(w);
        if (same(i, i - 1) && same(i, i + 1) && same(i, i - row) && same(i, i + row)) continue;
      }
      // Local contrast of the four neighbours: flat pixels are left as they are.
      const float m = pic.at(x, y);
      const float up = pic.at(x, y - 1), down = pic.at(x, y + 1), left = pic.at(x - 1, y), right = pic.at(x + 1, y);
      const float lo = std::min({m, up, down, left, right}), hi = std::max({m, up, down, left, right});
      const float range = hi - lo;
      if (range < std::max(0.03125f, hi * 0.125f)) continue;
      const float ul = pic.at(x - 1, y - 1), ur = pic.at(x + 1, y - 1), dl = pic.at(x - 1, y + 1), dr = pic.at(x + 1, y + 1);
      // Sub-pixel aliasing: the centre's distance from the 3×3 low-pass average, smoothstep², × 3/4.
      const float average = (2.0f * (up + down + left + right) + ul + ur + dl + dr) / 12.0f;
      const float a = std::clamp(std::abs(average - m) / range, 0.0f, 1.0f);
      const float b = (-2.0f * a + 3.0f) * a * a;
      const float subpixel = b * b * 0.75f;
      // Orientation from second differences: a horizontal edge changes along y (walk along x).
      const float horizontal = std::abs(ul - 2.0f * left + dl) + 2.0f * std::abs(up - 2.0f * m + down) +
                               std::abs(ur - 2.0f * right + dr);
      const float vertical = std::abs(ul - 2.0f * up + ur) + 2.0f * std::abs(left - 2.0f * m + right) +
                             std::abs(dl - 2.0f * down + dr);
      const bool horz = horizontal >= vertical;
      const float l1 = horz ? up : left, l2 = horz ? down : right;  // the two sides (−, +)
      const float g1 = l1 - m, g2 = l2 - m;
      const bool side1 = std::abs(g1) >= std::abs(g2);
      const float gradient = 0.25f * std::max(std::abs(g1), std::abs(g2));
      const float across = side1 ? -1.0f : 1.0f;  // towards the steeper side, in pixels
      const float edge_luma = 0.5f * ((side1 ? l1 : l2) + m);
      // Walk along the edge, halfway between the two rows, until the luma leaves its average.
      const float ax = horz ? 1.0f : 0.0f, ay = horz ? 0.0f : 1.0f;           // along
      const float sx = float(x) + (horz ? 0.0f : 0.5f * across), sy = float(y) + (horz ? 0.5f * across : 0.0f);
      float p1 = -1.0f, p2 = 1.0f;  // positions along the edge, pixels from the centre
      float end1 = pic.sample(sx + p1 * ax, sy + p1 * ay) - edge_luma;
      float end2 = pic.sample(sx + p2 * ax, sy + p2 * ay) - edge_luma;
      bool done1 = std::abs(end1) >= gradient, done2 = std::abs(end2) >= gradient;
      for (float step : kSteps) {
        if (done1 && done2) break;
        if (!done1) {
          p1 -= step;
          end1 = pic.sample(sx + p1 * ax, sy + p1 * ay) - edge_luma;
          done1 = std::abs(end1) >= gradient;
        }
        if (!done2) {
          p2 += step;
          end2 = pic.sample(sx + p2 * ax, sy + p2 * ay) - edge_luma;
          done2 = std::abs(end2) >= gradient;
        }
      }
      const float d1 = -p1, d2 = p2;
      const bool nearer1 = d1 < d2;
      float offset = 0.5f - std::min(d1, d2) / (d1 + d2);
      // Only when the luma at the nearer end goes the other way than the centre's.
      if (((nearer1 ? end1 : end2) < 0.0f) == (m < edge_luma)) offset = 0.0f;
      offset = std::max(offset, subpixel);
      // The colour moved `offset` pixels across the edge: a blend with the neighbour there.
      const int nx = std::clamp(x + (horz ? 0 : int(across)), 0, w - 1);
      const int ny = std::clamp(y + (horz ? int(across) : 0), 0, h - 1);
      const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 4;
      const std::size_t j = (static_cast<std::size_t>(ny) * static_cast<std::size_t>(w) + static_cast<std::size_t>(nx)) * 4;
      for (std::size_t c = 0; c < 4; ++c) {
        const float v = float(src[i + c]) + (float(src[j + c]) - float(src[i + c])) * offset;
        out[i + c] = static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 255.0f)));
      }
    }
}

}  // namespace

void fxaa(Image& image, FxaaWork& work) {
  const int w = image.width, h = image.height;
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  if (w < 3 || h < 3 || image.rgba.size() != n * 4) return;
  work.source.assign(image.rgba.begin(), image.rgba.end());
  work.luma.resize(n);
  const std::uint8_t* src = work.source.data();
  float* luma = work.luma.data();
  auto luma_of = [&](std::size_t a, std::size_t b) {
    for (std::size_t i = a; i < b; ++i)
      luma[i] = (0.299f * float(src[i * 4]) + 0.587f * float(src[i * 4 + 1]) + 0.114f * float(src[i * 4 + 2])) / 255.0f;
  };
  // Two halves at once (the drawing is finished: llvmpipe's threads are idle meanwhile); each
  // pixel depends only on the source, so the result does not depend on the split.
  const Picture pic{src, luma, w, h};
  std::uint8_t* out = image.rgba.data();
  const int mid = h / 2;
  {
    std::jthread other([&] { luma_of(n / 2, n); });
    luma_of(0, n / 2);
  }
  std::jthread other([&] { filter_rows(pic, out, mid, h); });
  filter_rows(pic, out, 0, mid);
}

}  // namespace mmdkit::render::detail
