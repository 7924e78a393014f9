// Score → keys and per-frame weights (motion/lipsync.hpp read_score, score_keys, score_track).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "mmdkit/motion/lipsync.hpp"

namespace mmdkit::motion {

Result<Score> read_score(ByteSpan bytes, std::string_view extension) {
  std::string ext;
  for (char c : extension) ext.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (ext == ".ust") return parse_ust(bytes);
  if (ext == ".vsqx" || ext == ".vsq3" || ext == ".vsq4") return parse_vsqx(bytes);
  if (ext == ".lab") return parse_lab(bytes);
  return make_error(ErrorCode::unsupported, "'" + std::string(extension) + "' is not a score mmdkit reads (.ust, .vsqx, .vsq3, .lab)");
}

Result<ScoreKeys> score_keys(const Score& score, const ScoreLipOptions& o) {
  if (!(std::isfinite(o.fps) && o.fps > 0 && o.fps <= 1000))
    return make_error(ErrorCode::invalid_argument, "fps must be in (0, 1000]");
  if (!(std::isfinite(o.gain) && o.gain > 0)) return make_error(ErrorCode::invalid_argument, "gain must be > 0");
  if (!(std::isfinite(o.lead_ms) && o.lead_ms >= 0 && o.lead_ms <= 10000))
    return make_error(ErrorCode::invalid_argument, "lead must be 0..10000 ms");
  if (o.transition_frames < 1) return make_error(ErrorCode::invalid_argument, "transition frames must be >= 1");
  const double lead = o.lead_ms / 1000.0;
  for (std::size_t n = 0; n < score.notes.size(); ++n) {
    const ScoreNote& note = score.notes[n];
    if (!(std::isfinite(note.start) && std::isfinite(note.end) && note.start >= 0 && note.end >= note.start))
      return make_error(ErrorCode::invalid_value, "note times must be finite, start >= 0, end >= start", "notes",
                        static_cast<std::int64_t>(n));
    if (note.end * o.fps > static_cast<double>(kMaxLipFrames)) {
      char seconds[32];  // %g: a double far beyond any integer type is still a number here
      std::snprintf(seconds, sizeof seconds, "%.6g", note.end);
      return make_error(ErrorCode::limit_exceeded,
                        "the note ends after frame " + std::to_string(kMaxLipFrames) + " (" + seconds +
                            " s): a tempo or length out of range?",
                        "notes", static_cast<std::int64_t>(n));
    }
  }
  const auto limit = static_cast<double>(kMaxLipFrames);
  auto frame = [&](double t) {
    return static_cast<std::int64_t>(std::clamp(std::round((t - lead) * o.fps), 0.0, limit));
  };
  // Segments tiling [0, end): each note's frames [A, B), gaps closed, equal neighbours merged.
  struct Seg {
    std::int64_t a, b;
    std::size_t channel;
  };
  std::vector<Seg> segs;
  auto channel_of = [](MouthShape s) { return s == MouthShape::rest ? std::size_t{5} : static_cast<std::size_t>(s); };
  auto push = [&](std::int64_t a, std::int64_t b, std::size_t c) {
    if (!segs.empty()) a = std::max(a, segs.back().b);
    if (b <= a) return;  // shorter than a frame after rounding: covered by its neighbours
    if (!segs.empty() && segs.back().b < a) {
      if (segs.back().channel == 5) segs.back().b = a;
      else segs.push_back({segs.back().b, a, 5});
    }
    if (segs.empty() && a > 0) segs.push_back({0, a, 5});
    if (!segs.empty() && segs.back().channel == c) segs.back().b = b;
    else segs.push_back({a, b, c});
  };
  for (const ScoreNote& n : score.notes) push(frame(n.start), frame(n.end), channel_of(n.shape));
  ScoreKeys k;
  k.fps = o.fps;
  if (segs.empty()) {
    k.keys[5].emplace_back(0, 1.0f);
    return k;
  }
  // The end: closed after the last note.
  if (const Seg end = segs.back(); end.channel != 5) segs.push_back({end.b, end.b + 1, 5});
  const std::int64_t T = o.transition_frames;
  const float full = static_cast<float>(std::min(1.0, o.gain));
  std::vector<std::int64_t> last(segs.size());
  for (std::size_t n = 0; n < segs.size(); ++n) last[n] = std::max(segs[n].a, segs[n].b - T);
  const Seg final_seg = segs[segs.size() - 1];
  last[segs.size() - 1] = std::max(final_seg.a, final_seg.b - 1);  // the final segment: held to its end, no ramp
  for (std::size_t n = 0; n < segs.size(); ++n) {
    const Seg& g = segs[n];
    auto& ch = k.keys[g.channel];
    const float w = g.channel == 5 ? 1.0f : full;
    auto add = [&](std::int64_t f, float v) {
      if (!ch.empty() && ch.back().first == f) {
        ch.back().second = std::max(ch.back().second, v);
        return;
      }
      ch.emplace_back(static_cast<std::uint32_t>(f), v);
    };
    if (n > 0) add(std::max(g.a - T, last[n - 1]), 0.0f);
    add(g.a, w);
    if (last[n] != g.a) add(last[n], w);
    if (n + 1 < segs.size()) add(g.b, 0.0f);
  }
  k.last_frame = static_cast<std::uint32_t>(last[segs.size() - 1]);
  return k;
}

MouthTrack score_track(const ScoreKeys& keys) {
  MouthTrack t;
  t.fps = keys.fps;
  t.frames.assign(static_cast<std::size_t>(keys.last_frame) + 1, {});
  for (std::size_t c = 0; c < kMouthChannels; ++c) {
    const auto& ks = keys.keys[c];
    if (ks.empty()) continue;
    for (std::size_t f = 0; f < t.frames.size(); ++f) {
      const auto it = std::upper_bound(ks.begin(), ks.end(), static_cast<std::uint32_t>(f),
                                       [](std::uint32_t x, const auto& key) { return x < key.first; });
      float v;
      if (it == ks.begin()) v = ks.front().second;
      else if (it == ks.end()) v = ks.back().second;
      else {
        const auto& a = *(it - 1);
        const auto& b = *it;
        v = a.second + (b.second - a.second) * static_cast<float>(f - a.first) / static_cast<float>(b.first - a.first);
      }
      t.frames[f][c] = v;
    }
  }
  return t;
}

}  // namespace mmdkit::motion
