// mmdkit CLI — the one form of a diagnostic line, for every command (stderr; `check`'s findings on
// stdout): "mmdkit: KIND: TEXT" with KIND error, warning or note. A message about one file starts
// with the file ("FILE: section 'bones', record 3: ...", as Error::to_string), and names or paths
// inside a sentence are in single quotes ('腰', 'tex/a.png').
#pragma once

#include <cstdint>
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

/// The note of a frame option past the inputs' last key: frames after the last key hold its pose
/// (as MMD plays a finished motion), and a frame past the end is usually a typo or the wrong
/// motion. diagnostic_line(note, "OPTION goes to N but the inputs' last key is at frame L: later
/// frames hold the pose of frame L"); empty when `last_asked` <= `last_key` or `last_key` is 0 (a
/// pose alone, or nothing keyed after frame 0). `option` is e.g. "--frames", "--frame".
std::string past_last_key_note(std::string_view option, double last_asked, std::uint32_t last_key);

/// Prints warning_line(w, file) for each of `warnings` to `err`.
void print_warnings(std::ostream& err, std::span<const Warning> warnings, const std::string& file = {});

}  // namespace mmdkit::cli
