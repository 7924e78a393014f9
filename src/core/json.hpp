// mmdkit — JSON text helpers shared by the JSON dumpers/importers (formats/*/json.cpp) and the
// command-line tool: the one string escaper, hex of raw bytes, and syntax errors that give the
// line and column as well as the byte offset. Internal (not installed): RapidJSON stays private.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::json {

/// Appends `text` (UTF-8, not validated) as a JSON string literal: in quotes, `"` and `\` escaped,
/// \n \r \t as such, other bytes below 0x20 as \u00XX (lowercase hex); everything else as is.
void append_string(std::string& out, std::string_view text);

/// The JSON string literal of `text` (append_string into a new string).
std::string string(std::string_view text);

/// Appends `bytes` as lowercase hex digits, two per byte, without quotes.
void append_hex(std::string& out, ByteSpan bytes);

/// Appends a stored text (a name, a comment: raw bytes + decoded text) in the one JSON form of
/// every mmdkit schema (docs/CONVENTIONS.md "Names in JSON"): the JSON string of `text` when `raw`
/// is nullopt, else {"text": "<text>", "raw": "<lower-case hex of *raw>"} (`*raw` may be empty).
/// Callers pass the stored bytes only when encoding `text` the way the writer does would not give
/// them back (garbage after a NUL, a cut or undecodable character), so most names are plain
/// strings. `compact` leaves out the spaces after ':' and ',' (for documents written without them).
void append_name(std::string& out, std::string_view text, std::optional<ByteSpan> raw, bool compact = false);

/// 1-based line and column of byte `offset` in `text`. Lines end at "\n" (a "\r\n" pair counts as
/// one end); the column counts UTF-8 characters (code points) from the line start, so it matches
/// what an editor shows. An offset past the end is taken as the end.
struct Position {
  std::int64_t line = 1;
  std::int64_t column = 1;
};
Position position(std::string_view text, std::size_t offset) noexcept;

/// The json_syntax error for a parse failure at byte `offset` of `text`: Error::offset = the
/// byte offset, Error::line / Error::column from position(), Error::section = `section`.
std::unexpected<Error> syntax_error(std::string_view text, std::size_t offset, std::string message,
                                    std::string section = "json");

}  // namespace mmdkit::json
