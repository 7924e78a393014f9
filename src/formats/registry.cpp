// mmdkit — the format registry (mmdkit/formats/registry.hpp): lookups and the output-extension rule.
#include "mmdkit/formats/registry.hpp"

#include "mmdkit/core/file_format.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace mmdkit::formats {

std::vector<const FormatOps*> all_formats() {
  return {&vmd_ops(), &vpd_ops(), &pmd_ops(), &pmx_ops(), &x_ops(), &vac_ops(), &pmm_ops()};
}

const FormatOps* format_by_name(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (!n.empty() && n[0] == '.') n.erase(0, 1);
  for (const FormatOps* f : all_formats())
    if (f->name == n) return f;
  return nullptr;
}

// One detection rule for every command and the Python module (core/file_format.hpp detect_format):
// the commands that read any file (info, dump, convert, check) and those that read models and
// motions (pose, sample, ...) accept and refuse the same bytes.
const FormatOps* format_by_content(ByteSpan bytes) {
  const DetectedFormat d = detect_format(bytes);
  if (d.json || d.format == FileFormat::unknown) return nullptr;
  return format_by_name(file_format_name(d.format));
}

const FormatOps* format_of_json(std::string_view json) {
  const DetectedFormat d =
      detect_format(ByteSpan(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()));
  if (!d.json) return nullptr;
  return format_by_name(file_format_name(d.format));
}

std::string lower_extension(std::string_view path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

std::string converts_only_to(const OutputKind& kind, std::string_view ext) {
  std::string out = std::string(kind.what) + " converts only to ";
  for (std::size_t i = 0; i < kind.allowed.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == kind.allowed.size() ? " or " : ", ") + std::string(kind.allowed[i]);
  if (!ext.empty() && ext.front() == '.') ext.remove_prefix(1);
  return out + ", not ." + std::string(ext);
}

std::string output_extension_problem(std::string_view output, const OutputKind& kind) {
  if (output == "-") return {};  // the standard output
  const std::string ext = lower_extension(output);
  if (ext.empty()) return {};
  for (std::string_view a : kind.allowed)
    if (ext == a) return {};
  return converts_only_to(kind, ext);
}

}  // namespace mmdkit::formats
