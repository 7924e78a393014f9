// mmdkit CLI — diagnostic lines (messages.hpp).
#include "cli/messages.hpp"

#include <fmt/format.h>

#include "mmdkit/core/printable.hpp"

namespace mmdkit::cli {

std::string diagnostic_line(Diagnostic kind, std::string_view text) {
  const char* k = kind == Diagnostic::error ? "error" : kind == Diagnostic::warning ? "warning" : "note";
  std::string out = "mmdkit: ";
  out += k;
  out += ": ";
  out += printable(text);  // one line, whatever a name holds
  out += '\n';
  return out;
}

std::string warning_line(const Warning& w, const std::string& file) {
  if (!w.file.empty() || file.empty()) return diagnostic_line(Diagnostic::warning, w.to_string());
  Warning x = w;
  x.file = file;
  return diagnostic_line(Diagnostic::warning, x.to_string());
}

std::string past_last_key_note(std::string_view option, double last_asked, std::uint32_t last_key) {
  if (last_key == 0 || !(last_asked > static_cast<double>(last_key))) return {};
  return diagnostic_line(Diagnostic::note,
                         fmt::format("{} goes to {} but the inputs' last key is at frame {}: later frames hold the pose "
                                     "of frame {}",
                                     option, last_asked, last_key, last_key));
}

void print_warnings(std::ostream& err, std::span<const Warning> warnings, const std::string& file) {
  for (const Warning& w : warnings) err << warning_line(w, file);
}

}  // namespace mmdkit::cli
