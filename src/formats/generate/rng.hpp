// mmdkit generators — the one pseudo-random source of the generators (PMD, PMX): SplitMix64
// (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), so a seed
// gives the same model on every platform. Internal (not installed), header-only.
#pragma once

#include <cstdint>

namespace mmdkit::generate {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 24 bits.
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  /// Uniform in [lo, hi).
  float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
  /// In [0, n) (next() % n); 0 when n is 0.
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }

 private:
  std::uint64_t s_;
};

}  // namespace mmdkit::generate
