// mmdkit — typed errors and warnings shared by every reader, writer and command.
//
// Every fallible function returns `mmdkit::Result<T>` (std::expected<T, Error>). An Error says
// what went wrong (code + message), where (section, record index, byte offset in the input) and,
// when a command adds it, in which file. Warnings use the same structure (`Warning`).
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace mmdkit {

/// Error categories. `error_code_name` gives a stable snake_case name for each.
enum class ErrorCode : std::uint8_t {
  io_error,         ///< the file system refused: missing file, directory, permission, write failure
  empty_input,      ///< zero bytes where a file was expected
  bad_signature,    ///< the magic bytes at offset 0 are not the format's
  truncated,        ///< the input ends inside a header, count or record
  count_too_large,  ///< a declared count needs more bytes than are left in the input
  invalid_value,    ///< a field holds a value the format does not allow (index size 3, encoding 7, ...)
  unsupported,      ///< valid but not handled by this version of mmdkit
  trailing_data,    ///< bytes after the last section that parses (an error only in strict mode)
  encoding_error,   ///< text could not be converted between encodings
  json_syntax,      ///< the JSON text is not well-formed
  json_schema,      ///< well-formed JSON that does not describe a valid file
  limit_exceeded,   ///< a documented size limit of mmdkit was exceeded
  invalid_argument, ///< the caller passed an impossible request (API or command-line usage)
  texture_missing,  ///< a model's texture reference names no file in the model's folder (`check`, `convert`; a warning)
  texture_escapes,  ///< a model's texture reference leaves the model's folder (absolute, drive, "..", link; a warning)
};

/// Stable name of a code, e.g. "count_too_large".
std::string_view error_code_name(ErrorCode code) noexcept;

/// What went wrong and where. Fields that do not apply keep their defaults.
struct Error {
  ErrorCode code = ErrorCode::invalid_value;
  std::string message;          ///< why, in one sentence, no trailing period
  std::string section;          ///< e.g. "bone keyframes", "header"; empty if not applicable
  std::int64_t record = -1;     ///< 0-based record index within `section`; -1 if not applicable
  std::int64_t offset = -1;     ///< byte offset in the input where the problem was found; -1 if none
  std::string file;             ///< path of the input, filled in by callers that know it
  std::int64_t line = -1;       ///< 1-based line in a text input (JSON, VPD); -1 if not applicable
  std::int64_t column = -1;     ///< 1-based column (UTF-8 characters) on that line; -1 if not applicable

  /// One line: "FILE: section 'bone keyframes', record 12, byte 1234: truncated: <message>"
  /// (text inputs: "FILE: line 3, column 7, byte 41: json_syntax: <message>"); control characters
  /// anywhere in it are escaped (core/printable.hpp), so a name holding a line feed stays on it.
  std::string to_string() const;
};

/// A non-fatal finding (same fields as Error).
using Warning = Error;

template <class T>
using Result = std::expected<T, Error>;

/// Shorthand to build an unexpected Error.
inline std::unexpected<Error> make_error(ErrorCode code, std::string message, std::string section = {},
                                         std::int64_t record = -1, std::int64_t offset = -1) {
  return std::unexpected<Error>(Error{code, std::move(message), std::move(section), record, offset, {}});
}

}  // namespace mmdkit
