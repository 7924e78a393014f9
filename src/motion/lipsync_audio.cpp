// Mouth weights from a voice recording (motion/lipsync.hpp analyze_audio; docs/LIPSYNC.md "Audio").
//
// Per frame: energy, voicing (normalised autocorrelation at the pitch lag), F1 and F2 from the
// roots of an LPC polynomial (autocorrelation method, Levinson–Durbin; Durand–Kerner roots),
// the vowel by distance to five prototypes in log-frequency after one per-voice scale factor,
// then hold / attack / release limits. Textbook methods (Rabiner & Schafer, "Digital Processing
// of Speech Signals", ch. 8: LPC, formants from the roots of A(z)); our own code.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "mmdkit/motion/lipsync.hpp"

namespace mmdkit::motion {

namespace {

constexpr double kRate = kLipSampleRate;
constexpr int kWindow = 640;    // 40 ms at 16 kHz
constexpr int kOrder = 18;      // LPC order: 2 + fs / 1 kHz (Rabiner & Schafer's rule)
constexpr double kSilenceDb = -60;   // absolute gate (dBFS RMS)
constexpr double kRelativeDb = -40;  // gate below the loud frames' level

// Vowel prototypes, Hz: (F1, F2) of a, i, u, e, o (the voice's own scale is applied to its
// formants first). The ordering is the textbook Japanese vowel chart (a: F1 high; i: F1 low, F2
// high; u: F1 low, F2 mid-low; e: F1 mid, F2 high-mid; o: F1 mid, F2 low); the values lie between
// the usual adult male figures (u's F2 ~1300 Hz, unrounded) and espeak-ng's ja voice, measured
// with this analysis (a 895/1325, i 287/2270, u 343/750, e 482/1992, o 535/777; docs/LIPSYNC.md).
constexpr double kProto[5][2] = {{800, 1300}, {300, 2250}, {340, 950}, {480, 1950}, {520, 800}};
// Reference F3, Hz: the median F3 of the voice the prototypes are for (espeak-ng ja: a 2692,
// i 2830, u 2391, e 2541, o 2747 measured here).
constexpr double kRefF3 = 2650;
constexpr double kSigma1 = 0.22, kSigma2 = 0.16;  // spread in ln Hz

std::vector<float> to_16k(std::span<const float> in, double rate) {
  if (rate == kRate) return std::vector<float>(in.begin(), in.end());
  const double step = rate / kRate;  // input samples per output sample
  const double fc = 0.45 * std::min(1.0, kRate / rate);  // cycles per input sample
  const int half = static_cast<int>(std::ceil(4.0 / fc));
  // Hann-windowed sinc taps for 1024 fractional offsets (nearest offset used: the phase error
  // ≤ 1/2048 sample), each normalised to a sum of 1.
  constexpr int kPhases = 1024;
  const int taps = 2 * half;
  std::vector<float> table(static_cast<std::size_t>(kPhases) * static_cast<std::size_t>(taps));
  for (int ph = 0; ph < kPhases; ++ph) {
    const double frac = static_cast<double>(ph) / kPhases;
    double norm = 0;
    std::vector<double> h(static_cast<std::size_t>(taps));
    for (int t = 0; t < taps; ++t) {
      const double d = frac + half - 1 - t;  // x − k for k = c − half + 1 + t
      const double arg = 2 * fc * d;
      const double sinc = arg == 0 ? 1 : std::sin(std::numbers::pi * arg) / (std::numbers::pi * arg);
      h[static_cast<std::size_t>(t)] = sinc * (0.5 + 0.5 * std::cos(std::numbers::pi * d / half));
      norm += h[static_cast<std::size_t>(t)];
    }
    for (int t = 0; t < taps; ++t)
      table[static_cast<std::size_t>(ph * taps + t)] = static_cast<float>(h[static_cast<std::size_t>(t)] / norm);
  }
  const std::size_t out_n = static_cast<std::size_t>(std::floor(static_cast<double>(in.size()) / step));
  std::vector<float> out(out_n);
  const auto n = static_cast<std::int64_t>(in.size());
  for (std::size_t j = 0; j < out_n; ++j) {
    const double x = static_cast<double>(j) * step;
    const auto c = static_cast<std::int64_t>(x);
    const int ph = std::min(kPhases - 1, static_cast<int>((x - static_cast<double>(c)) * kPhases + 0.5));
    const float* h = table.data() + static_cast<std::size_t>(ph * taps);
    const std::int64_t first = c - half + 1;
    float acc = 0;
    if (first >= 0 && first + taps <= n) {
      const float* s = in.data() + first;
      for (int t = 0; t < taps; ++t) acc += h[t] * s[t];
    } else {
      for (int t = 0; t < taps; ++t) {
        const std::int64_t k = first + t;
        if (k >= 0 && k < n) acc += h[t] * in[static_cast<std::size_t>(k)];
      }
    }
    out[j] = acc;
  }
  return out;
}

// Levinson–Durbin: a[0] = 1, a[1..p] from autocorrelation r[0..p]. False when r[0] == 0.
bool levinson(const double* r, int p, double* a) {
  if (r[0] <= 0) return false;
  double err = r[0];
  a[0] = 1;
  for (int i = 1; i <= p; ++i) a[i] = 0;
  double tmp[kOrder + 1];
  for (int i = 1; i <= p; ++i) {
    double acc = r[i];
    for (int j = 1; j < i; ++j) acc += a[j] * r[i - j];
    const double k = -acc / err;
    for (int j = 0; j <= i; ++j) tmp[j] = a[j];
    for (int j = 1; j < i; ++j) a[j] = tmp[j] + k * tmp[i - j];
    a[i] = k;
    err *= (1 - k * k);
    if (err <= 0) return false;
  }
  return true;
}

// Roots of z^p + a1 z^(p-1) + ... + ap (Durand–Kerner).
void roots(const double* a, int p, std::complex<double>* z) {
  const std::complex<double> seed(0.4, 0.9);
  z[0] = 1;
  for (int i = 0; i < p; ++i) z[i] = std::pow(seed, i);
  for (int it = 0; it < 80; ++it) {
    double moved = 0;
    for (int i = 0; i < p; ++i) {
      std::complex<double> num = 1;
      for (int k = 1; k <= p; ++k) num = num * z[i] + a[k];
      std::complex<double> den = 1;
      for (int j = 0; j < p; ++j)
        if (j != i) den *= (z[i] - z[j]);
      if (std::abs(den) < 1e-300) continue;
      const std::complex<double> d = num / den;
      z[i] -= d;
      moved = std::max(moved, std::abs(d));
    }
    if (moved < 1e-9) break;
  }
}

struct FrameInfo {
  double rms = 0, db = -200, voicing = 0, f1 = 0, f2 = 0, f3 = 0;
  bool voiced = false, formants = false;
};

void analyse_frame(const float* x, int n, FrameInfo& fi, const std::vector<double>& hann) {
  // Energy (Hann-weighted RMS).
  double e = 0, wsum = 0;
  for (int k = 0; k < n; ++k) {
    e += hann[static_cast<std::size_t>(k)] * static_cast<double>(x[k]) * static_cast<double>(x[k]);
    wsum += hann[static_cast<std::size_t>(k)];
  }
  fi.rms = std::sqrt(e / wsum);
  fi.db = fi.rms > 0 ? 20 * std::log10(fi.rms) : -200;
  if (fi.db < kSilenceDb) return;
  // Voicing: normalised autocorrelation at 8 kHz (pairs averaged), lags for 70..500 Hz.
  float half[kWindow / 2];
  const int m = n / 2;
  for (int k = 0; k < m; ++k) half[k] = 0.5f * (x[2 * k] + x[2 * k + 1]);
  double best = 0;
  for (int lag = 16; lag <= 114 && lag < m - 32; ++lag) {
    double xy = 0, xx = 0, yy = 0;
    for (int k = 0; k + lag < m; ++k) {
      xy += static_cast<double>(half[k] * half[k + lag]);
      xx += static_cast<double>(half[k] * half[k]);
      yy += static_cast<double>(half[k + lag] * half[k + lag]);
    }
    if (xx > 0 && yy > 0) best = std::max(best, xy / std::sqrt(xx * yy));
  }
  fi.voicing = best;
  // LPC on the pre-emphasised, Hamming-windowed frame.
  double y[kWindow];
  for (int k = 0; k < n; ++k) {
    const double pre = static_cast<double>(x[k]) - (k > 0 ? 0.97 * static_cast<double>(x[k - 1]) : 0.0);
    y[k] = pre * (0.54 - 0.46 * std::cos(2 * std::numbers::pi * k / (n - 1)));
  }
  double r[kOrder + 1];
  for (int l = 0; l <= kOrder; ++l) {
    double acc = 0;
    for (int k = 0; k + l < n; ++k) acc += y[k] * y[k + l];
    r[l] = acc;
  }
  r[0] *= 1.0001;  // slight white-noise correction: keeps the recursion stable
  double a[kOrder + 1];
  if (!levinson(r, kOrder, a)) return;
  std::complex<double> z[kOrder];
  roots(a, kOrder, z);
  double cand[kOrder];
  int nc = 0;
  for (int i = 0; i < kOrder; ++i) {
    if (z[i].imag() <= 0) continue;
    const double f = std::arg(z[i]) * kRate / (2 * std::numbers::pi);
    const double bw = -std::log(std::abs(z[i])) * kRate / std::numbers::pi;
    if (f > 180 && f < 4000 && bw < 450) cand[nc++] = f;
  }
  for (int i = 1; i < nc; ++i)  // insertion sort (at most kOrder / 2 candidates)
    for (int j = i; j > 0 && cand[j - 1] > cand[j]; --j) std::swap(cand[j - 1], cand[j]);
  double f1 = 0, f2 = 0, f3 = 0;
  for (int i = 0; i < nc; ++i) {
    if (f1 == 0 && cand[i] >= 200 && cand[i] <= 1200) f1 = cand[i];
    else if (f1 > 0 && f2 == 0 && cand[i] > f1 + 150 && cand[i] <= 3400) f2 = cand[i];
    else if (f2 > 0 && cand[i] > f2 + 200) {
      f3 = cand[i];
      break;
    }
  }
  fi.f1 = f1;
  fi.f2 = f2;
  fi.f3 = f3;
  fi.formants = f1 > 0 && f2 > 0;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

Result<MouthTrack> analyze_audio(std::span<const float> samples, double sample_rate, const AudioLipOptions& o,
                                 AudioLipReport* report) {
  if (!(std::isfinite(sample_rate) && sample_rate >= 8000 && sample_rate <= 384000))
    return make_error(ErrorCode::invalid_argument, "sample rate must be 8000..384000 Hz");
  if (!(std::isfinite(o.fps) && o.fps > 0 && o.fps <= 1000)) return make_error(ErrorCode::invalid_argument, "fps must be in (0, 1000]");
  if (!(std::isfinite(o.gain) && o.gain > 0)) return make_error(ErrorCode::invalid_argument, "gain must be > 0");
  if (!(std::isfinite(o.smooth) && o.smooth >= 0 && o.smooth <= 100))
    return make_error(ErrorCode::invalid_argument, "smooth must be 0..100");
  if (!(std::isfinite(o.blend) && o.blend >= 0 && o.blend <= 1)) return make_error(ErrorCode::invalid_argument, "blend must be 0..1");
  for (std::size_t k = 0; k < samples.size(); ++k)
    if (!std::isfinite(samples[k]))
      return make_error(ErrorCode::invalid_argument, "sample " + std::to_string(k) + " is not a finite number");

  const std::vector<float> x = to_16k(samples, sample_rate);
  const double duration = static_cast<double>(x.size()) / kRate;
  const std::size_t frames = static_cast<std::size_t>(std::floor(duration * o.fps)) + 1;
  std::vector<FrameInfo> info(frames);
  std::vector<double> hann(kWindow);
  for (int k = 0; k < kWindow; ++k) hann[static_cast<std::size_t>(k)] = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * (k + 0.5) / kWindow);
  std::vector<float> buf(kWindow);
  for (std::size_t f = 0; f < frames; ++f) {
    const auto centre = static_cast<std::int64_t>(std::llround(static_cast<double>(f) / o.fps * kRate));
    for (int k = 0; k < kWindow; ++k) {
      const std::int64_t i = centre - kWindow / 2 + k;
      buf[static_cast<std::size_t>(k)] = (i >= 0 && i < static_cast<std::int64_t>(x.size())) ? x[static_cast<std::size_t>(i)] : 0.0f;
    }
    analyse_frame(buf.data(), kWindow, info[f], hann);
  }

  // Gates: absolute, and relative to the loud frames (the 95th percentile of the level).
  std::vector<double> dbs;
  for (const auto& fi : info)
    if (fi.db > kSilenceDb) dbs.push_back(fi.db);
  AudioLipReport rep;
  rep.frames = frames;
  double peak = -200;
  for (const auto& fi : info) peak = std::max(peak, fi.db);
  rep.peak_rms_db = peak;
  MouthTrack track;
  track.fps = o.fps;
  track.frames.assign(frames, {});
  if (dbs.empty()) {
    rep.silent = true;
    for (auto& fr : track.frames) fr[5] = 1;
    if (report) *report = rep;
    return track;
  }
  const double loud = percentile(dbs, 0.95);
  const double gate = std::max(kSilenceDb, loud + kRelativeDb);
  const double ref_rms = std::pow(10.0, loud / 20);
  std::vector<double> l1, l2, l3;
  double total = 0, voice = 0;
  for (auto& fi : info) {
    if (fi.db < gate) {
      fi.voiced = false;
      continue;
    }
    total += fi.rms * fi.rms;
    fi.voiced = fi.voicing > 0.5;
    if (fi.voiced) ++rep.voiced_frames;
    if (fi.voiced && fi.formants) {
      l1.push_back(std::log(fi.f1));
      l2.push_back(std::log(fi.f2));
      if (fi.f3 > 0) l3.push_back(std::log(fi.f3));
    }
  }
  // One scale for the voice (the length of its vocal tract): the median F3, which moves much
  // less from vowel to vowel than F1 and F2 (so a song of mostly one vowel is not pulled towards
  // another), against the reference's.
  double lnscale = 0;
  if (!l1.empty()) {
    rep.median_f1 = std::exp(percentile(l1, 0.5));
    rep.median_f2 = std::exp(percentile(l2, 0.5));
  }
  if (l3.size() >= 3) {
    rep.median_f3 = std::exp(percentile(l3, 0.5));
    lnscale = std::clamp(std::log(kRefF3) - std::log(rep.median_f3), std::log(0.75), std::log(1.33));
  }
  rep.voice_scale = std::exp(lnscale);

  // Per frame: openness and the vowel probabilities.
  std::vector<double> open(frames, 0);
  std::vector<std::array<double, 5>> prob(frames);
  std::vector<int> label(frames, -1);
  std::array<double, 5> last{0.2, 0.2, 0.2, 0.2, 0.2};
  int last_label = -1;
  for (std::size_t f = 0; f < frames; ++f) {
    const FrameInfo& fi = info[f];
    if (fi.db < gate) continue;
    const double level = std::clamp(std::sqrt(fi.rms / ref_rms), 0.0, 1.0);
    if (fi.voiced && fi.formants) {
      const double a1 = std::log(fi.f1) + lnscale, a2 = std::log(fi.f2) + lnscale;
      double sum = 0, nearest = 1e300;
      std::array<double, 5> p{};
      for (int v = 0; v < 5; ++v) {
        const double d1 = (a1 - std::log(kProto[v][0])) / kSigma1, d2 = (a2 - std::log(kProto[v][1])) / kSigma2;
        p[static_cast<std::size_t>(v)] = std::exp(-0.5 * (d1 * d1 + d2 * d2));
        nearest = std::min(nearest, d1 * d1 + d2 * d2);
        sum += p[static_cast<std::size_t>(v)];
      }
      // Voice-like: voiced, formants found, and (F1, F2) within 3 spreads of a vowel (an instrument's
      // resonances land anywhere).
      if (nearest < 9) voice += fi.rms * fi.rms;
      if (sum > 1e-12) {
        for (double& q : p) q /= sum;
        last = p;
        last_label = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
      }
      open[f] = level;
    } else {
      // Consonants and unclear frames: the last vowel's shape, half open.
      open[f] = 0.5 * level;
    }
    prob[f] = last;
    label[f] = last_label;
  }
  // Minimum hold: a run of one label shorter than `hold` frames takes the label before it.
  const auto hold = static_cast<std::size_t>(std::lround(2 * o.smooth * o.fps / 30));
  if (hold > 1) {
    std::size_t s = 0;
    while (s < frames) {
      std::size_t e = s;
      while (e < frames && label[e] == label[s]) ++e;
      if (label[s] >= 0 && e - s < hold && s > 0 && label[s - 1] >= 0)
        for (std::size_t k = s; k < e; ++k) label[k] = label[s - 1];
      s = e;
    }
  }
  std::vector<std::array<double, kMouthChannels>> raw(frames);
  for (std::size_t f = 0; f < frames; ++f) {
    if (open[f] <= 0 || label[f] < 0) {
      raw[f][5] = 1;
      continue;
    }
    for (std::size_t v = 0; v < 5; ++v) {
      const double share = (1 - o.blend) * (static_cast<int>(v) == label[f] ? 1.0 : 0.0) + o.blend * prob[f][v];
      raw[f][v] = std::min(1.0, o.gain * open[f] * share);
    }
    raw[f][5] = 0;
  }
  // Attack / release: largest change per frame.
  const double up = o.smooth > 0 ? 1.0 / std::max(1.0, 2 * o.smooth * o.fps / 30) : 1.0;
  const double down = o.smooth > 0 ? 1.0 / std::max(1.0, 3 * o.smooth * o.fps / 30) : 1.0;
  std::array<double, kMouthChannels> cur{};
  cur[5] = raw.empty() ? 0 : raw[0][5];
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t c = 0; c < kMouthChannels; ++c) {
      const double target = raw[f][c];
      cur[c] = target > cur[c] ? std::min(target, cur[c] + up) : std::max(target, cur[c] - down);
      track.frames[f][c] = static_cast<float>(cur[c]);
    }
    double vs = 0;
    std::size_t best = 0;
    for (std::size_t v = 0; v < 5; ++v) {
      vs += cur[v];
      if (cur[v] > cur[best]) best = v;
    }
    if (vs > 0.05) {
      ++rep.open_frames;
      ++rep.vowel_frames[best];
    }
  }
  rep.voice_energy_fraction = total > 0 ? voice / total : 0;
  if (report) *report = rep;
  return track;
}

}  // namespace mmdkit::motion
