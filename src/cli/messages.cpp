// mmdkit CLI — diagnostic lines (messages.hpp).
#include "cli/messages.hpp"

namespace mmdkit::cli {

std::string diagnostic_line(Diagnostic kind, std::string_view text) {
  const char* k = kind == Diagnostic::error ? "error" : kind == Diagnostic::warning ? "warning" : "note";
  std::string out = "mmdkit: ";
  out += k;
  out += ": ";
  out += text;
  out += '\n';
  return out;
}

std::string warning_line(const Warning& w, const std::string& file) {
  if (!w.file.empty() || file.empty()) return diagnostic_line(Diagnostic::warning, w.to_string());
  Warning x = w;
  x.file = file;
  return diagnostic_line(Diagnostic::warning, x.to_string());
}

void print_warnings(std::ostream& err, std::span<const Warning> warnings, const std::string& file) {
  for (const Warning& w : warnings) err << warning_line(w, file);
}

}  // namespace mmdkit::cli
