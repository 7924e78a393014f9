// mmdkit format registry — VMD motions: thin wiring of the library (vmd.hpp, vmd_json.hpp, vmd_generate.hpp)
// into the generic commands.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "mmdkit/formats/registry.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "core/json.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

vmd::ReadOptions read_options(const ReadFlags& f) { return vmd::ReadOptions{f.encoding, f.strict}; }

constexpr const char* kSectionKeys[vmd::kSectionCount] = {"bone", "morph", "camera", "light", "self_shadow", "property"};

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  auto s = vmd::summarize(bytes, read_options(flags));
  if (!s) return std::unexpected(s.error());
  warnings.insert(warnings.end(), s->warnings.begin(), s->warnings.end());
  const int version = s->version == vmd::Version::v2 ? 2 : 1;
  const std::string sig(vmd::signature_text(s->version));
  std::string out;
  if (flags.json) {
    out += "{\n  \"format\": \"vmd\",\n  \"version\": " + std::to_string(version) +
           ",\n  \"signature\": " + json::string(sig) + ",\n  \"model_name\": " + json::string(s->model_name.text) +
           ",\n  \"encoding\": " + json::string(encoding_name(s->encoding)) +
           ",\n  \"file_bytes\": " + std::to_string(s->file_bytes) +
           ",\n  \"sections_present\": " + std::to_string(s->sections_present) + ",\n  \"counts\": {";
    for (int i = 0; i < vmd::kSectionCount; ++i)
      out += std::string(i ? ", " : "") + "\"" + kSectionKeys[i] + "\": " + std::to_string(s->counts[static_cast<std::size_t>(i)]);
    out += "},\n  \"ik_states\": " + std::to_string(s->ik_states) +
           ",\n  \"tracks\": {\"bone\": " + std::to_string(s->bone_tracks) +
           ", \"morph\": " + std::to_string(s->morph_tracks) + "},\n  \"frame_range\": ";
    out += s->frame_range ? "[" + std::to_string((*s->frame_range)[0]) + ", " + std::to_string((*s->frame_range)[1]) + "]"
                          : std::string("null");
    out += ",\n  \"trailing_bytes\": " + std::to_string(s->trailing_bytes) +
           ",\n  \"trailing_offset\": " + std::to_string(s->trailing_offset) + "\n}\n";
    return out;
  }
  out += "format: vmd (motion)\n";
  out += "version: " + std::to_string(version) + " (\"" + sig + "\")\n";
  out += "model name: " + s->model_name.text + "\n";
  out += "encoding: " + std::string(encoding_name(s->encoding)) + "\n";
  out += "file bytes: " + std::to_string(s->file_bytes) + "\n";
  out += "sections present: " + std::to_string(s->sections_present) + " (";
  for (int i = 0; i < s->sections_present; ++i) out += std::string(i ? ", " : "") + kSectionKeys[i];
  out += ")\n";
  out += "bone keys: " + std::to_string(s->counts[0]) + " (" + std::to_string(s->bone_tracks) + " tracks)\n";
  out += "morph keys: " + std::to_string(s->counts[1]) + " (" + std::to_string(s->morph_tracks) + " tracks)\n";
  out += "camera keys: " + std::to_string(s->counts[2]) + "\n";
  out += "light keys: " + std::to_string(s->counts[3]) + "\n";
  out += "self-shadow keys: " + std::to_string(s->counts[4]) + "\n";
  out += "property keys: " + std::to_string(s->counts[5]) + " (" + std::to_string(s->ik_states) + " IK states)\n";
  out += "frame range: " +
         (s->frame_range ? std::to_string((*s->frame_range)[0]) + ".." + std::to_string((*s->frame_range)[1])
                         : std::string("none")) +
         "\n";
  out += "trailing bytes: " + std::to_string(s->trailing_bytes);
  if (s->trailing_bytes) out += " at byte " + std::to_string(s->trailing_offset);
  out += "\n";
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, vmd::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  vmd::JsonWriteOptions o;
  o.euler = flags.euler;
  return vmd::to_json(r.motion, o);
}

Result<std::vector<std::uint8_t>> from_json(std::string_view json, const ReadFlags&) {
  MMDKIT_TRY_ASSIGN(auto m, vmd::from_json(json));
  return vmd::write(m);
}

Result<std::vector<std::uint8_t>> convert(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                          std::vector<Warning>& warnings) {
  if (target != "vmd") {
    // convert writes BVH too (cmd_convert_bvh.cpp, before this); a pose is `motion vpd`'s job.
    static constexpr std::string_view kAll[] = {".vmd", ".json", ".bvh (with --model)"};
    std::string why = converts_only_to({"a VMD motion", kAll}, target);
    if (target == "vpd") why += "; 'mmdkit motion vpd IN.vmd --model MODEL --frame F -o OUT.vpd' takes a pose from a motion";
    return make_error(ErrorCode::unsupported, why);
  }
  MMDKIT_TRY_ASSIGN(auto r, vmd::read(bytes, read_options(flags)));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  return vmd::write(r.motion);
}

Result<std::vector<std::uint8_t>> generate(const GenerateFlags& f) {
  constexpr std::uint64_t kMaxKeys = std::numeric_limits<std::uint32_t>::max();
  const std::uint64_t bytes = f.bone_keys * vmd::kBoneKeySize + f.morph_keys * vmd::kMorphKeySize +
                              f.camera_keys * vmd::kCameraKeySize + f.light_keys * vmd::kLightKeySize;
  if (f.bone_keys > kMaxKeys || f.morph_keys > kMaxKeys || f.camera_keys > kMaxKeys || f.light_keys > kMaxKeys ||
      bytes > (std::uint64_t{2} << 30))
    return make_error(ErrorCode::limit_exceeded, "generated VMD would exceed 2 GiB or 2^32-1 keys in a section");
  if (f.frames > std::numeric_limits<std::uint32_t>::max())
    return make_error(ErrorCode::invalid_argument, "--frames must fit in 32 bits");
  vmd::GenerateOptions o;
  o.seed = f.seed;
  o.bone_keys = f.bone_keys;
  o.morph_keys = f.morph_keys;
  o.camera_keys = f.camera_keys;
  o.light_keys = f.light_keys;
  o.frames = static_cast<std::uint32_t>(f.frames);
  if (!f.model.empty()) {
    // --model: tracks of the model's own bones and morphs, so that every one binds.
    std::vector<Warning> ignored;
    MMDKIT_TRY_ASSIGN(auto model, anim::read_model_file(f.model, anim::InputOptions{.encoding = {}, .geometry = false}, ignored));
    for (const model::Bone& b : model.bones) o.bone_names.push_back(b.name);
    // A motion for a model is one to watch: a random dance in view, above the floor, with the
    // model's expressions. Material morphs (and group / flip morphs driving one) are left out: at
    // random weights they recolour, whiten or hide whole materials (the generated figure's add
    // morph turns every material white).
    auto recolours = [&](const model::Morph& m) {
      if (m.type == model::MorphType::material) return true;
      for (const auto* offsets : {&m.group_offsets, &m.flip_offsets})
        for (const model::GroupOffset& g : *offsets)
          if (g.morph >= 0 && static_cast<std::size_t>(g.morph) < model.morphs.size() &&
              model.morphs[static_cast<std::size_t>(g.morph)].type == model::MorphType::material)
            return true;
      return false;
    };
    for (const model::Morph& m : model.morphs)
      if (!recolours(m)) o.morph_names.push_back(m.name);
    o.bone_style = vmd::BoneStyle::dance;
  }
  return vmd::write(vmd::generate(o));
}

Result<std::vector<Finding>> check(ByteSpan bytes, const ReadFlags& flags) {
  MMDKIT_TRY_ASSIGN(auto r, vmd::read(bytes, read_options(flags)));
  std::vector<Finding> out;
  for (const Warning& w : r.warnings) out.push_back(Finding{false, w});
  for (vmd::CheckFinding& f : vmd::check(r.motion))
    out.push_back(Finding{f.error, std::move(f.where), f.omitted, std::move(f.track), f.keys, std::move(f.frames)});
  return out;
}

}  // namespace

const FormatOps& vmd_ops() {
  static const FormatOps ops{.name = "vmd", .extension = ".vmd", .info = info, .to_json = to_json,
                             .from_json = from_json, .convert = convert, .generate = generate, .check = check};
  return ops;
}

}  // namespace mmdkit::formats
