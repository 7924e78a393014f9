// Format detection by content (core/file_format.hpp).
#include "mmdkit/core/file_format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>

namespace mmdkit {

std::string_view file_format_name(FileFormat f) noexcept {
  switch (f) {
    case FileFormat::vmd: return "vmd";
    case FileFormat::vpd: return "vpd";
    case FileFormat::pmd: return "pmd";
    case FileFormat::pmx: return "pmx";
    case FileFormat::x: return "x";
    case FileFormat::pmm: return "pmm";
    case FileFormat::unknown: break;
  }
  return "unknown";
}

namespace {

constexpr std::string_view kVmdSignatureV2 = "Vocaloid Motion Data 0002";
constexpr std::string_view kVmdSignatureV1 = "Vocaloid Motion Data file";
constexpr std::string_view kVpdSignature = "Vocaloid Pose Data file";
constexpr std::string_view kPmmSignature = "Polygon Movie maker 000";

// `bytes` start with the first min(size, sig.size()) bytes of `sig`, and hold at least `min` bytes.
bool starts_like(ByteSpan bytes, std::string_view sig, std::size_t min) {
  if (bytes.size() < min) return false;
  const std::size_t n = std::min(bytes.size(), sig.size());
  return std::memcmp(bytes.data(), sig.data(), n) == 0;
}

FileFormat binary_format(ByteSpan b) {
  if (b.size() >= 4 && std::memcmp(b.data(), "PMX ", 4) == 0) return FileFormat::pmx;
  if (b.size() >= 4 && std::memcmp(b.data(), "xof ", 4) == 0) return FileFormat::x;  // x::kMagic
  if (b.size() >= 3 && std::memcmp(b.data(), "Pmd", 3) == 0) {
    if (b.size() < 7) return FileFormat::pmd;  // cut inside the version: the reader says so
    float version;
    std::memcpy(&version, b.data() + 3, 4);
    if (std::isfinite(version) && version > 0.0f && version < 100.0f) return FileFormat::pmd;
    return FileFormat::unknown;
  }
  // "Vocaloid " starts both VMD and VPD; 10 bytes tell them apart. The signatures are the
  // formats' own (vmd::signature_text, vpd::kSignature; tests/core/file_format_test.cpp checks).
  for (std::string_view sig : {kVmdSignatureV2, kVmdSignatureV1})
    if (starts_like(b, sig, 10)) return FileFormat::vmd;
  if (starts_like(b, kVpdSignature, 10)) return FileFormat::vpd;
  if (starts_like(b, kPmmSignature, 10)) return FileFormat::pmm;  // pmm::signature_text without the digit
  return FileFormat::unknown;
}

FileFormat json_format(ByteSpan b) {
  std::size_t i = 0;
  if (b.size() >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;  // UTF-8 BOM
  while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) ++i;
  if (i >= b.size() || b[i] != '{') return FileFormat::unknown;
  const std::string_view head(reinterpret_cast<const char*>(b.data()), std::min<std::size_t>(b.size(), 4096));
  for (std::size_t at = head.find("\"format\""); at != std::string_view::npos;
       at = head.find("\"format\"", at + 1)) {
    std::size_t k = at + 8;
    auto skip = [&] {
      while (k < head.size() && (head[k] == ' ' || head[k] == '\t' || head[k] == '\r' || head[k] == '\n')) ++k;
    };
    skip();
    if (k >= head.size() || head[k] != ':') continue;
    ++k;
    skip();
    if (k >= head.size() || head[k] != '"') continue;
    const std::size_t end = head.find('"', k + 1);
    if (end == std::string_view::npos) break;
    std::string name(head.substr(k + 1, end - k - 1));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (FileFormat f : {FileFormat::vmd, FileFormat::vpd, FileFormat::pmd, FileFormat::pmx, FileFormat::pmm})
      if (file_format_name(f) == name) return f;
    return FileFormat::unknown;
  }
  return FileFormat::unknown;
}

}  // namespace

DetectedFormat detect_format(ByteSpan bytes) noexcept {
  if (FileFormat f = binary_format(bytes); f != FileFormat::unknown) return {f, false};
  if (FileFormat f = json_format(bytes); f != FileFormat::unknown) return {f, true};
  return {};
}

}  // namespace mmdkit
