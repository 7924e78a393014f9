#include "mmdkit/core/error.hpp"
#include "mmdkit/core/printable.hpp"

namespace mmdkit {

std::string_view error_code_name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::io_error: return "io_error";
    case ErrorCode::empty_input: return "empty_input";
    case ErrorCode::bad_signature: return "bad_signature";
    case ErrorCode::truncated: return "truncated";
    case ErrorCode::count_too_large: return "count_too_large";
    case ErrorCode::invalid_value: return "invalid_value";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::trailing_data: return "trailing_data";
    case ErrorCode::encoding_error: return "encoding_error";
    case ErrorCode::json_syntax: return "json_syntax";
    case ErrorCode::json_schema: return "json_schema";
    case ErrorCode::limit_exceeded: return "limit_exceeded";
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::texture_missing: return "texture_missing";
    case ErrorCode::texture_escapes: return "texture_escapes";
  }
  return "unknown";
}

std::string Error::to_string() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    out += ": ";
  }
  bool where = false;
  if (!section.empty()) {
    out += "section '" + section + "'";
    where = true;
  }
  if (record >= 0) {
    out += where ? ", " : "";
    out += "record " + std::to_string(record);
    where = true;
  }
  if (line >= 0) {
    out += where ? ", " : "";
    out += "line " + std::to_string(line);
    if (column >= 0) out += ", column " + std::to_string(column);
    where = true;
  }
  if (offset >= 0) {
    out += where ? ", " : "";
    out += "byte " + std::to_string(offset);
    where = true;
  }
  if (where) out += ": ";
  out += error_code_name(code);
  if (!message.empty()) {
    out += ": ";
    out += message;
  }
  return printable(out);
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7F) {
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace mmdkit
