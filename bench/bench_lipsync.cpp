// Lip sync from audio (motion/lipsync.hpp): seconds of audio analysed per second of CPU, on a
// 4-minute voice-like signal made here (a 120–220 Hz glottal pulse train through five vowel
// formant filters in turn, with pauses), at 16 kHz and at 44.1 kHz (resampled inside), and the
// key reduction of the result onto the generated PMX's vowel morphs. Target (issue 31): a
// 4-minute song analysed in under 2 s.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/lipsync.hpp"

namespace {

constexpr double kSeconds = 240;

// A pulse train (pitch gliding 120..220 Hz) through two resonators at the vowel's F1 / F2; a
// vowel every 0.4 s, a pause every 2 s.
std::vector<float> voice(double rate) {
  const double formants[5][2] = {{750, 1250}, {310, 2250}, {340, 1400}, {480, 1900}, {480, 850}};
  const auto n = static_cast<std::size_t>(kSeconds * rate);
  std::vector<float> out(n);
  double phase = 0, y1[2] = {0, 0}, y2[2] = {0, 0};
  for (std::size_t k = 0; k < n; ++k) {
    const double t = static_cast<double>(k) / rate;
    const int v = static_cast<int>(t / 0.4) % 5;
    const bool pause = std::fmod(t, 2.0) > 1.7;
    const double f0 = 170 + 50 * std::sin(2 * std::numbers::pi * 0.3 * t);
    phase += f0 / rate;
    double x = 0;
    if (phase >= 1) {
      phase -= 1;
      x = pause ? 0 : 1;
    }
    double s = 0;
    for (int j = 0; j < 2; ++j) {
      const double r = std::exp(-std::numbers::pi * 80 / rate);
      const double c = 2 * r * std::cos(2 * std::numbers::pi * formants[v][j] / rate);
      const double y = x + c * y1[j] - r * r * y2[j];
      y2[j] = y1[j];
      y1[j] = y;
      s += y;
    }
    out[k] = static_cast<float>(0.02 * s);
  }
  return out;
}

void BM_AnalyzeAudio16k(benchmark::State& state) {
  static const std::vector<float> x = voice(16000);
  for (auto _ : state) {
    auto t = mmdkit::motion::analyze_audio(x, 16000, {});
    benchmark::DoNotOptimize(t);
  }
  state.counters["audio_s_per_s"] = benchmark::Counter(kSeconds * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AnalyzeAudio16k)->Unit(benchmark::kMillisecond);

void BM_AnalyzeAudio44k(benchmark::State& state) {
  static const std::vector<float> x = voice(44100);
  for (auto _ : state) {
    auto t = mmdkit::motion::analyze_audio(x, 44100, {});
    benchmark::DoNotOptimize(t);
  }
  state.counters["audio_s_per_s"] = benchmark::Counter(kSeconds * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AnalyzeAudio44k)->Unit(benchmark::kMillisecond);

void BM_LipsyncMotionReduce(benchmark::State& state) {
  static const std::vector<float> x = voice(16000);
  auto track = mmdkit::motion::analyze_audio(x, 16000, {});
  mmdkit::pmx::GenerateOptions o;
  o.vertices = 0;
  auto p = mmdkit::pmx::generate(o);
  auto model = mmdkit::model::from_pmx(*p, mmdkit::model::BuildOptions{false});
  auto morphs = mmdkit::motion::find_mouth_morphs(*model);
  std::size_t keys = 0;
  for (auto _ : state) {
    mmdkit::motion::LipMotionReport r;
    auto m = mmdkit::motion::lipsync_motion(*track, *model, *morphs, {}, &r);
    benchmark::DoNotOptimize(m);
    keys = r.keys;
  }
  state.counters["keys"] = static_cast<double>(keys);
  state.counters["audio_s_per_s"] = benchmark::Counter(kSeconds * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LipsyncMotionReduce)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
