// UTAU .ust → Score (motion/lipsync.hpp parse_ust).
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mmdkit/core/text.hpp"
#include "mmdkit/motion/lipsync.hpp"
#include "motion/lipsync_text.hpp"

namespace mmdkit::motion {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

struct Section {
  std::string name;
  std::string length, lyric, tempo;
  std::int64_t line = 0;
};

}  // namespace

Result<Score> parse_ust(ByteSpan bytes) {
  std::string_view raw(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (raw.starts_with("\xEF\xBB\xBF")) raw.remove_prefix(3);
  const bool utf8 = raw.find("Charset=UTF-8") != std::string_view::npos || detail::valid_utf8(raw);
  const std::string text = utf8 ? std::string(raw)
                                : decode_text(ByteSpan(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()),
                                              Encoding::cp932);
  std::vector<Section> sections;
  std::int64_t line_no = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string_view line = trim(std::string_view(text).substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      sections.push_back({std::string(line.substr(1, line.size() - 2)), {}, {}, {}, line_no});
      continue;
    }
    if (sections.empty()) continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    Section& s = sections.back();
    if (key == "Length") s.length = value;
    else if (key == "Lyric") s.lyric = value;
    else if (key == "Tempo") s.tempo = value;
  }
  auto number = [](const std::string& v, double& out) {
    char* end = nullptr;
    out = std::strtod(v.c_str(), &end);
    return !v.empty() && end == v.c_str() + v.size() && std::isfinite(out);
  };
  Score score;
  double tempo = 120, t = 0;
  MouthShape previous = MouthShape::rest;
  std::size_t index = 0;
  for (const Section& s : sections) {
    const bool note = s.name.size() >= 2 && s.name[0] == '#' &&
                      s.name.find_first_not_of("0123456789", 1) == std::string::npos;
    if (!note && s.name != "#SETTING") continue;
    if (!s.tempo.empty()) {
      double v = 0;
      if (!number(s.tempo, v) || v <= 0)
        return make_error(ErrorCode::invalid_value, "Tempo '" + s.tempo + "' is not a positive number (BPM)",
                          "[" + s.name + "] (line " + std::to_string(s.line) + ")");
      tempo = v;
    }
    if (!note) continue;
    double ticks = 0;
    if (!number(s.length, ticks) || ticks <= 0)
      return make_error(ErrorCode::invalid_value,
                        s.length.empty() ? "the note has no Length" : "Length '" + s.length + "' is not a positive number of ticks",
                        "[" + s.name + "] (line " + std::to_string(s.line) + ")");
    const double dt = ticks / 480.0 * 60.0 / tempo;
    ScoreNote n;
    n.start = t;
    n.end = t + dt;
    n.lyric = s.lyric;
    if (auto shape = lyric_shape(s.lyric, previous)) {
      n.shape = *shape;
    } else {
      n.shape = MouthShape::closed;
      score.warnings.push_back("note " + std::to_string(index) + " ([" + s.name + "]): lyric '" + s.lyric +
                               "' names no vowel: the mouth is closed over it");
    }
    previous = n.shape;
    score.notes.push_back(std::move(n));
    t += dt;
    ++index;
  }
  if (score.notes.empty()) return make_error(ErrorCode::invalid_value, "no note section ([#0000], ...) in the file", "ust");
  return score;
}

}  // namespace mmdkit::motion
