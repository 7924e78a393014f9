// mmdkit — model view: findings, lookups, load.
#include "mmdkit/model/model.hpp"

#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "core/try.hpp"

namespace mmdkit::model {

std::string_view finding_kind_name(FindingKind kind) noexcept {
  switch (kind) {
    case FindingKind::index_out_of_range: return "index_out_of_range";
    case FindingKind::bone_parent_loop: return "bone_parent_loop";
    case FindingKind::ik_link_not_ancestor: return "ik_link_not_ancestor";
    case FindingKind::ik_invalid: return "ik_invalid";
    case FindingKind::group_morph_nested: return "group_morph_nested";
    case FindingKind::group_morph_loop: return "group_morph_loop";
    case FindingKind::non_finite: return "non_finite";
    case FindingKind::face_count_not_triangles: return "face_count_not_triangles";
    case FindingKind::material_face_sum: return "material_face_sum";
    case FindingKind::weights_not_normalized: return "weights_not_normalized";
    case FindingKind::texture_missing: return "texture_missing";
    case FindingKind::texture_escapes: return "texture_escapes";
    case FindingKind::name_not_cp932: return "name_not_cp932";
    case FindingKind::reader_warning: return "reader_warning";
    case FindingKind::physics_record: return "physics_record";
  }
  return "?";
}

std::string Finding::to_string() const {
  std::string s = severity == Severity::error ? "error " : "warning ";
  s += finding_kind_name(kind);
  s += ":";
  if (!section.empty()) s += " section '" + section + "',";
  if (record >= 0) s += " record " + std::to_string(record) + ",";
  if (!field.empty()) s += " field " + field + ",";
  if (s.back() == ',') s.back() = ':';
  s += " " + message;
  return s;
}

namespace {

void add_reader_warnings(Model& m, const std::vector<Warning>& warnings) {
  for (const Warning& w : warnings)
    m.findings.push_back(Finding{Severity::warning, FindingKind::reader_warning, w.section, w.record,
                                 w.offset >= 0 ? "byte " + std::to_string(w.offset) : std::string(), w.message});
}

}  // namespace

Result<Model> load(ByteSpan bytes, const LoadOptions& options) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes to read a model from", "header", -1, 0);
  if (bytes.size() >= 4 && bytes[0] == 'P' && bytes[1] == 'M' && bytes[2] == 'X' && bytes[3] == ' ') {
    MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, pmx::ReadOptions{.strict = options.strict, .skip_geometry = !options.geometry}));
    auto m = from_pmx(r.model, BuildOptions{.geometry = options.geometry});
    if (m) add_reader_warnings(*m, r.warnings);
    return m;
  }
  if (bytes.size() >= 3 && bytes[0] == 'P' && bytes[1] == 'm' && bytes[2] == 'd') {
    MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, pmd::ReadOptions{.encoding = options.encoding, .strict = options.strict,
                                               .skip_geometry = !options.geometry}));
    auto m = from_pmd(r.model, BuildOptions{.geometry = options.geometry});
    if (m) add_reader_warnings(*m, r.warnings);
    return m;
  }
  return make_error(ErrorCode::bad_signature, "neither a PMD (\"Pmd\") nor a PMX (\"PMX \") model", "header", -1, 0);
}

Result<Model> load_file(const std::filesystem::path& path, const LoadOptions& options) {
  MMDKIT_TRY_ASSIGN(auto bytes, mmdkit::read_file(path));
  auto m = load(bytes, options);
  if (!m) {
    Error e = m.error();
    e.file = path.string();
    return std::unexpected(std::move(e));
  }
  return m;
}

std::int32_t find_bone(const Model& model, std::string_view name) noexcept {
  for (std::size_t i = 0; i < model.bones.size(); ++i)
    if (model.bones[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

std::int32_t find_morph(const Model& model, std::string_view name) noexcept {
  for (std::size_t i = 0; i < model.morphs.size(); ++i)
    if (model.morphs[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

}  // namespace mmdkit::model
