// mmdkit format registry — PMD models: thin wiring of the library (pmd.hpp, pmd_json.hpp) into the generic
// commands; convert (.pmd, .pmx), generate and check come from model_ops (the model view).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "mmdkit/formats/registry.hpp"
#include "formats/model_ops.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

pmd::ReadOptions read_options(const ReadFlags& f) { return pmd::ReadOptions{f.encoding, f.strict}; }

std::string first_line(const std::string& s) {
  std::size_t end = s.find_first_of("\r\n");
  return end == std::string::npos ? s : s.substr(0, end);
}

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  const pmd::Model& m = r.model;
  std::size_t links = 0, offsets = 0;
  for (const pmd::IkChain& k : m.ik_chains) links += k.links.size();
  for (const pmd::Morph& x : m.morphs) offsets += x.offsets.size();
  const bool toon = m.tail >= pmd::Tail::toon_textures, rigid = m.tail >= pmd::Tail::rigid_bodies,
             joints = m.tail >= pmd::Tail::joints;
  struct Count {
    const char* key;
    std::size_t n;
  };
  const Count counts[] = {{"vertices", m.vertices.size()},
                          {"face_indices", m.indices.size()},
                          {"triangles", m.indices.size() / 3},
                          {"materials", m.materials.size()},
                          {"bones", m.bones.size()},
                          {"ik_chains", m.ik_chains.size()},
                          {"ik_links", links},
                          {"morphs", m.morphs.size()},
                          {"morph_offsets", offsets},
                          {"morph_display", m.morph_display.size()},
                          {"bone_frames", m.bone_frames.size()},
                          {"bone_display", m.bone_display.size()},
                          {"rigid_bodies", m.rigid_bodies.size()},
                          {"joints", m.joints.size()}};
  std::string out;
  if (flags.json) {
    out += "{\n  \"format\": \"pmd\",\n  \"version\": " + format_float_json(m.version) +
           ",\n  \"name\": " + json::string(m.name.text) +
           ",\n  \"name_en\": " + (m.english ? json::string(m.english->name.text) : std::string("null")) +
           ",\n  \"comment\": " + json::string(m.comment.text) +
           ",\n  \"encoding\": " + json::string(encoding_name(m.encoding)) +
           ",\n  \"file_bytes\": " + std::to_string(bytes.size()) + ",\n  \"counts\": {";
    bool first = true;
    for (const Count& c : counts) {
      out += std::string(first ? "" : ", ") + "\"" + c.key + "\": " + std::to_string(c.n);
      first = false;
    }
    out += "},\n  \"tail\": " + json::string(pmd::tail_name(m.tail)) + ",\n  \"parts\": {\"english\": " +
           (m.english ? "true" : "false") + ", \"toon_textures\": " + (toon ? "true" : "false") +
           ", \"rigid_bodies\": " + (rigid ? "true" : "false") + ", \"joints\": " + (joints ? "true" : "false") +
           "},\n  \"trailing_bytes\": " + std::to_string(m.trailing.size()) +
           ",\n  \"trailing_offset\": " + std::to_string(m.trailing_offset) + "\n}\n";
    return out;
  }
  const std::string version = format_float(m.version);
  out += "format: pmd (model)\n";
  out += "version: " + std::string(version) + "\n";
  out += "name: " + m.name.text + "\n";
  out += "comment: " + first_line(m.comment.text) + "\n";
  if (m.english) out += "English name: " + m.english->name.text + "\n";
  out += "encoding: " + std::string(encoding_name(m.encoding)) + "\n";
  out += "file bytes: " + std::to_string(bytes.size()) + "\n";
  out += "vertices: " + std::to_string(m.vertices.size()) + "\n";
  out += face_line(m.indices.size());
  out += "materials: " + std::to_string(m.materials.size()) + "\n";
  out += "bones: " + std::to_string(m.bones.size()) + "\n";
  out += "IK chains: " + std::to_string(m.ik_chains.size()) + " (" + std::to_string(links) + " links)\n";
  out += "morphs: " + std::to_string(m.morphs.size()) + " (" + std::to_string(offsets) + " offsets)\n";
  out += "morph display: " + std::to_string(m.morph_display.size()) + "\n";
  out += "bone frames: " + std::to_string(m.bone_frames.size()) + "\n";
  out += "bone display: " + std::to_string(m.bone_display.size()) + "\n";
  out += "optional parts: english " + std::string(m.english ? "yes" : (m.tail >= pmd::Tail::english ? "no (flag 0)" : "no")) +
         ", toon textures " + (toon ? "yes" : "no") + ", rigid bodies " +
         (rigid ? std::to_string(m.rigid_bodies.size()) : std::string("absent")) + ", joints " +
         (joints ? std::to_string(m.joints.size()) : std::string("absent")) + "\n";
  out += "trailing bytes: " + std::to_string(m.trailing.size());
  if (!m.trailing.empty()) out += " at byte " + std::to_string(m.trailing_offset);
  out += "\n";
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  return pmd::to_json(r.model);
}

Result<std::vector<std::uint8_t>> from_json(std::string_view json, const ReadFlags&) {
  MMDKIT_TRY_ASSIGN(auto m, pmd::from_json(json));
  return pmd::write(m);
}

}  // namespace

const FormatOps& pmd_ops() {
  static const FormatOps ops{.name = "pmd", .extension = ".pmd", .info = info, .to_json = to_json,
                             .from_json = from_json, .convert = convert_pmd, .generate = generate_pmd, .check = check_pmd_ops};
  return ops;
}

}  // namespace mmdkit::formats
