// mmdkit — .vac accessory settings (vac.hpp). Rules and sources: docs/formats/vac.md.
#include "mmdkit/formats/vac.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/model/textures.hpp"
#include "core/try.hpp"

namespace mmdkit::vac {

namespace {

struct Line {
  std::string_view text;  // without CR / LF
  std::size_t offset = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_number(std::string_view t, float& out) {
  t = trim(t);
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  if (t.empty()) return false;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

std::string decode(std::string_view raw) {
  return decode_text(ByteSpan(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()), Encoding::cp932);
}

Error line_error(ErrorCode code, std::string message, std::size_t line, std::size_t offset) {
  Error e{code, std::move(message), "line " + std::to_string(line), -1, static_cast<std::int64_t>(offset), {}};
  e.line = static_cast<std::int64_t>(line);
  e.column = 1;
  return e;
}

}  // namespace

Result<Accessory> read(ByteSpan bytes) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "empty input", "line 1", -1, 0);
  const std::string_view all(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::vector<Line> lines;
  Accessory a;
  {
    std::size_t start = 0;
    bool first = true;
    while (start < all.size()) {
      std::size_t nl = all.find('\n', start);
      const bool last = nl == std::string_view::npos;
      if (last) nl = all.size();
      std::string_view t = all.substr(start, nl - start);
      const bool cr = !t.empty() && t.back() == '\r';
      if (cr) t.remove_suffix(1);
      if (first) {
        a.crlf = cr || last;  // a one-line file: default CR LF
        first = false;
      }
      lines.push_back(Line{t, start});
      start = nl + 1;
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].text.find('\0') != std::string_view::npos)
      return std::unexpected(line_error(ErrorCode::invalid_value, "line holds a NUL byte (not a text file)", i + 1, lines[i].offset));
  if (lines.size() < 5)
    return std::unexpected(line_error(ErrorCode::truncated,
                                      "a .vac has 6 lines (name, .x file, scale, position, rotation, bone); this one ends after " +
                                          std::to_string(lines.size()),
                                      lines.size() + 1, bytes.size()));
  a.name_raw.assign(lines[0].text.begin(), lines[0].text.end());
  a.name = decode(lines[0].text);
  const std::string_view xf = trim(lines[1].text);
  if (xf.empty()) return std::unexpected(line_error(ErrorCode::invalid_value, "line 2 (the .x file) is empty", 2, lines[1].offset));
  a.x_file_raw.assign(xf.begin(), xf.end());
  a.x_file = decode(xf);
  if (a.x_file.empty())  // bytes that decode to nothing (e.g. a lone CP932 lead byte): no file name
    return std::unexpected(line_error(ErrorCode::invalid_value, "line 2 (the .x file) decodes to no text", 2, lines[1].offset));
  if (!parse_number(lines[2].text, a.scale))
    return std::unexpected(line_error(ErrorCode::invalid_value, "line 3 (scale) '" + decode(lines[2].text) + "' is not a number", 3,
                                      lines[2].offset));
  auto triple = [&](std::size_t li, Vec3& out, const char* what) -> Result<void> {
    std::string_view t = lines[li].text;
    for (int k = 0; k < 3; ++k) {
      const std::size_t comma = t.find(',');
      const std::string_view part = k < 2 ? t.substr(0, comma) : t;
      if ((k < 2 && comma == std::string_view::npos) || !parse_number(part, out[static_cast<std::size_t>(k)]))
        return std::unexpected(line_error(ErrorCode::invalid_value,
                                          "line " + std::to_string(li + 1) + " (" + what + ") '" + decode(lines[li].text) +
                                              "' is not three comma-separated numbers",
                                          li + 1, lines[li].offset));
      if (k < 2) t.remove_prefix(comma + 1);
    }
    return {};
  };
  MMDKIT_TRY(triple(3, a.position, "position x,y,z"));
  MMDKIT_TRY(triple(4, a.rotation_degrees, "rotation x,y,z in degrees"));
  if (lines.size() >= 6) {
    a.has_bone_line = true;
    const std::string_view b = trim(lines[5].text);
    a.bone_raw.assign(b.begin(), b.end());
    a.bone = decode(b);
  } else {
    a.warnings.push_back(line_error(ErrorCode::truncated, "no line 6 (bone): the accessory is placed in the world", 6, bytes.size()));
  }
  for (std::size_t i = 6; i < lines.size(); ++i) {
    if (trim(lines[i].text).empty()) continue;
    // MMD reads six lines and ignores the rest: its stock accessories (ネギ(右手).vac) carry the
    // format's description in Japanese below them. Kept, no warning.
    a.extra_lines.push_back(decode(lines[i].text));
  }
  return a;
}

Result<Accessory> read_file(const std::filesystem::path& path) {
  MMDKIT_TRY_ASSIGN(auto bytes, mmdkit::read_file(path));
  auto a = read(bytes);
  if (!a) {
    Error e = a.error();
    e.file = path.string();
    return std::unexpected(std::move(e));
  }
  return a;
}

Mat4 placement_matrix(float scale, const Vec3& p, const Vec3& deg) noexcept {
  constexpr float kRad = 3.14159265358979323846f / 180.0f;
  const float cx = std::cos(deg[0] * kRad), sx = std::sin(deg[0] * kRad);
  const float cy = std::cos(deg[1] * kRad), sy = std::sin(deg[1] * kRad);
  const float cz = std::cos(deg[2] * kRad), sz = std::sin(deg[2] * kRad);
  // R = Rz · Ry · Rx (column vectors), rows:
  const float r00 = cz * cy, r01 = cz * sy * sx - sz * cx, r02 = cz * sy * cx + sz * sx;
  const float r10 = sz * cy, r11 = sz * sy * sx + cz * cx, r12 = sz * sy * cx - cz * sx;
  const float r20 = -sy, r21 = cy * sx, r22 = cy * cx;
  const float s = scale;
  return Mat4{r00 * s, r10 * s, r20 * s, 0,  // column 0
              r01 * s, r11 * s, r21 * s, 0,  // column 1
              r02 * s, r12 * s, r22 * s, 0,  // column 2
              p[0],    p[1],    p[2],    1};
}

Mat4 placement_matrix(const Accessory& a) noexcept { return placement_matrix(a.scale, a.position, a.rotation_degrees); }

Result<std::filesystem::path> resolve_x_file(const std::filesystem::path& vac_folder, const Accessory& a) {
  const model::TextureLookup t = model::resolve_texture(vac_folder, a.x_file);
  switch (t.status) {
    case model::TextureStatus::found: return t.path;
    case model::TextureStatus::escapes:
      return make_error(ErrorCode::invalid_value, "the .x file '" + a.x_file + "' is refused: " + t.message, "line 2");
    default:
      return make_error(ErrorCode::io_error, "the .x file '" + a.x_file + "' is not in folder '" + vac_folder.string() + "'", "line 2");
  }
}

}  // namespace mmdkit::vac
