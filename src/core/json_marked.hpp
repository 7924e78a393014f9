// mmdkit — JSON parsed with its numbers kept as text (internal; header-only over RapidJSON, for the
// format layers that link it). The lossless JSON readers parse floats themselves
// (mmdkit::parse_float: the shortest text that reads back bit for bit), so RapidJSON hands numbers
// over as text (kParseNumbersAsStringsFlag). They are stored as strings prefixed with kNumberMark
// so that a JSON number and a JSON string stay distinguishable: the byte 0xFF never occurs in valid
// UTF-8 (the parser validates the encoding), so no JSON string can start with it (a printable or
// control character could: a fuzz finding, a name starting with U+0001).
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <string>
#include <string_view>

#include "core/json.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::json {

inline constexpr char kNumberMark = '\xFF';

/// True when `v` is a number of the text parse_marked read (a marked string).
inline bool is_number(const rapidjson::Value& v) {
  return v.IsString() && v.GetStringLength() > 0 && v.GetString()[0] == kNumberMark;
}

/// Parses `text` into `doc`: strict UTF-8, one root value (only white space after it), iterative (no
/// recursion on deep nesting), numbers as marked strings. Errors: json_syntax with line and column
/// (syntax_error).
inline Result<void> parse_marked(std::string_view text, rapidjson::Document& doc) {
  // SAX generator for Document::Populate: forwards every event, marking raw numbers.
  struct Forward {
    rapidjson::Document& d;
    std::string scratch;
    bool Null() { return d.Null(); }
    bool Bool(bool b) { return d.Bool(b); }
    bool Int(int i) { return d.Int(i); }
    bool Uint(unsigned u) { return d.Uint(u); }
    bool Int64(std::int64_t i) { return d.Int64(i); }
    bool Uint64(std::uint64_t u) { return d.Uint64(u); }
    bool Double(double v) { return d.Double(v); }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
      scratch.assign(1, kNumberMark);
      scratch.append(s, n);
      return d.String(scratch.data(), static_cast<rapidjson::SizeType>(scratch.size()), true);
    }
    bool String(const char* s, rapidjson::SizeType n, bool copy) { return d.String(s, n, copy); }
    bool StartObject() { return d.StartObject(); }
    bool Key(const char* s, rapidjson::SizeType n, bool copy) { return d.Key(s, n, copy); }
    bool EndObject(rapidjson::SizeType n) { return d.EndObject(n); }
    bool StartArray() { return d.StartArray(); }
    bool EndArray(rapidjson::SizeType n) { return d.EndArray(n); }
  };
  rapidjson::ParseResult result;
  auto generate = [&](rapidjson::Document& handler) {
    rapidjson::MemoryStream ms(text.data(), text.size());
    rapidjson::Reader reader;
    Forward f{handler, {}};
    result = reader.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag |
                          rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag>(ms, f);
    if (!result) return false;
    for (std::size_t at = ms.Tell(); at < text.size(); ++at) {  // only white space may follow
      const char c = text[at];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        result.Set(rapidjson::kParseErrorDocumentRootNotSingular, at);
        return false;
      }
    }
    return true;
  };
  doc.Populate(generate);
  if (!result) return syntax_error(text, result.Offset(), rapidjson::GetParseError_En(result.Code()));
  return {};
}

}  // namespace mmdkit::json
