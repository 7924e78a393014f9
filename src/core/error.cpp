#include "mmdkit/core/error.hpp"

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
  return out;
}

}  // namespace mmdkit
