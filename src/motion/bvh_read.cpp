// mmdkit motion — BVH text → Bvh (motion/bvh.hpp read_bvh; rules in docs/BVH.md "Reading").
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// A finite double from the whole token (decimal or exponent form, optional leading '+').
std::optional<double> parse_number(std::string_view t) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  if (t.empty()) return std::nullopt;
  double v = 0;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, v, std::chars_format::general);
  if (ec != std::errc{} || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Tokens of the hierarchy with their line numbers.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {
    if (s_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // UTF-8 byte order mark
  }
  std::int64_t line() const { return line_; }
  std::size_t pos() const { return pos_; }
  // Next token (a run of non-space characters; '{' and '}' stand alone), empty at the end.
  std::string_view next() {
    skip();
    if (pos_ >= s_.size()) return {};
    const std::size_t b = pos_;
    if (s_[pos_] == '{' || s_[pos_] == '}') return s_.substr(pos_++, 1);
    while (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != '\n' && s_[pos_] != '{' && s_[pos_] != '}') ++pos_;
    return s_.substr(b, pos_ - b);
  }
  std::string_view peek() {
    const std::size_t p = pos_;
    const std::int64_t l = line_;
    std::string_view t = next();
    pos_ = p;
    line_ = l;
    return t;
  }
  // The rest of the current line, trimmed (a joint name may hold spaces); stops before '{'.
  std::string_view rest_of_line() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
    const std::size_t b = pos_;
    while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '{') ++pos_;
    std::size_t e = pos_;
    while (e > b && is_space(s_[e - 1])) --e;
    return s_.substr(b, e - b);
  }
  // Moves to the start of the next line (after the current line's end).
  void next_line() {
    while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
    if (pos_ < s_.size()) {
      ++pos_;
      ++line_;
    }
  }
  bool at_end() const { return pos_ >= s_.size(); }
  std::string_view text() const { return s_; }
  // Skips spaces and line ends.
  void skip() {
    while (pos_ < s_.size() && (is_space(s_[pos_]) || s_[pos_] == '\n')) {
      if (s_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 1;
};

std::unexpected<Error> fail(ErrorCode code, std::int64_t line, std::string message, std::string section) {
  Error e{code, std::move(message), std::move(section), -1, -1, {}};
  e.line = line;
  return std::unexpected(std::move(e));
}

std::optional<BvhChannel> channel_of(std::string_view t) {
  static constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition",
                                                "Xrotation", "Yrotation", "Zrotation"};
  for (int i = 0; i < 6; ++i)
    if (iequal(t, kNames[i])) return static_cast<BvhChannel>(i);
  return std::nullopt;
}

std::string quoted(std::string_view t) {
  std::string s(t.substr(0, 40));
  if (t.size() > 40) s += "...";
  return "'" + s + "'";
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lx_(text) {}

  Result<Bvh> run() {
    if (lx_.text().find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
      return fail(ErrorCode::empty_input, -1, "no text", "");
    std::string_view t = lx_.next();
    if (!iequal(t, "HIERARCHY"))
      return fail(ErrorCode::invalid_value, lx_.line(), "expected HIERARCHY, found " + quoted(t), "hierarchy");
    for (;;) {
      t = lx_.next();
      if (t.empty()) return fail(ErrorCode::truncated, lx_.line(), "the file ends before MOTION", "hierarchy");
      if (iequal(t, "MOTION")) break;
      if (!iequal(t, "ROOT"))
        return fail(ErrorCode::invalid_value, lx_.line(),
                    "expected ROOT or MOTION, found " + quoted(t), "hierarchy");
      if (auto r = joint(-1); !r) return std::unexpected(r.error());
    }
    if (bvh_.joints.empty()) return fail(ErrorCode::invalid_value, lx_.line(), "the hierarchy has no ROOT", "hierarchy");
    return motion();
  }

 private:
  Result<std::array<double, 3>> offset(const std::string& joint) {
    std::array<double, 3> v{};
    for (int i = 0; i < 3; ++i) {
      std::string_view t = lx_.next();
      if (t.empty()) return fail(ErrorCode::truncated, lx_.line(), "the file ends inside OFFSET of joint '" + joint + "'", "hierarchy");
      auto n = parse_number(t);
      if (!n)
        return fail(ErrorCode::invalid_value, lx_.line(),
                    "OFFSET of joint '" + joint + "' needs 3 numbers, found " + quoted(t), "hierarchy");
      v[i] = *n;
    }
    return v;
  }

  Result<void> joint(std::int32_t parent) {
    const std::int64_t line = lx_.line();
    std::string name(lx_.rest_of_line());
    if (name.empty()) return fail(ErrorCode::invalid_value, line, "a ROOT / JOINT without a name", "hierarchy");
    if (bvh_.joints.size() >= kBvhMaxJoints)
      return fail(ErrorCode::limit_exceeded, line, "more than " + std::to_string(kBvhMaxJoints) + " joints", "hierarchy");
    const auto index = static_cast<std::int32_t>(bvh_.joints.size());
    BvhJoint j;
    j.name = name;
    j.parent = parent;
    j.line = line;
    bvh_.joints.push_back(std::move(j));
    if (std::string_view t = lx_.next(); t != "{")
      return fail(ErrorCode::invalid_value, lx_.line(), "expected '{' after joint '" + name + "', found " + quoted(t), "hierarchy");
    bool have_offset = false, have_channels = false;
    for (;;) {
      std::string_view t = lx_.next();
      BvhJoint& self = bvh_.joints[static_cast<std::size_t>(index)];
      if (t.empty()) return fail(ErrorCode::truncated, lx_.line(), "the file ends inside joint '" + name + "'", "hierarchy");
      if (t == "}") break;
      if (iequal(t, "OFFSET")) {
        if (have_offset) return fail(ErrorCode::invalid_value, lx_.line(), "joint '" + name + "' has two OFFSETs", "hierarchy");
        auto v = offset(name);
        if (!v) return std::unexpected(v.error());
        bvh_.joints[static_cast<std::size_t>(index)].offset = *v;
        have_offset = true;
      } else if (iequal(t, "CHANNELS")) {
        if (have_channels)
          return fail(ErrorCode::invalid_value, lx_.line(), "joint '" + name + "' has two CHANNELS lines", "hierarchy");
        have_channels = true;
        const std::int64_t cl = lx_.line();
        std::string_view ct = lx_.next();
        auto n = parse_number(ct);
        if (!n || *n < 0 || *n > 6 || *n != std::floor(*n))
          return fail(ErrorCode::invalid_value, cl,
                      "CHANNELS of joint '" + name + "' needs a count 0..6, found " + quoted(ct), "hierarchy");
        self.first_channel = bvh_.channel_count;
        for (int i = 0; i < static_cast<int>(*n); ++i) {
          std::string_view c = lx_.peek();
          auto ch = channel_of(c);
          if (!ch)
            return fail(ErrorCode::invalid_value, cl,
                        "CHANNELS of joint '" + name + "' declares " + std::to_string(static_cast<int>(*n)) +
                            " channels but lists " + std::to_string(i) +
                            (c.empty() ? "" : " (then " + quoted(c) + ", not a channel name)"),
                        "hierarchy");
          lx_.next();
          if (std::find(self.channels.begin(), self.channels.end(), *ch) != self.channels.end())
            return fail(ErrorCode::invalid_value, cl,
                        "CHANNELS of joint '" + name + "' repeats " + std::string(bvh_channel_name(*ch)), "hierarchy");
          self.channels.push_back(*ch);
        }
        if (channel_of(lx_.peek()))
          return fail(ErrorCode::invalid_value, cl,
                      "CHANNELS of joint '" + name + "' declares " + std::to_string(static_cast<int>(*n)) +
                          " channels but lists more", "hierarchy");
        bvh_.channel_count += static_cast<std::uint32_t>(self.channels.size());
      } else if (iequal(t, "JOINT")) {
        if (auto r = joint(index); !r) return r;
      } else if (iequal(t, "End")) {
        const std::int64_t el = lx_.line();
        if (std::string_view s = lx_.next(); !iequal(s, "Site"))
          return fail(ErrorCode::invalid_value, el, "expected 'End Site' in joint '" + name + "'", "hierarchy");
        if (std::string_view b = lx_.next(); b != "{")
          return fail(ErrorCode::invalid_value, lx_.line(), "expected '{' after End Site of joint '" + name + "'", "hierarchy");
        std::optional<std::array<double, 3>> off;
        for (;;) {
          std::string_view e = lx_.next();
          if (e.empty()) return fail(ErrorCode::truncated, lx_.line(), "the file ends inside End Site of joint '" + name + "'", "hierarchy");
          if (e == "}") break;
          if (!iequal(e, "OFFSET"))
            return fail(ErrorCode::invalid_value, lx_.line(),
                        "End Site of joint '" + name + "' holds " + quoted(e) + " (only OFFSET)", "hierarchy");
          auto v = offset(name);
          if (!v) return std::unexpected(v.error());
          off = *v;
        }
        bvh_.joints[static_cast<std::size_t>(index)].end_site = off.value_or(std::array<double, 3>{});
      } else {
        return fail(ErrorCode::invalid_value, lx_.line(),
                    "unknown keyword " + quoted(t) + " in joint '" + name + "' (OFFSET, CHANNELS, JOINT, End Site)",
                    "hierarchy");
      }
    }
    if (!have_offset) return fail(ErrorCode::invalid_value, lx_.line(), "joint '" + name + "' has no OFFSET", "hierarchy");
    return {};
  }

  // Which joint a channel index belongs to, and the names of the channels from `first` on.
  std::string missing(std::size_t have) const {
    for (const BvhJoint& j : bvh_.joints) {
      if (j.channels.empty() || j.first_channel + j.channels.size() <= have) continue;
      std::string s = "joint '" + j.name + "' misses channel";
      std::string names;
      int count = 0;
      for (std::size_t c = 0; c < j.channels.size(); ++c)
        if (j.first_channel + c >= have) {
          names += " " + std::string(bvh_channel_name(j.channels[c]));
          ++count;
        }
      return s + (count > 1 ? "s" : "") + names;
    }
    return {};
  }

  Result<Bvh> motion() {
    // Frames: N
    std::string_view t = lx_.next();
    const std::int64_t fl = lx_.line();
    std::string_view value;
    if (iequal(t, "Frames:")) {
      value = lx_.next();
    } else if (iequal(t, "Frames") && lx_.peek() == ":") {
      lx_.next();
      value = lx_.next();
    } else {
      return fail(t.empty() ? ErrorCode::truncated : ErrorCode::invalid_value, lx_.line(),
                  "expected 'Frames:' after MOTION, found " + quoted(t), "motion");
    }
    auto frames = parse_number(value);
    if (!frames || *frames < 0 || *frames != std::floor(*frames) || *frames > 4294967295.0)
      return fail(ErrorCode::invalid_value, fl, "'Frames:' needs a whole number ≥ 0, found " + quoted(value), "motion");
    // Frame Time: T
    t = lx_.next();
    const std::int64_t tl = lx_.line();
    if (!iequal(t, "Frame")) return fail(ErrorCode::invalid_value, tl, "expected 'Frame Time:', found " + quoted(t), "motion");
    t = lx_.next();
    if (iequal(t, "Time")) {
      if (lx_.next() != ":") return fail(ErrorCode::invalid_value, tl, "expected 'Frame Time:'", "motion");
    } else if (!iequal(t, "Time:")) {
      return fail(ErrorCode::invalid_value, tl, "expected 'Frame Time:', found " + quoted(t), "motion");
    }
    value = lx_.next();
    auto ft = parse_number(value);
    if (!ft || !(*ft > 0))
      return fail(ErrorCode::invalid_value, tl, "'Frame Time:' needs a number > 0 (seconds), found " + quoted(value), "motion");
    bvh_.frame_time = *ft;
    const auto frame_count = static_cast<std::uint64_t>(*frames);
    const std::uint64_t cc = bvh_.channel_count;
    const std::uint64_t total = frame_count * cc;
    if (total > kBvhMaxValues)
      return fail(ErrorCode::limit_exceeded, fl,
                  std::to_string(frame_count) + " frames × " + std::to_string(cc) + " channels is more than " +
                      std::to_string(kBvhMaxValues) + " values",
                  "motion");
    // Each value needs at least two characters ("0 "): never reserve more than the text can hold.
    const std::uint64_t left = lx_.text().size() - lx_.pos();
    bvh_.values.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(total, left / 2 + 1)));
    bvh_.frame_count = static_cast<std::uint32_t>(frame_count);
    lx_.next_line();
    std::uint64_t f = 0;
    const std::string_view s = lx_.text();
    std::size_t p = lx_.pos();
    std::int64_t line = lx_.line();
    while (p < s.size()) {
      const std::size_t e = std::min(s.find('\n', p), s.size());
      std::string_view ln = s.substr(p, e - p);
      std::size_t count = 0;
      std::size_t i = 0;
      bool blank = true;
      while (i < ln.size()) {
        while (i < ln.size() && is_space(ln[i])) ++i;
        if (i >= ln.size()) break;
        std::size_t j = i;
        while (j < ln.size() && !is_space(ln[j])) ++j;
        std::string_view tok = ln.substr(i, j - i);
        blank = false;
        if (f >= frame_count)
          return fail(ErrorCode::invalid_value, line,
                      "more frame lines than 'Frames: " + std::to_string(frame_count) + "' declares (inconsistent frame count)",
                      "motion");
        if (count >= cc)
          return fail(ErrorCode::invalid_value, line,
                      "frame " + std::to_string(f) + " has more than the " + std::to_string(cc) + " values of the channels",
                      "motion");
        auto v = parse_number(tok);
        if (!v)
          return fail(ErrorCode::invalid_value, line,
                      "frame " + std::to_string(f) + ", value " + std::to_string(count) + " (" + channel_label(count) +
                          "): not a number: " + quoted(tok),
                      "motion");
        bvh_.values.push_back(*v);
        ++count;
        i = j;
      }
      if (!blank) {
        if (count < cc)
          return fail(ErrorCode::truncated, line,
                      "frame " + std::to_string(f) + " has " + std::to_string(count) + " of " + std::to_string(cc) +
                          " values: " + missing(count),
                      "motion");
        ++f;
      }
      p = e + 1;
      ++line;
    }
    if (cc == 0) f = frame_count;  // no channels: frames carry no values
    if (f < frame_count)
      return fail(ErrorCode::truncated, line - (s.empty() || s.back() == '\n' ? 1 : 0),
                  "the file ends after " + std::to_string(f) + " of the " + std::to_string(frame_count) +
                      " frames 'Frames:' declares (inconsistent frame count)",
                  "motion");
    return std::move(bvh_);
  }

  std::string channel_label(std::size_t index) const {
    for (const BvhJoint& j : bvh_.joints)
      if (index >= j.first_channel && index < j.first_channel + j.channels.size())
        return "joint '" + j.name + "' " + std::string(bvh_channel_name(j.channels[index - j.first_channel]));
    return "?";
  }

  Lexer lx_;
  Bvh bvh_;
};

}  // namespace

std::string_view bvh_channel_name(BvhChannel c) noexcept {
  switch (c) {
    case BvhChannel::x_position: return "Xposition";
    case BvhChannel::y_position: return "Yposition";
    case BvhChannel::z_position: return "Zposition";
    case BvhChannel::x_rotation: return "Xrotation";
    case BvhChannel::y_rotation: return "Yrotation";
    case BvhChannel::z_rotation: return "Zrotation";
  }
  return "?";
}

Result<Bvh> read_bvh(std::string_view text) { return Parser(text).run(); }

}  // namespace mmdkit::motion
