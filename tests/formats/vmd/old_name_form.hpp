// The name form of VMD JSON dumped before the one name form (docs/CONVENTIONS.md "Names in JSON"):
// "k":{"text":T,"raw":"H"} becomes "k":T,"k_hex":"H". Compact output only; texts without '}'.
#pragma once

#include <string>

namespace mmdkit::vmd::test {

inline std::string to_old_name_form(std::string j) {
  const std::string open = "\":{\"text\":";
  for (std::size_t at; (at = j.find(open)) != std::string::npos;) {
    const std::size_t key_start = j.rfind('"', at - 1) + 1;
    const std::string key = j.substr(key_start, at - key_start);
    const std::size_t raw = j.find(",\"raw\":", at);
    const std::size_t close = j.find('}', raw);
    const std::string text = j.substr(at + open.size(), raw - at - open.size());
    const std::string hex = j.substr(raw + 7, close - raw - 7);
    j.replace(at, close + 1 - at, "\":" + text + ",\"" + key + "_hex\":" + hex);
  }
  return j;
}

}  // namespace mmdkit::vmd::test
