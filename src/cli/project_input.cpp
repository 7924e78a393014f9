// mmdkit CLI — an MMD project as a scene (project_input.hpp).
#include "cli/project_input.hpp"

#include <stdlib.h>

#include <string_view>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "core/json.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/file_format.hpp"
#include "mmdkit/core/mapped_file.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

int fail(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << "mmdkit: error: " << e.to_string() << "\n";
  return kExitBadInput;
}

// A .vac (docs/formats/vac.md): name, .x file (by name: MMD keeps the .vac beside its .x), scale,
// position, rotation in degrees, bone; CP932, CR LF.
Result<std::vector<std::uint8_t>> vac_bytes(const scene::ProjectAccessory& a) {
  const scene::Placement& pl = a.placement;
  std::string text = a.name + "\r\n" + a.x_file.filename().string() + "\r\n" + format_float(pl.scale) + "\r\n" +
                     format_float(pl.position[0]) + "," + format_float(pl.position[1]) + "," +
                     format_float(pl.position[2]) + "\r\n" + format_float(pl.rotation[0]) + "," +
                     format_float(pl.rotation[1]) + "," + format_float(pl.rotation[2]) + "\r\n" + a.bone + "\r\n";
  return encode_text(text, Encoding::cp932);
}

// The names a version-1 project needs from a model file (PMD, else PMX), nullopt when unreadable.
std::optional<scene::ModelNames> model_file_names(const fs::path& path) {
  scene::ModelNames n;
  pmd::ReadOptions pmd_options;
  pmd_options.skip_geometry = true;
  if (auto r = pmd::read_file(path, pmd_options); r) {
    for (const auto& b : r->model.bones) n.bones.push_back(b.name.text);
    for (const auto& m : r->model.morphs) n.morphs.push_back(m.name.text);
    for (const auto& k : r->model.ik_chains) n.ik_bones.push_back(k.target);
    return n;
  }
  pmx::ReadOptions pmx_options;
  pmx_options.skip_geometry = true;
  if (auto r = pmx::read_file(path, pmx_options); r) {
    for (std::size_t i = 0; i < r->model.bones.size(); ++i) {
      n.bones.push_back(r->model.bones[i].name.text);
      if (r->model.bones[i].has(pmx::kIk)) n.ik_bones.push_back(static_cast<std::int32_t>(i));
    }
    for (const auto& m : r->model.morphs) n.morphs.push_back(m.name.text);
    return n;
  }
  return std::nullopt;
}

}  // namespace

namespace {
struct TemporaryFolders {
  std::vector<fs::path> paths;
  ~TemporaryFolders() {
    for (const fs::path& p : paths) {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  }
};
}  // namespace

std::expected<fs::path, int> temporary_folder(std::ostream& err) {
  static TemporaryFolders folders;
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  std::string templ = ((ec ? fs::path("/tmp") : base) / "mmdkit-pmm-XXXXXX").string();
  if (!mkdtemp(templ.data())) {
    err << "mmdkit: error: cannot make a temporary folder ('" << templ << "')\n";
    return std::unexpected(kExitBadInput);
  }
  folders.paths.emplace_back(templ);
  return fs::path(templ);
}

int require_project_model(const LoadedProject& p, std::ostream& err) {
  if (!p.project.scene.models.empty()) return kExitOk;
  const std::string why = p.project.models.empty() ? "the project has no model" : "no model of the project was found (see the warnings; --search-dir DIR names where to look)";
  Error e = make_error(ErrorCode::invalid_value, why + ": a scene needs one", "project").error();
  return fail(err, e, p.path.string());
}

bool is_project_file(const std::string& path) {
  if (path.empty() || is_std_stream(path)) return false;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  auto bytes = map_file(path);
  if (!bytes) return false;
  return detect_format(bytes->span()).format == FileFormat::pmm;
}

std::expected<LoadedProject, int> load_project(const fs::path& path, const std::vector<std::string>& search_dirs,
                                               bool strict, bool quiet, std::ostream& err) {
  LoadedProject lp;
  lp.path = path;
  auto bytes = map_file(path);
  if (!bytes) return std::unexpected(fail(err, bytes.error(), path.string()));
  for (const std::string& s : search_dirs) {
    std::error_code ec;
    if (!fs::is_directory(s, ec)) {
      Error e = make_error(ErrorCode::io_error, "--search-dir: not a folder ('" + s + "')").error();
      return std::unexpected(fail(err, e, path.string()));
    }
  }
  std::vector<Warning> warnings;
  if (detect_format(bytes->span()).json) {
    auto d = pmm::from_json(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    if (!d) return std::unexpected(fail(err, d.error(), path.string()));
    lp.document = std::move(*d);
  } else {
    pmm::ReadOptions ro;
    ro.strict = strict;
    // Version 1: the bone, morph and IK counts come from the model files, found by the same rule.
    std::vector<fs::path> folders{path.has_parent_path() ? path.parent_path() : fs::path(".")};
    for (const std::string& s : search_dirs) folders.emplace_back(s);
    ro.model_counts = [folders](const pmm::ModelRef& m) -> std::optional<pmm::ModelCounts> {
      const scene::ProjectPath p = scene::resolve_project_path(m.path->text, folders);
      if (!p.found) return std::nullopt;
      auto n = model_file_names(*p.found);
      if (!n) return std::nullopt;
      return pmm::ModelCounts{n->bones.size(), n->morphs.size(), n->ik_bones.size()};
    };
    auto r = pmm::read(bytes->span(), ro);
    if (!r) return std::unexpected(fail(err, r.error(), path.string()));
    lp.document = std::move(r->document);
    warnings = std::move(r->warnings);
  }
  scene::ProjectOptions po;
  po.project_folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  for (const std::string& s : search_dirs) po.search_folders.emplace_back(s);
  po.strict = strict;
  po.model_names = model_file_names;
  auto p = scene::convert_project(lp.document, po, warnings);
  if (!p) return std::unexpected(fail(err, p.error(), path.string()));
  lp.project = std::move(*p);
  if (!quiet) print_warnings(err, warnings, path.string());
  return lp;
}

std::expected<ExtractedFiles, int> extract_project(const LoadedProject& lp, const fs::path& dir,
                                                   const std::vector<fs::path>& inputs, bool force, std::ostream& err) {
  const scene::Project& p = lp.project;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    Error e = make_error(ErrorCode::io_error, "cannot make the output folder").error();
    return std::unexpected(fail(err, e, dir.string()));
  }
  ExtractedFiles out;
  auto write = [&](const fs::path& file, ByteSpan bytes) -> bool {
    if (auto r = check_output(file, inputs, force); !r) return fail(err, r.error(), file.string()), false;
    if (auto r = write_file_atomic(file, bytes, WriteOptions{inputs, force}); !r)
      return fail(err, r.error(), file.string()), false;
    out.files.push_back(file);
    return true;
  };
  auto write_vmd = [&](const fs::path& file, const vmd::Motion& m) -> bool {
    auto bytes = vmd::write(m);
    if (!bytes) return fail(err, bytes.error(), file.string()), false;
    return write(file, ByteSpan(bytes->data(), bytes->size()));
  };
  const scene::ProjectFileNames names = scene::project_file_names(p);
  for (std::size_t i = 0; i < p.models.size(); ++i)
    if (!write_vmd(dir / names.motions[i], p.models[i].motion)) return std::unexpected(kExitBadInput);
  if (!write_vmd(dir / "camera.vmd", p.camera)) return std::unexpected(kExitBadInput);
  for (std::size_t i = 0; i < p.accessories.size(); ++i) {
    if (names.accessories[i].empty()) continue;  // not from a .x file: no .vac
    auto bytes = vac_bytes(p.accessories[i]);
    if (!bytes) return std::unexpected(fail(err, bytes.error(), p.accessories[i].name));
    if (!write(dir / names.accessories[i], ByteSpan(bytes->data(), bytes->size()))) return std::unexpected(kExitBadInput);
  }
  const std::string j = scene::project_scene_json(p, names.motions, "camera.vmd");
  out.scene = dir / "scene.json";
  if (!write(out.scene, ByteSpan(reinterpret_cast<const std::uint8_t*>(j.data()), j.size())))
    return std::unexpected(kExitBadInput);
  return out;
}

}  // namespace mmdkit::cli
