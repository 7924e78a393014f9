// HTK / Julius label file → Score (motion/lipsync.hpp parse_lab).
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/motion/lipsync.hpp"

namespace mmdkit::motion {

namespace {

bool bilabial(std::string_view p) {
  return p == "b" || p == "p" || p == "m" || p == "by" || p == "py" || p == "my";
}

}  // namespace

Result<Score> parse_lab(ByteSpan bytes) {
  std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  struct Line {
    std::string start, end, label;
    std::int64_t number;
  };
  std::vector<Line> lines;
  std::int64_t number = 0;
  bool seconds = false;
  for (std::size_t pos = 0; pos < s.size();) {
    std::size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view line = s.substr(pos, nl - pos);
    pos = nl + 1;
    ++number;
    std::vector<std::string> tok;
    for (std::size_t q = 0; q < line.size();) {
      while (q < line.size() && (line[q] == ' ' || line[q] == '\t' || line[q] == '\r')) ++q;
      std::size_t e = q;
      while (e < line.size() && line[e] != ' ' && line[e] != '\t' && line[e] != '\r') ++e;
      if (e > q) tok.emplace_back(line.substr(q, e - q));
      q = e;
    }
    if (tok.empty() || tok[0].starts_with("#")) continue;
    if (tok.size() < 3)
      return make_error(ErrorCode::invalid_value, "expected 'start end label', got '" + std::string(line) + "'", "lab", number);
    if (tok[0].find('.') != std::string::npos || tok[1].find('.') != std::string::npos) seconds = true;
    lines.push_back({tok[0], tok[1], tok[2], number});
  }
  if (lines.empty()) return make_error(ErrorCode::invalid_value, "no label line", "lab");
  Score score;
  struct Seg {
    double start, end;
    std::string label;
    std::optional<MouthShape> shape;
    std::int64_t line;
  };
  std::vector<Seg> segs;
  const double unit = seconds ? 1.0 : 1e-7;
  for (const Line& l : lines) {
    char* e1 = nullptr;
    char* e2 = nullptr;
    const double a = std::strtod(l.start.c_str(), &e1), b = std::strtod(l.end.c_str(), &e2);
    if (e1 != l.start.c_str() + l.start.size() || e2 != l.end.c_str() + l.end.size() || !std::isfinite(a) ||
        !std::isfinite(b) || a < 0)
      return make_error(ErrorCode::invalid_value, "times '" + l.start + "' '" + l.end + "' are not numbers >= 0", "lab", l.number);
    if (b < a) return make_error(ErrorCode::invalid_value, "ends before it starts", "lab", l.number);
    std::optional<MouthShape> shape = bilabial(l.label) ? std::optional(MouthShape::closed) : lyric_shape(l.label);
    segs.push_back({a * unit, b * unit, l.label, shape, l.number});
  }
  // A consonant takes the shape of the next vowel (or closure) after it: the consonants of Open
  // JTalk's / Julius's Japanese phoneme set. Any other label names nothing and is warned about.
  static constexpr std::string_view kConsonants[] = {"k",  "ky", "g",  "gy", "s",  "sh", "z",  "j",  "t",  "ch", "ts",
                                                     "d",  "dy", "ty", "n",  "ny", "h",  "hy", "f",  "b",  "by", "p",
                                                     "py", "my", "y",  "r",  "ry", "w",  "v",  "kw", "gw"};
  auto consonant = [](const std::string& label) {
    for (std::string_view c : kConsonants)
      if (label == c) return true;
    return false;
  };
  for (std::size_t k = segs.size(); k-- > 0;)
    if (!segs[k].shape && k + 1 < segs.size() && segs[k + 1].shape && consonant(segs[k].label))
      segs[k].shape = segs[k + 1].shape;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    Seg& g = segs[k];
    if (k > 0 && g.start < segs[k - 1].end) {
      score.warnings.push_back("line " + std::to_string(g.line) + " (label " + std::to_string(k) + " '" + g.label +
                               "'): starts before the previous label ends: cut there");
      g.start = segs[k - 1].end;
    }
    if (g.end <= g.start) continue;
    if (!g.shape) {
      score.warnings.push_back("line " + std::to_string(g.line) + " (label " + std::to_string(k) + "): '" + g.label +
                               "' names no mouth shape: closed");
      g.shape = MouthShape::closed;
    }
    score.notes.push_back({g.start, g.end, g.label, *g.shape});
  }
  return score;
}

}  // namespace mmdkit::motion
