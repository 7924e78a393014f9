// mmdkit format registry — .vac accessory settings: thin wiring of formats/vac.hpp into the generic commands
// (info, dump, check). A .vac has no signature: commands take it by its extension
// (docs/formats/vac.md).
#include <cmath>
#include <string>

#include "mmdkit/formats/registry.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/vac.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

std::string vec(const vac::Vec3& v) {
  return "[" + format_float_json(v[0]) + ", " + format_float_json(v[1]) + ", " + format_float_json(v[2]) + "]";
}

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto a, vac::read(bytes));
  warnings.insert(warnings.end(), a.warnings.begin(), a.warnings.end());
  if (flags.json)
    return "{\n  \"format\": \"vac\",\n  \"name\": " + json::string(a.name) + ",\n  \"x_file\": " + json::string(a.x_file) +
           ",\n  \"scale\": " + format_float_json(a.scale) + ",\n  \"position\": " + vec(a.position) +
           ",\n  \"rotation_degrees\": " + vec(a.rotation_degrees) + ",\n  \"bone\": " + json::string(a.bone) +
           ",\n  \"line_ending\": \"" + (a.crlf ? "crlf" : "lf") + "\"\n}\n";
  std::string out = "format: vac (accessory settings)\n";
  out += "name: " + a.name + "\n";
  out += ".x file: " + a.x_file + "\n";
  out += "scale: " + format_float(a.scale) + " (drawn at " + format_float(a.scale * 10) + " × the .x size)\n";
  out += "position: " + format_float(a.position[0]) + ", " + format_float(a.position[1]) + ", " + format_float(a.position[2]) + "\n";
  out += "rotation (degrees, X then Y then Z): " + format_float(a.rotation_degrees[0]) + ", " +
         format_float(a.rotation_degrees[1]) + ", " + format_float(a.rotation_degrees[2]) + "\n";
  out += "bone: " + (a.bone.empty() ? std::string("(none: placed in the world)") : a.bone) + "\n";
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags&, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto a, vac::read(bytes));
  warnings.insert(warnings.end(), a.warnings.begin(), a.warnings.end());
  const vac::Mat4 m = vac::placement_matrix(a);
  std::string o = "{\n  \"format\": \"vac\",\n  \"name\": " + json::string(a.name) + ",\n  \"x_file\": " +
                  json::string(a.x_file) + ",\n  \"scale\": " + format_float_json(a.scale) + ",\n  \"position\": " +
                  vec(a.position) + ",\n  \"rotation_degrees\": " + vec(a.rotation_degrees) + ",\n  \"bone\": " +
                  json::string(a.bone) + ",\n  \"has_bone_line\": " + (a.has_bone_line ? "true" : "false") +
                  ",\n  \"line_ending\": \"" + (a.crlf ? "crlf" : "lf") + "\",\n  \"extra_lines\": [";
  for (std::size_t i = 0; i < a.extra_lines.size(); ++i) o += (i ? ", " : "") + json::string(a.extra_lines[i]);
  o += "],\n  \"placement_matrix\": [";
  for (std::size_t i = 0; i < 16; ++i) o += (i ? ", " : "") + format_float_json(m[i]);
  o += "]\n}\n";
  return o;
}

Result<std::vector<Finding>> check(ByteSpan bytes, const ReadFlags& flags) {
  MMDKIT_TRY_ASSIGN(auto a, vac::read(bytes));
  std::vector<Finding> out;
  auto add = [&](bool error, ErrorCode code, std::string section, std::string message) {
    out.push_back(Finding{error, Error{code, std::move(message), std::move(section), -1, -1, {}}});
  };
  if (!std::isfinite(a.scale) || a.scale <= 0)
    add(true, ErrorCode::invalid_value, "line 3", "scale " + format_float(a.scale) + " is not a positive number");
  for (float v : a.position)
    if (!std::isfinite(v)) add(true, ErrorCode::invalid_value, "line 4", "position is not finite");
  for (float v : a.rotation_degrees)
    if (!std::isfinite(v)) add(true, ErrorCode::invalid_value, "line 5", "rotation is not finite");
  if (flags.input_folder) {
    auto p = vac::resolve_x_file(*flags.input_folder, a);
    if (!p) add(true, p.error().code == ErrorCode::io_error ? ErrorCode::io_error : ErrorCode::texture_escapes, "line 2", p.error().message);
  }
  for (const Warning& w : a.warnings) add(false, w.code, w.section, w.message);
  return out;
}

}  // namespace

const FormatOps& vac_ops() {
  static const FormatOps ops{.name = "vac", .extension = ".vac", .info = info, .to_json = to_json, .check = check};
  return ops;
}

}  // namespace mmdkit::formats
