// mmdkit motion — holding missing keypoints and the One-Euro filter (keypoints_internal.hpp).
// One-Euro: Casiez, Roussel, Vogel, "1 € Filter: A Simple Speed-based Low-pass Filter for Noisy
// Input in Interactive Systems", CHI 2012 (the algorithm of its paper's pseudo-code).
#include <cmath>

#include "motion/dmath.hpp"
#include "motion/keypoints_internal.hpp"

namespace mmdkit::motion::kp {

std::size_t hold_missing(std::vector<double>& p, std::size_t F, std::size_t J, std::span<const float> conf,
                         float min_conf, std::vector<std::size_t>& never) {
  std::size_t filled = 0;
  for (std::size_t j = 0; j < J; ++j) {
    auto valid = [&](std::size_t f) {
      const double* v = &p[(f * J + j) * 3];
      if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) return false;
      return conf.empty() || conf[f * J + j] >= min_conf;
    };
    std::size_t first = F;
    for (std::size_t f = 0; f < F && first == F; ++f)
      if (valid(f)) first = f;
    if (first == F) {
      never.push_back(j);
      continue;
    }
    std::size_t last = first;
    for (std::size_t f = 0; f < F; ++f) {
      if (f >= first && valid(f)) {
        last = f;
        continue;
      }
      const std::size_t src = f < first ? first : last;
      for (int c = 0; c < 3; ++c) p[(f * J + j) * 3 + static_cast<std::size_t>(c)] = p[(src * J + j) * 3 + static_cast<std::size_t>(c)];
      ++filled;
    }
  }
  return filled;
}

void one_euro(std::vector<double>& p, std::size_t F, std::size_t J, const OneEuro& s, double fps) {
  const double te = 1.0 / fps;
  auto alpha = [&](double cutoff) {
    const double tau = 1.0 / (2.0 * dm::kPi * cutoff);
    return 1.0 / (1.0 + tau / te);
  };
  const double ad = alpha(s.d_cutoff);
  for (std::size_t j = 0; j < J; ++j)
    for (std::size_t c = 0; c < 3; ++c) {
      double x_prev = p[j * 3 + c], dx_prev = 0;
      for (std::size_t f = 1; f < F; ++f) {
        double& x = p[(f * J + j) * 3 + c];
        const double dx = (x - x_prev) * fps;
        const double edx = dx_prev + ad * (dx - dx_prev);
        const double a = alpha(s.min_cutoff + s.beta * std::abs(edx));
        const double xh = x_prev + a * (x - x_prev);
        dx_prev = edx;
        x_prev = xh;
        x = xh;
      }
    }
}

}  // namespace mmdkit::motion::kp
