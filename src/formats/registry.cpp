#include "cli/format_ops.hpp"

#include "mmdkit/core/file_format.hpp"

#include <algorithm>
#include <cctype>

namespace mmdkit::cli {

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

// One detection rule for every command (anim/input_files.hpp detect_format): the commands that
// read any file (info, dump, convert, check) and those that read models and motions (pose,
// sample, ...) accept and refuse the same bytes.
const FormatOps* format_by_content(ByteSpan bytes) {
  const DetectedFormat d = detect_format(bytes);
  if (d.json || d.format == FileFormat::unknown) return nullptr;
  return format_by_name(file_format_name(d.format));
}

std::string face_line(std::uint64_t n) {
  const std::uint64_t t = n / 3;
  return "face indices: " + std::to_string(n) + " (" + std::to_string(t) + (t == 1 ? " triangle)\n" : " triangles)\n");
}

const FormatOps* format_of_json(std::string_view json) {
  const DetectedFormat d =
      detect_format(ByteSpan(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()));
  if (!d.json) return nullptr;
  return format_by_name(file_format_name(d.format));
}

}  // namespace mmdkit::cli
