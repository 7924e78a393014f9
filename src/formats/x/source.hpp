// mmdkit (private) — the token source of the .x reader: one interface over the text and the
// binary body encodings (docs/formats/x.md "Tokens").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::x::detail {

enum class Tok : std::uint8_t {
  end,        ///< no more input
  word,       ///< text: a run of non-delimiters (names, numbers, "..."); binary: NAME or a keyword
  string,     ///< a quoted string (text) or STRING token (binary)
  number,     ///< text: a word that parses as a number; binary: INTEGER, an INTEGER/FLOAT list
  obrace, cbrace, obracket, cbracket, guid, comma, semicolon,
  other,      ///< binary punctuation without meaning here (parentheses, angles, dot)
};

class Source {
 public:
  Source(ByteSpan body, bool binary, int float_bits, std::int64_t base_offset) noexcept
      : b_(body), binary_(binary), float_bits_(float_bits), base_(base_offset) {}

  /// Skips separators (text: white space, comments, ',' and ';'; binary: COMMA / SEMICOLON
  /// tokens) and returns the kind of the next token without consuming it.
  Tok peek();
  /// Consumes the next raw token (separators included, not skipped) and returns its kind; word and
  /// string tokens leave their text in text(); a binary list is consumed whole.
  Tok next();
  const std::string& text() const noexcept { return text_; }

  Result<std::string> read_word(std::string_view what);    ///< a name / identifier
  Result<std::string> read_string(std::string_view what);  ///< a quoted string (raw bytes)
  Result<std::uint32_t> read_uint(std::string_view what);
  Result<float> read_float(std::string_view what);
  Result<void> expect(Tok kind, std::string_view what);
  /// After '{' was consumed: consumes everything through the matching '}'.
  Result<void> skip_body();

  /// Lower bound of how many more numbers the input can hold (text: one per byte; binary: one
  /// per 4 bytes, plus what is left of the current list): counts are checked against it.
  std::uint64_t numbers_left() const noexcept;

  /// An error at the current position (text: line and column filled).
  Error error(ErrorCode code, std::string message, std::string section = {}) const;
  std::int64_t offset() const noexcept { return base_ + static_cast<std::int64_t>(tok_start_); }

 private:
  void skip_space();
  Tok scan_text();
  Tok scan_binary();
  bool in_list() const noexcept { return list_left_ > 0; }

  ByteSpan b_;
  bool binary_ = false;
  int float_bits_ = 32;
  std::int64_t base_ = 0;
  std::size_t pos_ = 0, tok_start_ = 0;
  std::string text_;
  // Binary lists: elements left and their kind (true = floats).
  std::uint64_t list_left_ = 0;
  bool list_float_ = false;
  // Binary INTEGER token waiting to be read by read_uint.
};

/// Line and column (1-based, bytes) of `offset` in `text`.
void line_column(ByteSpan text, std::size_t offset, std::int64_t& line, std::int64_t& column) noexcept;

}  // namespace mmdkit::x::detail
