// mmdkit — JSON text helpers (json.hpp).
#include "core/json.hpp"

namespace mmdkit::json {

namespace {
constexpr char kHex[] = "0123456789abcdef";
}

void append_string(std::string& out, std::string_view t) {
  out += '"';
  std::size_t run = 0;  // start of the current run of bytes copied as they are
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(t.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(t.data() + run, t.size() - run);
  out += '"';
}

std::string string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  append_string(out, text);
  return out;
}

void append_hex(std::string& out, ByteSpan bytes) {
  for (std::uint8_t c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
}

void append_name(std::string& out, std::string_view text, std::optional<ByteSpan> raw, bool compact) {
  if (!raw) {
    append_string(out, text);
    return;
  }
  out += compact ? "{\"text\":" : "{\"text\": ";
  append_string(out, text);
  out += compact ? ",\"raw\":\"" : ", \"raw\": \"";
  for (std::uint8_t c : *raw) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  out += "\"}";
}

Position position(std::string_view text, std::size_t offset) noexcept {
  if (offset > text.size()) offset = text.size();
  Position p;
  for (std::size_t i = 0; i < offset; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      // counted with the '\n' that follows
    } else if ((c & 0xC0) != 0x80) {
      ++p.column;  // a UTF-8 continuation byte does not start a character
    }
  }
  return p;
}

std::unexpected<Error> syntax_error(std::string_view text, std::size_t offset, std::string message,
                                    std::string section) {
  const Position p = position(text, offset);
  Error e{ErrorCode::json_syntax, std::move(message), std::move(section), -1, static_cast<std::int64_t>(offset), {}};
  e.line = p.line;
  e.column = p.column;
  return std::unexpected<Error>(std::move(e));
}

}  // namespace mmdkit::json
