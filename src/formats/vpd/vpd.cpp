// VPD reader and writer (vpd.hpp). The reader records every token's text and the bytes between
// tokens so that write() reproduces an unmodified file byte for byte.
#include "mmdkit/formats/vpd.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/number.hpp"
#include "core/try.hpp"

namespace mmdkit::vpd {

namespace {

// CP932 bytes of the comments MMD writes (親ファイル名, 総ポーズボーン数).
constexpr char kModelComment[] = "\x90\x65\x83\x74\x83\x40\x83\x43\x83\x8b\x96\xbc";
constexpr char kCountComment[] = "\x91\x8d\x83\x7c\x81\x5b\x83\x59\x83\x7b\x81\x5b\x83\x93\x90\x94";

std::string eol(LineEnding le) { return le == LineEnding::crlf ? "\r\n" : "\n"; }

bool is_ws(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(std::uint8_t c) { return c >= '0' && c <= '9'; }
bool is_number_char(std::uint8_t c) {
  return is_digit(c) || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

class Parser {
 public:
  explicit Parser(ByteSpan in) : in_(in) {}

  std::size_t size() const { return in_.size(); }
  std::uint8_t at(std::size_t p) const { return in_[p]; }
  std::string text(std::size_t b, std::size_t e) const {
    return std::string(reinterpret_cast<const char*>(in_.data()) + b, e - b);
  }
  bool starts_with(std::size_t p, std::string_view s) const {
    return p <= in_.size() && in_.size() - p >= s.size() && std::memcmp(in_.data() + p, s.data(), s.size()) == 0;
  }
  /// True if the input ends at p and what is there is a proper prefix of s.
  bool prefix_at_end(std::size_t p, std::string_view s) const {
    return in_.size() - p < s.size() && std::memcmp(in_.data() + p, s.data(), in_.size() - p) == 0;
  }

  /// Skips whitespace and // comments (to the end of the line).
  std::size_t skip_ws(std::size_t p) const {
    for (;;) {
      if (p < in_.size() && is_ws(in_[p])) {
        ++p;
      } else if (starts_with(p, "//")) {
        while (p < in_.size() && in_[p] != '\n') ++p;
      } else {
        return p;
      }
    }
  }
  std::size_t skip_blanks(std::size_t p) const {
    while (p < in_.size() && (in_[p] == ' ' || in_[p] == '\t')) ++p;
    return p;
  }
  /// After a closing "}" or ";": spaces, an optional comment and the line end (when the rest of
  /// the line holds nothing else).
  std::size_t rest_of_line(std::size_t p) const {
    std::size_t q = skip_blanks(p);
    if (starts_with(q, "//"))
      while (q < in_.size() && in_[q] != '\n') ++q;
    if (starts_with(q, "\r\n")) return q + 2;
    if (q < in_.size() && in_[q] == '\n') return q + 1;
    return q == in_.size() ? q : p;
  }

  std::int64_t line_of(std::size_t offset) const {
    offset = std::min(offset, in_.size());
    return 1 + std::count(in_.begin(), in_.begin() + static_cast<std::ptrdiff_t>(offset), std::uint8_t{'\n'});
  }

  std::unexpected<Error> fail(ErrorCode code, const std::string& section, std::size_t offset,
                              const std::string& why) const {
    const std::int64_t line = line_of(offset);
    return make_error(code, "line " + std::to_string(line) + ": " + why, section, line,
                      static_cast<std::int64_t>(offset));
  }
  /// truncated at the end of input, else invalid_value.
  std::unexpected<Error> expected(const std::string& section, std::size_t p, const std::string& what) const {
    if (p >= in_.size()) return fail(ErrorCode::truncated, section, p, "input ends where " + what + " was expected");
    return fail(ErrorCode::invalid_value, section, p, "expected " + what + ", found '" + preview(p) + "'");
  }
  std::string preview(std::size_t p) const {
    std::size_t e = p;
    while (e < in_.size() && e - p < 16 && in_[e] != '\n' && in_[e] != '\r') ++e;
    std::string s = text(p, e);
    for (char& c : s)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return s;
  }

  /// Expects `c` after optional whitespace and comments; returns the position after it.
  Result<std::size_t> expect_char(const std::string& section, std::size_t p, char c) const {
    std::size_t q = skip_ws(p);
    if (q < in_.size() && in_[q] == c) return q + 1;
    return expected(section, q, std::string("'") + c + "'");
  }

  /// A number token at p (p is already past whitespace). Returns its end.
  Result<std::size_t> number(const std::string& section, std::size_t p, float& value) const {
    std::size_t e = p;
    while (e < in_.size() && is_number_char(in_[e])) ++e;
    if (e == p) return expected(section, p, "a number");
    auto v = parse_number(text(p, e));
    if (!v) {
      if (e == in_.size()) return fail(ErrorCode::truncated, section, p, "input ends inside the number '" + text(p, e) + "'");
      return fail(ErrorCode::invalid_value, section, p, "'" + text(p, e) + "' is not a number");
    }
    value = *v;
    return e;
  }

 private:
  ByteSpan in_;
};

struct NameSpan {
  std::size_t begin, end;
};

// Reads "<keyword><digits>{<name>" at p (the keyword already matched). Fills index text and name.
Result<std::size_t> block_head(const Parser& ps, const std::string& section, std::size_t p, std::string& index,
                               NameSpan& name) {
  std::size_t q = p;
  while (q < ps.size() && is_digit(ps.at(q))) ++q;
  if (q == p) return ps.expected(section, q, "the block number");
  if (q - p > 10) return ps.fail(ErrorCode::invalid_value, section, p, "block number has more than 10 digits");
  index = ps.text(p, q);
  if (q >= ps.size() || ps.at(q) != '{') return ps.expected(section, q, "'{'");
  ++q;
  std::size_t e = q;
  while (e < ps.size() && ps.at(e) != '\n') ++e;
  if (e == ps.size()) return ps.fail(ErrorCode::truncated, section, q, "input ends inside the name line");
  std::size_t ne = e;
  if (ne > q && ps.at(ne - 1) == '\r') --ne;
  name = {q, ne};
  return ne;
}

}  // namespace

std::optional<float> parse_number(std::string_view t) {
  std::size_t i = 0;
  bool plus = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) plus = t[i++] == '+';
  std::size_t digits = 0, dots = 0;
  while (i < t.size() && (is_digit(static_cast<std::uint8_t>(t[i])) || t[i] == '.')) {
    if (t[i] == '.') ++dots; else ++digits;
    ++i;
  }
  if (digits == 0 || dots > 1) return std::nullopt;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t ed = 0;
    while (i < t.size() && is_digit(static_cast<std::uint8_t>(t[i]))) ++i, ++ed;
    if (ed == 0) return std::nullopt;
  }
  if (i != t.size()) return std::nullopt;
  const std::string_view body = plus ? t.substr(1) : t;
  if (auto v = parse_float(body)) return v;
  // The syntax is valid, so parse_float refused only a value beyond float range: ±inf, as strtof
  // (and MMD's atof) give.
  const std::string s(body);
  return std::strtof(s.c_str(), nullptr);
}

std::string format_number(float v) {
  char buf[128];
  int n = std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
  if (n > 0 && static_cast<std::size_t>(n) < sizeof buf) {
    auto back = parse_number(std::string_view(buf, static_cast<std::size_t>(n)));
    if (back && std::bit_cast<std::uint32_t>(*back) == std::bit_cast<std::uint32_t>(v)) return std::string(buf, static_cast<std::size_t>(n));
  }
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

BoneLayout canonical_bone_layout(LineEnding le) {
  const std::string e = eol(le);
  BoneLayout l;
  l.present = true;
  l.lead = e;
  l.gaps = {e + "  ", ",", ",", ";\t\t\t\t// trans x,y,z" + e + "  ", ",", ",", ",",
            ";\t\t// Quaternion x,y,z,w" + e + "}" + e};
  return l;
}

MorphLayout canonical_morph_layout(LineEnding le) {
  const std::string e = eol(le);
  MorphLayout l;
  l.present = true;
  l.lead = e;
  l.gaps = {e + "  ", ";\t\t\t\t// weight" + e + "}" + e};
  return l;
}

HeaderLayout canonical_header_layout(LineEnding le) {
  const std::string e = eol(le);
  HeaderLayout h;
  h.present = true;
  h.after_signature = e + e;
  h.after_model_file = std::string(";\t\t// ") + kModelComment + e;
  h.after_count = std::string(";\t\t\t\t// ") + kCountComment + e;
  h.tail = e;
  return h;
}

bool sniff(ByteSpan bytes) noexcept {
  return bytes.size() >= kSignature.size() && std::memcmp(bytes.data(), kSignature.data(), kSignature.size()) == 0;
}

Result<Pose> read(ByteSpan bytes, const ReadOptions& options) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes", "header", -1, 0);
  Parser ps(bytes);
  const std::string hdr = "header";
  if (!sniff(bytes)) {
    if (ps.prefix_at_end(0, kSignature))
      return ps.fail(ErrorCode::truncated, hdr, bytes.size(), "input ends inside the signature");
    return ps.fail(ErrorCode::bad_signature, hdr, 0, "does not start with \"Vocaloid Pose Data file\"");
  }
  Pose pose;
  {
    const auto nl = std::find(bytes.begin(), bytes.end(), std::uint8_t{'\n'});
    pose.line_ending = (nl != bytes.end() && nl != bytes.begin() && *(nl - 1) == '\r') || nl == bytes.end()
                           ? LineEnding::crlf
                           : LineEnding::lf;
  }
  HeaderLayout& h = pose.layout;
  h.present = true;
  std::size_t p = kSignature.size();
  // Parent model file name: up to ";" on its line.
  std::size_t q = ps.skip_ws(p);
  h.after_signature = ps.text(p, q);
  std::size_t semi = q;
  while (semi < ps.size() && ps.at(semi) != ';' && ps.at(semi) != '\n') ++semi;
  if (semi == ps.size()) return ps.fail(ErrorCode::truncated, hdr, semi, "input ends inside the model file name line");
  if (ps.at(semi) != ';') return ps.fail(ErrorCode::invalid_value, hdr, semi, "model file name line has no ';'");
  NameSpan model{q, semi};
  // Bone count.
  p = ps.skip_ws(semi + 1);
  h.after_model_file = ps.text(semi, p);
  q = p;
  while (q < ps.size() && is_digit(ps.at(q))) ++q;
  if (q == p) return ps.expected(hdr, p, "the bone count");
  if (q - p > 9) return ps.fail(ErrorCode::invalid_value, hdr, p, "bone count has more than 9 digits");
  h.count = ps.text(p, q);
  std::uint64_t count = 0;
  std::from_chars(h.count.data(), h.count.data() + h.count.size(), count);
  {
    std::size_t s = ps.skip_blanks(q);
    if (s >= ps.size() || ps.at(s) != ';') return ps.expected(hdr, s, "';' after the bone count");
    std::size_t e = ps.rest_of_line(s + 1);
    h.after_count = ps.text(q, e);
    p = e;
  }
  if (count > (ps.size() - p) / kMinBoneBlockSize)
    return make_error(ErrorCode::count_too_large,
                      "line " + std::to_string(ps.line_of(q)) + ": bone count " + std::to_string(count) + " needs at least " +
                          std::to_string(count * kMinBoneBlockSize) + " bytes, " + std::to_string(ps.size() - p) + " left",
                      hdr, ps.line_of(q), static_cast<std::int64_t>(q - h.count.size()));
  pose.bones.reserve(static_cast<std::size_t>(count));

  std::vector<NameSpan> bone_names, morph_names;
  bone_names.reserve(static_cast<std::size_t>(count));
  for (;;) {
    const std::size_t lead_begin = p;
    p = ps.skip_ws(p);
    if (p == ps.size()) {
      h.tail = ps.text(lead_begin, p);
      break;
    }
    if (ps.starts_with(p, "Bone")) {
      const std::string sec = "bone " + std::to_string(pose.bones.size());
      if (!pose.morphs.empty())
        return ps.fail(ErrorCode::invalid_value, sec, p, "Bone block after Morph blocks");
      if (pose.bones.size() == count)
        return ps.fail(ErrorCode::invalid_value, sec, p, "more Bone blocks than the bone count " + std::to_string(count));
      Bone b;
      b.layout.present = true;
      b.layout.lead = ps.text(lead_begin, p);
      NameSpan name{};
      MMDKIT_TRY_ASSIGN(auto r, block_head(ps, sec, p + 4, b.layout.index, name));
      p = r;
      float* values[7] = {&b.translation[0], &b.translation[1], &b.translation[2], &b.rotation[0],
                          &b.rotation[1],    &b.rotation[2],    &b.rotation[3]};
      for (std::size_t i = 0; i < 7; ++i) {
        std::size_t g = p;
        if (i > 0) {
          MMDKIT_TRY_ASSIGN(auto s, ps.expect_char(sec, p, i == 3 ? ';' : ','));
          g = s;
        }
        g = ps.skip_ws(g);
        b.layout.gaps[i] = ps.text(p, g);
        MMDKIT_TRY_ASSIGN(auto e, ps.number(sec, g, *values[i]));
        b.layout.numbers[i] = ps.text(g, e);
        p = e;
      }
      MMDKIT_TRY_ASSIGN(auto s, ps.expect_char(sec, p, ';'));
      MMDKIT_TRY_ASSIGN(auto c, ps.expect_char(sec, s, '}'));
      const std::size_t e = ps.rest_of_line(c);
      b.layout.gaps[7] = ps.text(p, e);
      p = e;
      bone_names.push_back(name);
      pose.bones.push_back(std::move(b));
    } else if (ps.starts_with(p, "Morph")) {
      const std::string sec = "morph " + std::to_string(pose.morphs.size());
      if (pose.bones.size() < count)
        return ps.fail(ErrorCode::invalid_value, sec, p,
                       "Morph block after " + std::to_string(pose.bones.size()) + " of " + std::to_string(count) +
                           " counted Bone blocks");
      Morph m;
      m.layout.present = true;
      m.layout.lead = ps.text(lead_begin, p);
      NameSpan name{};
      MMDKIT_TRY_ASSIGN(auto r, block_head(ps, sec, p + 5, m.layout.index, name));
      p = r;
      std::size_t g = ps.skip_ws(p);
      m.layout.gaps[0] = ps.text(p, g);
      MMDKIT_TRY_ASSIGN(auto e, ps.number(sec, g, m.weight));
      m.layout.number = ps.text(g, e);
      p = e;
      MMDKIT_TRY_ASSIGN(auto s, ps.expect_char(sec, p, ';'));
      MMDKIT_TRY_ASSIGN(auto c, ps.expect_char(sec, s, '}'));
      const std::size_t end = ps.rest_of_line(c);
      m.layout.gaps[1] = ps.text(p, end);
      p = end;
      morph_names.push_back(name);
      pose.morphs.push_back(std::move(m));
    } else if (ps.prefix_at_end(p, "Bone") || ps.prefix_at_end(p, "Morph")) {
      return ps.fail(ErrorCode::truncated, "bone " + std::to_string(pose.bones.size()), p, "input ends inside a block keyword");
    } else {
      return ps.expected(pose.morphs.empty() ? "bone " + std::to_string(pose.bones.size())
                                             : "morph " + std::to_string(pose.morphs.size()),
                         p, "'Bone' or 'Morph'");
    }
  }
  if (pose.bones.size() < count)
    return ps.fail(ErrorCode::truncated, "bone " + std::to_string(pose.bones.size()), ps.size(),
                   "input ends after " + std::to_string(pose.bones.size()) + " of " + std::to_string(count) +
                       " counted Bone blocks");

  // Names: raw bytes, then decoded in the file's encoding (detected over all names).
  auto span_of = [&](NameSpan n) { return bytes.subspan(n.begin, n.end - n.begin); };
  std::vector<ByteSpan> all;
  all.reserve(1 + bone_names.size() + morph_names.size());
  all.push_back(span_of(model));
  for (NameSpan n : bone_names) all.push_back(span_of(n));
  for (NameSpan n : morph_names) all.push_back(span_of(n));
  pose.encoding = options.encoding ? *options.encoding : detect_legacy_encoding(all);
  auto fill = [&](NameSpan n, EncodedText& out) {
    ByteSpan s = span_of(n);
    out.raw.assign(s.begin(), s.end());
    out.text = decode_text(s, pose.encoding);
  };
  fill(model, pose.model_file);
  for (std::size_t i = 0; i < pose.bones.size(); ++i) fill(bone_names[i], pose.bones[i].name);
  for (std::size_t i = 0; i < pose.morphs.size(); ++i) fill(morph_names[i], pose.morphs[i].name);
  return pose;
}

Result<Pose> read_file(const std::filesystem::path& path, const ReadOptions& options) {
  return parse_file(path, [&](ByteSpan bytes) { return read(bytes, options); });
}

namespace {

Result<std::string> name_bytes(const EncodedText& name, Encoding enc, const std::string& what, bool model_file) {
  const std::vector<std::uint8_t>& raw = name.raw;
  const std::string& text = name.text;
  std::string out;
  if (!raw.empty()) {
    out.assign(raw.begin(), raw.end());
  } else {
    auto b = encode_text(text, enc);
    if (!b) {
      Error e = b.error();
      e.section = what;
      return std::unexpected(std::move(e));
    }
    out.assign(b->begin(), b->end());
  }
  // A bone or morph name runs to the end of its line, so a final '\r' would merge into a CRLF
  // line ending; the model file name ends at ';' and may end with '\r' (fuzz_vpd finding).
  if (out.find('\n') != std::string::npos || (!model_file && !out.empty() && out.back() == '\r'))
    return make_error(ErrorCode::invalid_argument, "name holds a line break", what);
  if (model_file && out.find(';') != std::string::npos)
    return make_error(ErrorCode::invalid_argument, "model file name holds ';'", what);
  // The reader skips spacing and // comments before the model file name (fuzz_vpd_json finding:
  // a name "//" came back as a comment, the file unreadable).
  if (model_file && !out.empty() && (out[0] == ' ' || out[0] == '\t' || out[0] == '\r' || out.starts_with("//")))
    return make_error(ErrorCode::invalid_argument, "model file name begins with spacing or '//' (VPD reads them as "
                                                   "spacing or a comment)", what);
  return out;
}

Result<std::string> number_text(const std::string& token, float v, const std::string& what) {
  if (!token.empty()) {
    auto t = parse_number(token);
    if (t && std::bit_cast<std::uint32_t>(*t) == std::bit_cast<std::uint32_t>(v)) return token;
  }
  if (!std::isfinite(v)) return make_error(ErrorCode::invalid_argument, "non-finite number has no VPD form", what);
  return format_number(v);
}

}  // namespace

Result<std::vector<std::uint8_t>> write(const Pose& pose) {
  std::string out;
  const HeaderLayout h = pose.layout.present ? pose.layout : canonical_header_layout(pose.line_ending);
  const BoneLayout cb = canonical_bone_layout(pose.line_ending);
  const MorphLayout cm = canonical_morph_layout(pose.line_ending);
  out += kSignature;
  out += h.after_signature;
  MMDKIT_TRY_ASSIGN(auto model, name_bytes(pose.model_file, pose.encoding, "header", true));
  out += model;
  out += h.after_model_file;
  {
    std::uint64_t c = 0;
    auto r = std::from_chars(h.count.data(), h.count.data() + h.count.size(), c);
    const bool keep = !h.count.empty() && r.ec == std::errc{} && r.ptr == h.count.data() + h.count.size() &&
                      std::all_of(h.count.begin(), h.count.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
                      c == pose.bones.size();
    out += keep ? h.count : std::to_string(pose.bones.size());
  }
  out += h.after_count;
  for (std::size_t i = 0; i < pose.bones.size(); ++i) {
    const Bone& b = pose.bones[i];
    const std::string sec = "bone " + std::to_string(i);
    const BoneLayout& l = b.layout.present ? b.layout : cb;
    out += l.lead;
    out += "Bone";
    out += b.layout.index.empty() ? std::to_string(i) : b.layout.index;
    out += '{';
    MMDKIT_TRY_ASSIGN(auto name, name_bytes(b.name, pose.encoding, sec, false));
    out += name;
    const float values[7] = {b.translation[0], b.translation[1], b.translation[2], b.rotation[0],
                             b.rotation[1],    b.rotation[2],    b.rotation[3]};
    for (std::size_t j = 0; j < 7; ++j) {
      out += l.gaps[j];
      MMDKIT_TRY_ASSIGN(auto t, number_text(b.layout.numbers[j], values[j], sec));
      out += t;
    }
    out += l.gaps[7];
  }
  for (std::size_t i = 0; i < pose.morphs.size(); ++i) {
    const Morph& m = pose.morphs[i];
    const std::string sec = "morph " + std::to_string(i);
    const MorphLayout& l = m.layout.present ? m.layout : cm;
    out += l.lead;
    out += "Morph";
    out += m.layout.index.empty() ? std::to_string(i) : m.layout.index;
    out += '{';
    MMDKIT_TRY_ASSIGN(auto name, name_bytes(m.name, pose.encoding, sec, false));
    out += name;
    out += l.gaps[0];
    MMDKIT_TRY_ASSIGN(auto t, number_text(m.layout.number, m.weight, sec));
    out += t;
    out += l.gaps[1];
  }
  out += h.tail;
  return std::vector<std::uint8_t>(out.begin(), out.end());
}

}  // namespace mmdkit::vpd
