#include "cli/format_ops.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace mmdkit::cli {

std::vector<const FormatOps*> all_formats() { return {&vmd_ops(), &vpd_ops(), &pmd_ops(), &pmx_ops()}; }

const FormatOps* format_by_name(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (!n.empty() && n[0] == '.') n.erase(0, 1);
  for (const FormatOps* f : all_formats())
    if (f->name == n) return f;
  return nullptr;
}

const FormatOps* format_by_content(ByteSpan bytes) {
  for (const FormatOps* f : all_formats())
    if (f->sniff && f->sniff(bytes)) return f;
  return nullptr;
}

const FormatOps* format_of_json(std::string_view json) {
  std::string head(json.substr(0, 4096));
  static const std::regex re(R"re("format"\s*:\s*"([A-Za-z0-9]+)")re");
  std::smatch m;
  if (!std::regex_search(head, m, re)) return nullptr;
  return format_by_name(m[1].str());
}

}  // namespace mmdkit::cli
