// mmdkit format registry — PMX models: thin wiring of the library (pmx.hpp, pmx_json.hpp, pmx_generate.hpp)
// into the generic commands.
#include <cstdio>
#include <cstring>
#include <string>

#include "mmdkit/formats/registry.hpp"
#include "core/json.hpp"
#include "formats/model_ops.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/convert.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

pmx::ReadOptions read_options(const ReadFlags& f) { return pmx::ReadOptions{.strict = f.strict}; }

// One-line form of a multi-line comment for the text summary.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\r' || c == '\n' || c == '\t') c = ' ';
  return s;
}

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  // Summary only: vertices and faces are validated, not stored (memory stays near the file size).
  pmx::ReadOptions o = read_options(flags);
  o.skip_geometry = true;
  MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, o));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  const pmx::Model& m = r.model;
  const pmx::Header& h = m.header;
  const pmx::Counts& c = r.counts;
  std::array<std::uint64_t, pmx::kMorphTypeCount> morph_types{};
  for (const auto& mo : m.morphs) ++morph_types[static_cast<std::size_t>(mo.type)];
  std::uint64_t ik_bones = 0, append_bones = 0;
  for (const auto& b : m.bones) {
    ik_bones += b.has(pmx::kIk);
    append_bones += (b.flags & (pmx::kAppendRotation | pmx::kAppendTranslation)) != 0;
  }
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"vertices", c.vertices},         {"face_indices", c.face_indices}, {"triangles", c.faces}, {"textures", c.textures},
      {"materials", c.materials},       {"bones", c.bones},         {"morphs", c.morphs},
      {"display_frames", c.display_frames}, {"rigid_bodies", c.rigid_bodies}, {"joints", c.joints},
      {"soft_bodies", c.soft_bodies}};
  const std::pair<const char*, std::uint8_t> sizes[] = {
      {"vertex", h.vertex_index_size}, {"texture", h.texture_index_size}, {"material", h.material_index_size},
      {"bone", h.bone_index_size},     {"morph", h.morph_index_size},     {"rigid_body", h.rigid_body_index_size}};
  std::string out;
  if (flags.json) {
    out += "{\n  \"format\": \"pmx\",\n  \"version\": \"" + std::string(pmx::version_name(h.version)) +
           "\",\n  \"encoding\": " + json::string(encoding_name(h.encoding)) +
           ",\n  \"globals\": " + std::to_string(pmx::kKnownGlobals + h.extra_globals.size()) +
           ",\n  \"additional_uvs\": " + std::to_string(h.additional_uv_count) + ",\n  \"index_sizes\": {";
    for (std::size_t i = 0; i < 6; ++i)
      out += std::string(i ? ", " : "") + "\"" + sizes[i].first + "\": " + std::to_string(sizes[i].second);
    out += "},\n  \"name\": " + json::string(m.name.text) + ",\n  \"name_en\": " + json::string(m.name_en.text) +
           ",\n  \"comment\": " + json::string(m.comment.text) + ",\n  \"file_bytes\": " + std::to_string(bytes.size()) +
           ",\n  \"counts\": {";
    for (std::size_t i = 0; i < std::size(counts); ++i)
      out += std::string(i ? ", " : "") + "\"" + counts[i].first + "\": " + std::to_string(counts[i].second);
    out += "},\n  \"sdef_vertices\": " + std::to_string(c.sdef_vertices) + ",\n  \"ik_bones\": " +
           std::to_string(ik_bones) + ",\n  \"append_bones\": " + std::to_string(append_bones) +
           ",\n  \"morph_types\": {";
    bool first = true;
    for (std::size_t t = 0; t < morph_types.size(); ++t) {
      if (!morph_types[t]) continue;
      out += std::string(first ? "" : ", ") + "\"" + std::string(pmx::morph_type_name(static_cast<pmx::MorphType>(t))) +
             "\": " + std::to_string(morph_types[t]);
      first = false;
    }
    out += "},\n  \"trailing_bytes\": " + std::to_string(c.trailing_bytes) +
           ",\n  \"trailing_offset\": " + std::to_string(m.trailing_offset) + "\n}\n";
    return out;
  }
  out += "format: pmx (model)\n";
  out += "version: " + std::string(pmx::version_name(h.version)) + "\n";
  out += "encoding: " + std::string(encoding_name(h.encoding)) + "\n";
  out += "additional UVs: " + std::to_string(h.additional_uv_count) + "\n";
  out += "index sizes:";
  for (const auto& [k, v] : sizes) out += std::string(" ") + k + "=" + std::to_string(v);
  out += "\n";
  out += "name: " + m.name.text + "\n";
  out += "English name: " + m.name_en.text + "\n";
  out += "comment: " + one_line(m.comment.text) + "\n";
  out += "file bytes: " + std::to_string(bytes.size()) + "\n";
  out += "vertices: " + std::to_string(c.vertices) + " (" + std::to_string(c.sdef_vertices) + " SDEF)\n";
  out += face_line(c.face_indices);
  out += "textures: " + std::to_string(c.textures) + "\n";
  out += "materials: " + std::to_string(c.materials) + "\n";
  out += "bones: " + std::to_string(c.bones) + " (" + std::to_string(ik_bones) + " IK, " + std::to_string(append_bones) +
         " append)\n";
  out += "morphs: " + std::to_string(c.morphs);
  bool first = true;
  for (std::size_t t = 0; t < morph_types.size(); ++t) {
    if (!morph_types[t]) continue;
    out += std::string(first ? " (" : ", ") + std::string(pmx::morph_type_name(static_cast<pmx::MorphType>(t))) + " " +
           std::to_string(morph_types[t]);
    first = false;
  }
  out += first ? "\n" : ")\n";
  out += "display frames: " + std::to_string(c.display_frames) + "\n";
  out += "rigid bodies: " + std::to_string(c.rigid_bodies) + "\n";
  out += "joints: " + std::to_string(c.joints) + "\n";
  out += "soft bodies: " + std::to_string(c.soft_bodies) + "\n";
  out += "trailing bytes: " + std::to_string(c.trailing_bytes);
  if (c.trailing_bytes) out += " at byte " + std::to_string(m.trailing_offset);
  out += "\n";
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  return pmx::to_json(r.model);
}

Result<std::vector<std::uint8_t>> from_json(std::string_view json, const ReadFlags&) {
  MMDKIT_TRY_ASSIGN(auto m, pmx::from_json(json));
  return pmx::write(m);
}

Result<std::vector<std::uint8_t>> convert(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                          std::vector<Warning>& warnings) {
  if (target != "pmx" && target != "pmd")
    return make_error(ErrorCode::unsupported, "a PMX model converts to .pmx, .pmd or .json, not ." + std::string(target));
  MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  if (target == "pmd") {
    // Only a model that fits PMD (model/convert.hpp to_pmd: the error lists what does not fit).
    MMDKIT_TRY_ASSIGN(auto p, model::pmx_to_pmd(r.model, &warnings, {.lossy = flags.lossy}));
    return pmd::write(p);
  }
  return pmx::write(r.model);
}

Result<std::vector<std::uint8_t>> generate(const GenerateFlags& f) {
  MMDKIT_TRY_ASSIGN(auto variant, pmx::parse_generate_variant(f.format_variant));
  // About 60 bytes per vertex; keep the output below 2 GiB.
  if (f.vertices > 30'000'000 || f.bones > 1'000'000 || f.morphs > 1'000'000)
    return make_error(ErrorCode::limit_exceeded,
                      "generate pmx is limited to 30,000,000 vertices and 1,000,000 bones or morphs");
  pmx::GenerateOptions o;
  o.seed = f.seed;
  o.vertices = f.vertices;
  o.bones = f.bones;
  o.morphs = f.morphs;
  o.variant = variant;
  if (f.shape == "figure")
    o.shape = pmx::GenerateShape::figure;
  else if (!f.shape.empty() && f.shape != "scatter")
    return make_error(ErrorCode::invalid_argument, "generate pmx has no shape '" + f.shape + "' (scatter or figure)");
  MMDKIT_TRY_ASSIGN(auto m, pmx::generate(o));
  return pmx::write(m);
}

}  // namespace

const FormatOps& pmx_ops() {
  static const FormatOps ops{.name = "pmx", .extension = ".pmx", .info = info, .to_json = to_json,
                             .from_json = from_json, .convert = convert, .generate = generate, .check = check_pmx_ops};
  return ops;
}

}  // namespace mmdkit::formats
