// mmdkit CLI — the one form of a diagnostic line, for every command (stderr; `check`'s findings on
// stdout): "mmdkit: KIND: TEXT" with KIND error, warning or note. A message about one file starts
// with the file ("FILE: section 'bones', record 3: ...", as Error::to_string), and names or paths
// inside a sentence are in single quotes ('腰', 'tex/a.png').
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"

namespace mmdkit::cli {

/// What a diagnostic line is.
enum class Diagnostic { error, warning, note };

/// "mmdkit: error|warning|note: TEXT\n".
std::string diagnostic_line(Diagnostic kind, std::string_view text);

/// diagnostic_line(warning, w.to_string()), naming `file` when `w` names no file.
std::string warning_line(const Warning& w, const std::string& file = {});

/// Prints warning_line(w, file) for each of `warnings` to `err`.
void print_warnings(std::ostream& err, std::span<const Warning> warnings, const std::string& file = {});

}  // namespace mmdkit::cli
