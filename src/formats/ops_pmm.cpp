// mmdkit format registry — MMD projects (.pmm): thin wiring of the library (formats/pmm.hpp) into the
// generic commands. A version-1 project stores no bone / morph counts: they are read from the
// model files it names, found below the project's folder (pmm::resolve_path).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mmdkit/formats/registry.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

/// The bone, morph and IK counts of a model file (PMD or PMX), or nullopt when it cannot be read.
std::optional<pmm::ModelCounts> model_file_counts(const std::filesystem::path& path) {
  pmd::ReadOptions pmd_options;
  pmd_options.skip_geometry = true;
  if (auto r = pmd::read_file(path, pmd_options); r) {
    return pmm::ModelCounts{r->model.bones.size(), r->model.morphs.size(), r->model.ik_chains.size()};
  }
  pmx::ReadOptions pmx_options;
  pmx_options.skip_geometry = true;
  if (auto r = pmx::read_file(path, pmx_options); r) {
    std::size_t iks = 0;
    for (const auto& b : r->model.bones) iks += b.has(pmx::kIk) ? 1 : 0;
    return pmm::ModelCounts{r->model.bones.size(), r->model.morphs.size(), iks};
  }
  return std::nullopt;
}

// The folders a project's files are looked for in: its own, then each --search-dir.
std::vector<std::filesystem::path> project_folders(const ReadFlags& f) {
  std::vector<std::filesystem::path> folders;
  if (f.project_folder) folders.push_back(*f.project_folder);
  folders.insert(folders.end(), f.search_folders.begin(), f.search_folders.end());
  return folders;
}

// The first folder's file for `stored` (pmm::resolve_path per folder, in order).
std::optional<std::filesystem::path> find_in(const std::string& stored, const std::vector<std::filesystem::path>& folders) {
  for (const std::filesystem::path& folder : folders)
    if (auto p = pmm::resolve_path(stored, folder)) return p;
  return std::nullopt;
}

pmm::ReadOptions read_options(const ReadFlags& f) {
  pmm::ReadOptions o;
  o.encoding = f.encoding;
  o.strict = f.strict;
  if (f.project_folder) {
    o.model_counts = [folders = project_folders(f)](const pmm::ModelRef& m) -> std::optional<pmm::ModelCounts> {
      auto path = find_in(m.path->text, folders);
      if (!path) return std::nullopt;
      return model_file_counts(*path);
    };
  }
  return o;
}

Result<pmm::ReadResult> read(ByteSpan bytes, const ReadFlags& flags) {
  auto r = pmm::read(bytes, read_options(flags));
  if (!r && r.error().code == ErrorCode::unsupported && !flags.project_folder)
    r.error().message += "; the project was not read from a file (standard input, or bytes in memory), so there is no folder to find its models in";
  return r;
}

std::string frame_range(const pmm::Document& d) {
  return std::to_string(d.begin_frame) + (d.begin_enabled ? "" : " (off)") + ".." + std::to_string(d.end_frame) +
         (d.end_enabled ? "" : " (off)");
}

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, read(bytes, flags));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  const pmm::Document& d = r.document;
  const bool v2 = d.version == pmm::Version::v2;
  std::string out;
  if (flags.json) {
    out += "{\n  \"format\": \"pmm\",\n  \"version\": " + std::to_string(v2 ? 2 : 1) +
           ",\n  \"encoding\": " + json::string(encoding_name(d.encoding)) +
           ",\n  \"file_bytes\": " + std::to_string(bytes.size()) +
           ",\n  \"output_size\": [" + std::to_string(d.output_width) + ", " + std::to_string(d.output_height) +
           "],\n  \"fps\": " + format_float_json(d.preferred_fps) +
           ",\n  \"play_range\": {\"begin\": " + std::to_string(d.begin_frame) +
           ", \"begin_enabled\": " + (d.begin_enabled ? "true" : "false") + ", \"end\": " + std::to_string(d.end_frame) +
           ", \"end_enabled\": " + (d.end_enabled ? "true" : "false") + "},\n  \"models\": [";
    for (std::size_t i = 0; i < d.models.size(); ++i) {
      const auto& m = d.models[i];
      out += std::string(i ? "," : "") + "\n    {\"name\": " + json::string(m.name.text) +
             ", \"path\": " + json::string(m.path.text) + ", \"bones\": " + std::to_string(m.initial_bone_keys.size()) +
             ", \"morphs\": " + std::to_string(m.initial_morph_keys.size()) +
             ", \"bone_keys\": " + std::to_string(m.bone_keys.size()) +
             ", \"morph_keys\": " + std::to_string(m.morph_keys.size()) +
             ", \"model_keys\": " + std::to_string(m.model_keys.size()) + "}";
    }
    out += std::string(d.models.empty() ? "" : "\n  ") + "],\n  \"accessories\": [";
    for (std::size_t i = 0; i < d.accessories.size(); ++i) {
      const auto& a = d.accessories[i];
      out += std::string(i ? "," : "") + "\n    {\"name\": " + json::string(a.name.text) +
             ", \"path\": " + json::string(a.path.text) + ", \"keys\": " + std::to_string(a.keys.size()) + "}";
    }
    out += std::string(d.accessories.empty() ? "" : "\n  ") + "],\n  \"camera_keys\": " +
           std::to_string(d.camera.keys.size()) + ",\n  \"light_keys\": " + std::to_string(d.light.keys.size());
    if (v2)
      out += ",\n  \"gravity_keys\": " + std::to_string(d.gravity.keys.size()) +
             ",\n  \"self_shadow_keys\": " + std::to_string(d.self_shadow.keys.size());
    out += ",\n  \"audio\": " + json::string(d.audio_path.text) + ",\n  \"trailing_bytes\": " +
           std::to_string(d.trailing.size()) + "\n}\n";
    return out;
  }
  out += "format: pmm (MMD project)\n";
  out += "version: " + std::to_string(v2 ? 2 : 1) + " (\"" + std::string(pmm::signature_text(d.version)) + "\")\n";
  out += "encoding: " + std::string(encoding_name(d.encoding)) + "\n";
  out += "file bytes: " + std::to_string(bytes.size()) + "\n";
  out += "output size: " + std::to_string(d.output_width) + "x" + std::to_string(d.output_height) + "\n";
  out += "fps: " + format_float(d.preferred_fps) + "\n";
  out += "play range: " + frame_range(d) + "\n";
  out += "models: " + std::to_string(d.models.size()) + "\n";
  for (std::size_t i = 0; i < d.models.size(); ++i) {
    const auto& m = d.models[i];
    out += "  " + std::to_string(i) + " " + m.name.text + " (" + m.path.text + "): " +
           std::to_string(m.initial_bone_keys.size()) + " bones, " + std::to_string(m.initial_morph_keys.size()) +
           " morphs; keys: " + std::to_string(m.bone_keys.size()) + " bone, " + std::to_string(m.morph_keys.size()) +
           " morph, " + std::to_string(m.model_keys.size()) + " model\n";
  }
  out += "accessories: " + std::to_string(d.accessories.size()) + "\n";
  for (std::size_t i = 0; i < d.accessories.size(); ++i) {
    const auto& a = d.accessories[i];
    out += "  " + std::to_string(i) + " " + a.name.text + " (" + a.path.text + "): " + std::to_string(a.keys.size()) +
           " keys\n";
  }
  out += "camera keys: " + std::to_string(d.camera.keys.size()) + " (+ the initial key)\n";
  out += "light keys: " + std::to_string(d.light.keys.size()) + " (+ the initial key)\n";
  if (v2) {
    out += "gravity keys: " + std::to_string(d.gravity.keys.size()) + "\n";
    out += "self-shadow keys: " + std::to_string(d.self_shadow.keys.size()) + "\n";
  }
  if (!d.audio_path.text.empty()) out += "audio: " + d.audio_path.text + (d.audio_enabled ? "" : " (off)") + "\n";
  if (v2) {
    out += "trailing bytes: " + std::to_string(d.trailing.size());
    if (!d.trailing.empty()) out += " at byte " + std::to_string(d.trailing_offset);
    out += "\n";
  }
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto r, read(bytes, flags));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  return pmm::to_json(r.document);
}

Result<std::vector<std::uint8_t>> from_json(std::string_view json, const ReadFlags&) {
  MMDKIT_TRY_ASSIGN(auto d, pmm::from_json(json));
  return pmm::write(d);
}

Result<std::vector<std::uint8_t>> convert(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                          std::vector<Warning>& warnings) {
  if (target != "pmm") return make_error(ErrorCode::unsupported, converts_only_to(kPmmOutput, target));
  MMDKIT_TRY_ASSIGN(auto r, read(bytes, flags));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  return pmm::write(r.document);
}

Result<std::vector<Finding>> check(ByteSpan bytes, const ReadFlags& flags) {
  MMDKIT_TRY_ASSIGN(auto r, read(bytes, flags));
  std::vector<Finding> out;
  for (const Warning& w : r.warnings) out.push_back(Finding{false, w});
  for (pmm::CheckFinding& f : pmm::check(r.document)) out.push_back(Finding{f.error, std::move(f.where)});
  // Files the project names: models, accessories, audio, background video and image.
  const pmm::Document& d = r.document;
  const std::vector<std::filesystem::path> folders = project_folders(flags);
  std::string below;  // "A", "A, B" (the project's folder, then each --search-dir)
  for (const std::filesystem::path& f : folders) below += (below.empty() ? "" : ", ") + f.string();
  auto missing = [&](const std::string& stored) { return !stored.empty() && flags.project_folder && !find_in(stored, folders); };
  auto not_found = [&](const std::string& what, const std::string& stored) {
    return what + " '" + stored + "' is not found (as stored, nor its last components below " + below + ")";
  };
  auto file = [&](const std::string& stored, const std::string& section, std::int64_t record, const std::string& what) {
    if (missing(stored)) out.push_back(Finding{false, Error{ErrorCode::io_error, not_found(what, stored), section, record, -1, {}}});
  };
  // A file several records name (the sample project's lights: one .x, two accessories) is one
  // finding, at its first record, naming the others.
  auto files = [&](const auto& records, const std::string& section, const std::string& what) {
    // every stored path once (looked up once), with the records naming it
    std::map<std::string, std::vector<std::size_t>> named;
    std::vector<std::string> order;
    for (std::size_t i = 0; i < records.size(); ++i) {
      auto [it, added] = named.try_emplace(records[i].path.text);
      if (added) order.push_back(it->first);
      it->second.push_back(i);
    }
    for (const std::string& stored : order) {
      if (!missing(stored)) continue;
      const std::vector<std::size_t>& recs = named[stored];
      std::string why = not_found(what, stored);
      if (recs.size() > 1) {
        why += recs.size() == 2 ? "; record" : "; records";
        for (std::size_t k = 1; k < recs.size(); ++k) why += (k > 1 ? ", " : " ") + std::to_string(recs[k]);
        why += recs.size() == 2 ? " names it too" : " name it too";
      }
      out.push_back(Finding{false, Error{ErrorCode::io_error, why, section, static_cast<std::int64_t>(recs[0]), -1, {}}});
    }
  };
  files(d.models, "models", "model file");
  files(d.accessories, "accessories", "accessory file");
  file(d.audio_path.text, "settings", -1, "audio file");
  file(d.background_video_path.text, "settings", -1, "background video");
  file(d.background_image_path.text, "settings", -1, "background image");
  if (!flags.project_folder)
    out.push_back(Finding{false, Error{ErrorCode::io_error,
                                       "files: the project was not read from a file (standard input, or bytes in memory), so there is no "
                                       "folder to find its models, accessories and audio in",
                                       "files", -1, -1, {}}});
  return out;
}

}  // namespace

const FormatOps& pmm_ops() {
  static const FormatOps ops{.name = "pmm", .extension = ".pmm", .info = info, .to_json = to_json,
                             .from_json = from_json, .convert = convert, .generate = nullptr, .check = check};
  return ops;
}

}  // namespace mmdkit::formats
