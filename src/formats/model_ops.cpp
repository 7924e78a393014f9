// mmdkit CLI — model operations (model_ops.hpp).
#include "formats/model_ops.hpp"

#include <set>
#include <system_error>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/model/check.hpp"
#include "mmdkit/model/convert.hpp"
#include "mmdkit/model/textures.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

template <class F>
std::optional<std::filesystem::path> folder_of(const F& flags) {
  if constexpr (requires { flags.input_folder; }) {
    return flags.input_folder;
  } else {
    return std::nullopt;
  }
}

void append(std::vector<Finding>& out, const std::vector<model::Finding>& fs) {
  for (const model::Finding& f : fs) out.push_back(to_format_finding(f));
}

}  // namespace

Finding to_format_finding(const model::Finding& f) {
  // Texture findings have codes of their own (the kind's name, so it is not repeated).
  ErrorCode code = ErrorCode::invalid_value;
  std::string msg;
  if (f.kind == model::FindingKind::texture_missing) {
    code = ErrorCode::texture_missing;
  } else if (f.kind == model::FindingKind::texture_escapes) {
    code = ErrorCode::texture_escapes;
  } else {
    msg = std::string(model::finding_kind_name(f.kind)) + ": ";
  }
  if (!f.field.empty()) msg += "field " + f.field + ": ";
  msg += f.message;
  return Finding{f.severity == model::Severity::error, Error{code, std::move(msg), f.section, f.record, -1, {}}};
}

Result<std::vector<Finding>> check_pmd(ByteSpan bytes, const ReadFlags& flags,
                                       std::optional<std::filesystem::path> folder) {
  MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, pmd::ReadOptions{.encoding = flags.encoding, .strict = flags.strict}));
  std::vector<Finding> out;
  for (const Warning& w : r.warnings) out.push_back(Finding{false, w});
  // pmd::check reports indices, counts, cycles and PMD codes with byte offsets; the view adds
  // what it does not look at.
  for (pmd::CheckFinding& f : pmd::check(r.model)) out.push_back(Finding{f.error, std::move(f.where)});
  for (const model::Finding& f : model::check(r.model, model::CheckOptions{.folder = std::move(folder)})) {
    switch (f.kind) {
      case model::FindingKind::ik_link_not_ancestor:
      case model::FindingKind::ik_invalid:
      case model::FindingKind::non_finite:
      case model::FindingKind::texture_missing:
      case model::FindingKind::texture_escapes:
      case model::FindingKind::physics_record: out.push_back(to_format_finding(f)); break;
      default: break;
    }
  }
  return out;
}

Result<std::vector<Finding>> check_pmx(ByteSpan bytes, const ReadFlags& flags,
                                       std::optional<std::filesystem::path> folder) {
  MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, pmx::ReadOptions{.strict = flags.strict, .skip_geometry = false}));
  std::vector<Finding> out;
  for (const Warning& w : r.warnings) out.push_back(Finding{false, w});
  append(out, model::check(r.model, model::CheckOptions{.folder = std::move(folder)}));
  return out;
}

Result<std::vector<Finding>> check_pmd_ops(ByteSpan bytes, const ReadFlags& flags) {
  return check_pmd(bytes, flags, folder_of(flags));
}

Result<std::vector<Finding>> check_pmx_ops(ByteSpan bytes, const ReadFlags& flags) {
  return check_pmx(bytes, flags, folder_of(flags));
}

Result<std::vector<std::uint8_t>> convert_pmd(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                              std::vector<Warning>& warnings) {
  if (target != "pmd" && target != "pmx")
    return make_error(ErrorCode::unsupported,
                      "a PMD model converts to .pmd, .pmx or .json, not ." + std::string(target));
  MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, pmd::ReadOptions{.encoding = flags.encoding, .strict = flags.strict}));
  warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
  if (target == "pmd") return pmd::write(r.model);
  MMDKIT_TRY_ASSIGN(auto p, model::pmd_to_pmx(r.model, &warnings));
  return pmx::write(p);
}

Result<std::vector<std::uint8_t>> generate_pmd(const GenerateFlags& flags) {
  if (flags.bones != 0 && flags.bones != 29)
    return make_error(ErrorCode::invalid_argument,
                      "generate pmd makes the 29-bone standard humanoid; --bones must be 0 or 29");
  if (!flags.format_variant.empty() && flags.format_variant != "pmd")
    return make_error(ErrorCode::invalid_argument, "generate pmd has no variant '" + flags.format_variant + "'");
  MMDKIT_TRY_ASSIGN(auto m, pmd::generate(pmd::GenerateOptions{.seed = flags.seed, .vertices = flags.vertices, .morphs = flags.morphs}));
  return pmd::write(m);
}

Result<std::vector<CompanionFile>> generated_companions(std::string_view format) {
  std::vector<CompanionFile> out;
  auto take = [&](auto files) -> Result<std::vector<CompanionFile>> {
    if (!files) return std::unexpected(files.error());
    for (auto& f : *files) out.push_back(CompanionFile{std::move(f.path), std::move(f.bytes)});
    return std::move(out);
  };
  if (format == "pmd") return take(pmd::generate_textures());
  if (format == "pmx") return take(pmx::generate_textures());
  return out;
}

std::vector<Warning> texture_warnings_for_output(ByteSpan output_bytes, const std::filesystem::path& input_folder,
                                                 const std::filesystem::path& output_folder) {
  std::vector<Warning> out;
  std::error_code ec;
  if (std::filesystem::equivalent(input_folder, output_folder, ec) && !ec) return out;
  auto view = model::load(output_bytes);
  if (!view) return out;
  std::set<std::string> seen;
  auto one = [&](std::size_t mat, const char* field, const std::string& ref) {
    if (ref.empty()) return;
    std::string key = model::normalize_texture_path(ref);
    for (char& c : key) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (!seen.insert(key).second) return;
    const model::TextureLookup there = model::resolve_texture(output_folder, ref);
    if (there.status == model::TextureStatus::found || there.status == model::TextureStatus::empty) return;
    const model::TextureLookup here = model::resolve_texture(input_folder, ref);
    std::string msg = "field " + std::string(field) + ": will not resolve from the output's folder: " + there.message + "; ";
    if (here.status == model::TextureStatus::found)
      msg += "it is beside the input (" + input_folder.string() +
             "): give --copy-textures to copy it there (or copy it yourself, keeping its relative path)";
    else if (here.status == model::TextureStatus::escapes)
      msg += "it leaves the input's folder too";
    else
      msg += "it is missing beside the input too";
    out.push_back(Warning{there.status == model::TextureStatus::escapes ? ErrorCode::texture_escapes
                                                                        : ErrorCode::texture_missing,
                          std::move(msg), "materials", static_cast<std::int64_t>(mat), -1, {}});
  };
  const bool pmd = view->source == model::SourceFormat::pmd;
  for (std::size_t i = 0; i < view->materials.size(); ++i) {
    const model::Material& x = view->materials[i];
    one(i, "texture", x.texture);
    one(i, pmd ? "texture" : "sphere_texture", x.sphere);
    if (x.shared_toon < 0 && model::shared_toon_index(x.toon) < 0) one(i, pmd ? "toon_index" : "toon", x.toon);
  }
  return out;
}

Result<std::vector<CompanionFile>> texture_files_for_output(ByteSpan output_bytes,
                                                            const std::filesystem::path& input_folder,
                                                            const std::filesystem::path& output_folder,
                                                            std::vector<Warning>& warnings) {
  std::vector<CompanionFile> out;
  std::error_code ec;
  if (std::filesystem::equivalent(input_folder, output_folder, ec) && !ec) return out;
  auto view = model::load(output_bytes);
  if (!view) return out;
  std::set<std::string> seen;
  std::optional<Error> failure;
  auto one = [&](std::size_t mat, const std::string& ref) {
    if (ref.empty() || failure) return;
    const std::string norm = model::normalize_texture_path(ref);
    std::string key = norm;
    for (char& c : key) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (!seen.insert(key).second) return;
    const model::TextureLookup here = model::resolve_texture(input_folder, ref);
    if (here.status == model::TextureStatus::found) {
      auto bytes = read_file(here.path);
      if (!bytes) {
        failure = bytes.error();
        return;
      }
      out.push_back(CompanionFile{norm, std::move(*bytes)});
    } else if (here.status != model::TextureStatus::empty) {
      const bool escapes = here.status == model::TextureStatus::escapes;
      warnings.push_back(Warning{escapes ? ErrorCode::texture_escapes : ErrorCode::texture_missing,
                                 std::string(escapes ? "not copied (it leaves the input's folder): "
                                                     : "not copied (missing beside the input): ") +
                                     here.message,
                                 "materials", static_cast<std::int64_t>(mat), -1, {}});
    }
  };
  for (std::size_t i = 0; i < view->materials.size(); ++i) {
    const model::Material& x = view->materials[i];
    one(i, x.texture);
    one(i, x.sphere);
    if (x.shared_toon < 0 && model::shared_toon_index(x.toon) < 0) one(i, x.toon);
  }
  if (failure) return std::unexpected(*failure);
  return out;
}

std::string face_line(std::uint64_t n) {
  const std::uint64_t t = n / 3;
  return "face indices: " + std::to_string(n) + " (" + std::to_string(t) + (t == 1 ? " triangle)\n" : " triangles)\n");
}

}  // namespace mmdkit::formats
