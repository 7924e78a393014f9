// mmdkit — the .x token source (source.hpp): text and binary bodies behind one interface.
//
// Binary tokens (DirectX file format, binary encoding; docs/formats/x.md "Binary"): a u16 token
// id, then for NAME (1) u32 length + bytes, STRING (2) u32 length + bytes + a u16 terminator
// token, INTEGER (3) u32, GUID (5) 16 bytes, INTEGER_LIST (6) u32 count + count × u32,
// FLOAT_LIST (7) u32 count + count × f32 (f64 when the header says 0064); punctuation 10..20,
// TEMPLATE 31, type keywords 40..52 (WORD, DWORD, FLOAT, ..., ARRAY) carry no data.
#include "formats/x/source.hpp"

#include <charconv>
#include <cstring>

namespace mmdkit::x::detail {

namespace {

constexpr std::uint16_t kName = 1, kString = 2, kInteger = 3, kGuid = 5, kIntList = 6, kFloatList = 7;
constexpr std::uint16_t kOBrace = 10, kCBrace = 11, kOParen = 12, kCParen = 13, kOBracket = 14, kCBracket = 15,
                        kOAngle = 16, kCAngle = 17, kDot = 18, kComma = 19, kSemicolon = 20, kTemplate = 31;

const char* keyword_name(std::uint16_t id) {
  switch (id) {
    case 31: return "template";
    case 40: return "WORD";
    case 41: return "DWORD";
    case 42: return "FLOAT";
    case 43: return "DOUBLE";
    case 44: return "CHAR";
    case 45: return "UCHAR";
    case 46: return "SWORD";
    case 47: return "SDWORD";
    case 48: return "VOID";
    case 49: return "STRING";
    case 50: return "UNICODE";
    case 51: return "CSTRING";
    case 52: return "ARRAY";
    default: return nullptr;
  }
}

bool is_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == 0; }
bool is_delim(std::uint8_t c) {
  return is_space(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == '<' || c == '>' || c == ',' ||
         c == ';' || c == '"';
}
// CP932 lead bytes: the byte after one is part of the same character (it may be '{', '}', ...).
bool is_cp932_lead(std::uint8_t c) { return (c >= 0x81 && c <= 0x9F) || (c >= 0xE0 && c <= 0xFC); }

bool parse_float_text(std::string_view t, float& out) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  if (t.empty()) return false;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  if (r.ec == std::errc::result_out_of_range) {  // keep going like strtof: ±inf / 0
    double d = 0;
    const auto r2 = std::from_chars(t.data(), t.data() + t.size(), d);
    if (r2.ptr != t.data() + t.size()) return false;
    out = static_cast<float>(d);
    return true;
  }
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

}  // namespace

void line_column(ByteSpan text, std::size_t offset, std::int64_t& line, std::int64_t& column) noexcept {
  line = 1;
  column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((text[i] & 0xC0) != 0x80) {
      ++column;
    }
  }
}

Error Source::error(ErrorCode code, std::string message, std::string section) const {
  Error e{code, std::move(message), std::move(section), -1, offset(), {}};
  if (!binary_) line_column(b_, tok_start_, e.line, e.column);
  return e;
}

std::uint64_t Source::numbers_left() const noexcept {
  const std::uint64_t rest = b_.size() - pos_;
  return binary_ ? list_left_ + rest / 4 : rest;
}

// ----------------------------------------------------------------------------------------------
// Text

void Source::skip_space() {
  while (pos_ < b_.size()) {
    const std::uint8_t c = b_[pos_];
    if (is_space(c) || c == ',' || c == ';') {
      ++pos_;
    } else if (c == '#' || (c == '/' && pos_ + 1 < b_.size() && b_[pos_ + 1] == '/')) {
      while (pos_ < b_.size() && b_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

Tok Source::scan_text() {
  tok_start_ = pos_;
  text_.clear();
  if (pos_ >= b_.size()) return Tok::end;
  const std::uint8_t c = b_[pos_];
  switch (c) {
    case '{': ++pos_; return Tok::obrace;
    case '}': ++pos_; return Tok::cbrace;
    case '[': ++pos_; return Tok::obracket;
    case ']': ++pos_; return Tok::cbracket;
    case ',': ++pos_; return Tok::comma;
    case ';': ++pos_; return Tok::semicolon;
    case '<': {
      ++pos_;
      while (pos_ < b_.size() && b_[pos_] != '>') text_.push_back(static_cast<char>(b_[pos_++]));
      if (pos_ < b_.size()) ++pos_;
      return Tok::guid;
    }
    case '"': {
      ++pos_;
      while (pos_ < b_.size() && b_[pos_] != '"') text_.push_back(static_cast<char>(b_[pos_++]));
      if (pos_ >= b_.size()) {
        text_ = "\x01unterminated";
        return Tok::end;
      }
      ++pos_;
      return Tok::string;
    }
    default: break;
  }
  if (c == '>') {
    ++pos_;
    return Tok::other;
  }
  while (pos_ < b_.size() && !is_delim(b_[pos_])) {
    if (is_cp932_lead(b_[pos_]) && pos_ + 1 < b_.size()) text_.push_back(static_cast<char>(b_[pos_++]));
    text_.push_back(static_cast<char>(b_[pos_++]));
  }
  return Tok::word;
}

// ----------------------------------------------------------------------------------------------
// Binary

Tok Source::scan_binary() {
  tok_start_ = pos_;
  text_.clear();
  if (pos_ + 2 > b_.size()) {
    pos_ = b_.size();
    return Tok::end;
  }
  const std::uint16_t id = load_le<std::uint16_t>(b_.data() + pos_);
  const std::size_t rest = b_.size() - pos_ - 2;
  auto u32_at = [&](std::size_t at) { return load_le<std::uint32_t>(b_.data() + at); };
  switch (id) {
    case kName:
    case kString: {
      if (rest < 4) return pos_ = b_.size(), Tok::end;
      const std::uint32_t n = u32_at(pos_ + 2);
      if (n > rest - 4) return pos_ = b_.size(), Tok::end;
      text_.assign(reinterpret_cast<const char*>(b_.data() + pos_ + 6), n);
      pos_ += 6 + n;
      if (id == kString) {
        // The terminator token (',' or ';') belongs to the string.
        if (pos_ + 2 <= b_.size()) {
          const std::uint16_t t = load_le<std::uint16_t>(b_.data() + pos_);
          if (t == kComma || t == kSemicolon) pos_ += 2;
        }
        return Tok::string;
      }
      return Tok::word;
    }
    case kInteger:
      if (rest < 4) return pos_ = b_.size(), Tok::end;
      pos_ += 6;
      return Tok::number;
    case kGuid:
      if (rest < 16) return pos_ = b_.size(), Tok::end;
      pos_ += 18;
      return Tok::guid;
    case kIntList:
    case kFloatList: {
      if (rest < 4) return pos_ = b_.size(), Tok::end;
      const std::uint64_t n = u32_at(pos_ + 2);
      const std::uint64_t size = id == kIntList ? 4 : static_cast<std::uint64_t>(float_bits_ / 8);
      if (n * size > rest - 4) return pos_ = b_.size(), Tok::end;
      pos_ += 6 + static_cast<std::size_t>(n * size);
      return Tok::number;
    }
    case kOBrace: pos_ += 2; return Tok::obrace;
    case kCBrace: pos_ += 2; return Tok::cbrace;
    case kOBracket: pos_ += 2; return Tok::obracket;
    case kCBracket: pos_ += 2; return Tok::cbracket;
    case kComma: pos_ += 2; return Tok::comma;
    case kSemicolon: pos_ += 2; return Tok::semicolon;
    case kOParen: case kCParen: case kOAngle: case kCAngle:
      pos_ += 2;
      return Tok::other;
    case kDot:
      pos_ += 2;
      text_ = ".";
      return Tok::other;
    default:
      if (const char* k = keyword_name(id)) {
        pos_ += 2;
        text_ = k;
        return Tok::word;
      }
      text_ = "\x01token " + std::to_string(id);
      return Tok::end;  // unknown token id: the caller reports it (pos_ unchanged)
  }
}

// ----------------------------------------------------------------------------------------------
// Shared

Tok Source::next() {
  if (binary_) {
    if (in_list()) {  // the rest of a list, consumed whole
      const std::uint64_t size = list_float_ ? static_cast<std::uint64_t>(float_bits_ / 8) : 4;
      pos_ += static_cast<std::size_t>(list_left_ * size);
      list_left_ = 0;
      return Tok::number;
    }
    return scan_binary();
  }
  // White space and comments (separators are tokens here).
  while (pos_ < b_.size()) {
    const std::uint8_t c = b_[pos_];
    if (is_space(c)) ++pos_;
    else if (c == '#' || (c == '/' && pos_ + 1 < b_.size() && b_[pos_ + 1] == '/'))
      while (pos_ < b_.size() && b_[pos_] != '\n') ++pos_;
    else break;
  }
  return scan_text();
}

Tok Source::peek() {
  if (binary_) {
    if (in_list()) return Tok::number;
    while (pos_ + 2 <= b_.size()) {
      const std::uint16_t id = load_le<std::uint16_t>(b_.data() + pos_);
      if (id != kComma && id != kSemicolon) break;
      pos_ += 2;
    }
    tok_start_ = pos_;
    if (pos_ + 2 > b_.size()) return Tok::end;
    const std::uint16_t id = load_le<std::uint16_t>(b_.data() + pos_);
    switch (id) {
      case kName: case kTemplate: return Tok::word;
      case kString: return Tok::string;
      case kInteger: case kIntList: case kFloatList: return Tok::number;
      case kGuid: return Tok::guid;
      case kOBrace: return Tok::obrace;
      case kCBrace: return Tok::cbrace;
      case kOBracket: return Tok::obracket;
      case kCBracket: return Tok::cbracket;
      default: return keyword_name(id) ? Tok::word : Tok::other;
    }
  }
  skip_space();
  tok_start_ = pos_;
  if (pos_ >= b_.size()) return Tok::end;
  const std::uint8_t c = b_[pos_];
  switch (c) {
    case '{': return Tok::obrace;
    case '}': return Tok::cbrace;
    case '[': return Tok::obracket;
    case ']': return Tok::cbracket;
    case '<': return Tok::guid;
    case '"': return Tok::string;
    case '>': return Tok::other;
    default: break;
  }
  if ((c >= '0' && c <= '9') || c == '-' || c == '+' ||
      (c == '.' && pos_ + 1 < b_.size() && b_[pos_ + 1] >= '0' && b_[pos_ + 1] <= '9'))
    return Tok::number;
  return Tok::word;
}

namespace {
std::string describe(Tok t) {
  switch (t) {
    case Tok::end: return "the end of the input";
    case Tok::word: return "a name";
    case Tok::string: return "a string";
    case Tok::number: return "a number";
    case Tok::obrace: return "'{'";
    case Tok::cbrace: return "'}'";
    case Tok::obracket: return "'['";
    case Tok::cbracket: return "']'";
    case Tok::guid: return "a uuid";
    case Tok::comma: return "','";
    case Tok::semicolon: return "';'";
    case Tok::other: return "punctuation";
  }
  return "a token";
}
}  // namespace

Result<void> Source::expect(Tok kind, std::string_view what) {
  const Tok t = peek();
  if (t != kind)
    return std::unexpected(error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                 "expected " + describe(kind) + " " + std::string(what) + ", found " + describe(t)));
  next();
  return {};
}

Result<std::string> Source::read_word(std::string_view what) {
  const Tok t = peek();
  if (t != Tok::word)
    return std::unexpected(error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                 "expected " + std::string(what) + ", found " + describe(t)));
  next();
  return text_;
}

Result<std::string> Source::read_string(std::string_view what) {
  const Tok t = peek();
  if (t != Tok::string)
    return std::unexpected(error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                 "expected a string (" + std::string(what) + "), found " + describe(t)));
  const Tok got = next();
  if (got != Tok::string) return std::unexpected(error(ErrorCode::truncated, "unterminated string (" + std::string(what) + ")"));
  return text_;
}

Result<std::uint32_t> Source::read_uint(std::string_view what) {
  const Tok t = peek();
  if (t != Tok::number)
    return std::unexpected(error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                 "expected an integer (" + std::string(what) + "), found " + describe(t)));
  if (binary_) {
    for (;;) {
      if (in_list()) {
        if (list_float_)
          return std::unexpected(error(ErrorCode::invalid_value, "expected an integer (" + std::string(what) + "), found a float list"));
        const std::uint32_t v = load_le<std::uint32_t>(b_.data() + pos_);
        pos_ += 4;
        --list_left_;
        return v;
      }
      const std::uint16_t id = load_le<std::uint16_t>(b_.data() + pos_);
      if (id == kInteger) {
        if (b_.size() - pos_ < 6) return std::unexpected(error(ErrorCode::truncated, "the input ends inside an integer"));
        const std::uint32_t v = load_le<std::uint32_t>(b_.data() + pos_ + 2);
        pos_ += 6;
        return v;
      }
      if (id == kFloatList)
        return std::unexpected(error(ErrorCode::invalid_value, "expected an integer (" + std::string(what) + "), found a float list"));
      // Integer list: enter it.
      if (b_.size() - pos_ < 6) return std::unexpected(error(ErrorCode::truncated, "the input ends inside a list header"));
      const std::uint64_t n = load_le<std::uint32_t>(b_.data() + pos_ + 2);
      if (n * 4 > b_.size() - pos_ - 6)
        return std::unexpected(error(ErrorCode::count_too_large, "an integer list of " + std::to_string(n) +
                                                                     " elements is longer than the input"));
      pos_ += 6;
      list_left_ = n;
      list_float_ = false;
      if (n == 0 && peek() != Tok::number)
        return std::unexpected(error(ErrorCode::invalid_value, "expected an integer (" + std::string(what) + ")"));
    }
  }
  next();
  std::string_view s = text_;
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  std::uint32_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) {
    // Some writers put integers as "3.000000": accept an integral decimal.
    float f = 0;
    if (parse_float_text(text_, f) && f >= 0 && f <= 4294967040.0f && static_cast<float>(static_cast<std::uint32_t>(f)) == f)
      return static_cast<std::uint32_t>(f);
    return std::unexpected(error(ErrorCode::invalid_value, "'" + text_ + "' is not an unsigned integer (" + std::string(what) + ")"));
  }
  return v;
}

Result<float> Source::read_float(std::string_view what) {
  const Tok t = peek();
  if (t != Tok::number)
    return std::unexpected(error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                 "expected a number (" + std::string(what) + "), found " + describe(t)));
  if (binary_) {
    const std::size_t fsize = static_cast<std::size_t>(float_bits_ / 8);
    for (;;) {
      if (in_list()) {
        float v = 0;
        if (list_float_) {
          if (fsize == 8) {
            double d = 0;
            std::memcpy(&d, b_.data() + pos_, 8);
            v = static_cast<float>(d);
          } else {
            std::memcpy(&v, b_.data() + pos_, 4);
          }
          pos_ += fsize;
        } else {  // an integer where a float is expected: its value
          v = static_cast<float>(load_le<std::uint32_t>(b_.data() + pos_));
          pos_ += 4;
        }
        --list_left_;
        return v;
      }
      const std::uint16_t id = load_le<std::uint16_t>(b_.data() + pos_);
      if (id == kInteger) {
        if (b_.size() - pos_ < 6) return std::unexpected(error(ErrorCode::truncated, "the input ends inside an integer"));
        const float v = static_cast<float>(load_le<std::uint32_t>(b_.data() + pos_ + 2));
        pos_ += 6;
        return v;
      }
      if (b_.size() - pos_ < 6) return std::unexpected(error(ErrorCode::truncated, "the input ends inside a list header"));
      const std::uint64_t n = load_le<std::uint32_t>(b_.data() + pos_ + 2);
      const std::uint64_t size = id == kIntList ? 4 : fsize;
      if (n * size > b_.size() - pos_ - 6)
        return std::unexpected(error(ErrorCode::count_too_large, "a list of " + std::to_string(n) +
                                                                     " elements is longer than the input"));
      pos_ += 6;
      list_left_ = n;
      list_float_ = id == kFloatList;
      if (n == 0 && peek() != Tok::number)
        return std::unexpected(error(ErrorCode::invalid_value, "expected a number (" + std::string(what) + ")"));
    }
  }
  next();
  float v = 0;
  if (!parse_float_text(text_, v))
    return std::unexpected(error(ErrorCode::invalid_value, "'" + text_ + "' is not a number (" + std::string(what) + ")"));
  return v;
}

Result<void> Source::skip_body() {
  int depth = 1;
  while (depth > 0) {
    const std::size_t before = pos_;
    const Tok t = next();
    if (t == Tok::end) {
      if (!text_.empty() && text_[0] == '\x01') {
        if (text_ == "\x01unterminated") return std::unexpected(error(ErrorCode::truncated, "unterminated string"));
        return std::unexpected(error(ErrorCode::invalid_value, "unknown binary " + text_.substr(1)));
      }
      return std::unexpected(error(ErrorCode::truncated, "the input ends inside an object (a '}' is missing)"));
    }
    if (t == Tok::obrace) ++depth;
    else if (t == Tok::cbrace) --depth;
    if (pos_ == before) return std::unexpected(error(ErrorCode::invalid_value, "unreadable token"));
  }
  return {};
}

}  // namespace mmdkit::x::detail
