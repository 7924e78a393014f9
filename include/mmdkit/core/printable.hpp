// mmdkit — text made safe for a one-line diagnostic.
#pragma once

#include <string>
#include <string_view>

namespace mmdkit {

/// `text` with its control characters written as escapes, so that a diagnostic stays one line: a
/// line feed as `\n`, carriage return `\r`, tab `\t`, other C0 controls and DEL as `\xNN`; every
/// other byte (UTF-8 included) unchanged. Names in real models carry such characters (a joint of
/// mokou_A.pmd is named "\nネクタイJ1"). Error::to_string and the CLI's diagnostic lines apply it
/// to the whole line; `check --json` and other JSON output escape by JSON's rules instead.
std::string printable(std::string_view text);

}  // namespace mmdkit
