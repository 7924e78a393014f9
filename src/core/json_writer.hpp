// mmdkit — the JSON writer shared by the format dumpers (formats/*/json.cpp): a string being
// written and the one text of each value kind, so that every schema writes numbers, strings and
// names the same way. Layout (line breaks, indentation, separators) stays each format's own: the
// writer appends, it does not track nesting. Internal (not installed).
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "mmdkit/core/number.hpp"

namespace mmdkit::json {

class Writer {
 public:
  /// The JSON text written so far.
  std::string out;

  void raw(std::string_view v) { out.append(v); }
  void ch(char c) { out.push_back(c); }
  /// An integer in decimal.
  template <std::integral T>
  void integer(T v) {
    char b[24];
    auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, r.ptr);
  }
  /// A float as format_float_json writes it (the shortest text that reads back to the same float;
  /// "inf", "-inf", "nan:xxxxxxxx" as strings), without a temporary string for finite values.
  void number(float v) {
    if (!std::isfinite(v)) {
      out += format_float_json(v);
      return;
    }
    char b[32];
    auto r = std::to_chars(b, b + sizeof b, v);
    out.append(b, r.ptr);
  }
  /// An array of floats, elements separated by ", " (`compact`: by ",").
  void numbers(const float* v, std::size_t n, bool compact = false) {
    out.push_back('[');
    for (std::size_t i = 0; i < n; ++i) {
      if (i != 0) {
        if (compact)
          out.push_back(',');
        else
          out += ", ";
      }
      number(v[i]);
    }
    out.push_back(']');
  }
  template <std::size_t N>
  void numbers(const std::array<float, N>& v, bool compact = false) {
    numbers(v.data(), N, compact);
  }
  /// A string literal (json::append_string).
  void string(std::string_view text) { append_string(out, text); }
  /// `"k": ` for a member name `k` the caller knows needs no escaping (a schema's identifier).
  void key(std::string_view k) {
    out.push_back('"');
    out.append(k);
    out.append("\": ");
  }
  /// A stored text in the one name form (json::append_name): `raw` only when needed.
  void name(std::string_view text, std::optional<ByteSpan> raw, bool compact = false) {
    append_name(out, text, raw, compact);
  }
};

}  // namespace mmdkit::json
