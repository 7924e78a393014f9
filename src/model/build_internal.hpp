// mmdkit — helpers shared by the PMD and PMX view builders and check (not installed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/model/model.hpp"

namespace mmdkit::model::detail {

/// Appends an error finding.
inline void add(std::vector<Finding>& out, FindingKind kind, std::string section, std::int64_t record,
                std::string field, std::string message, Severity severity = Severity::error) {
  out.push_back(Finding{severity, kind, std::move(section), record, std::move(field), std::move(message)});
}

/// "index 7 is out of range (5 bones)".
inline std::string out_of_range(std::int64_t index, std::size_t count, const char* what) {
  return "index " + std::to_string(index) + " is out of range (" + std::to_string(count) + " " + what + ")";
}

/// Copies raw face indices into m.faces and sets the materials' ranges (input: each material's
/// index_count as stored in `counts`). Drops an incomplete last triangle and triangles with a
/// vertex index out of range; clamps material counts to the faces there are. Findings name
/// `faces_section` / `materials_section`.
void build_faces(Model& m, const std::vector<std::uint32_t>& raw_faces, const std::vector<std::uint32_t>& counts,
                 const char* faces_section, const char* materials_section);

/// Replaces a parent that closes a loop by -1 (finding on that bone, field "parent").
void break_parent_loops(Model& m, const char* section);

/// PMD evaluation stages as layers: 0 forward kinematics, 1 IK bones, 2 append (type 5 / 9
/// follow) bones; a bone below a higher-layer parent inherits the parent's layer.
std::vector<std::int32_t> pmd_layers(const Model& m);

/// Sets m.bone_order for m.transform_order (PMD: stable sort by pmd_layers).
void compute_bone_order(Model& m);

/// Drops group / flip entries that point at group or flip morphs (nested → group_morph_nested,
/// part of a cycle → group_morph_loop). `record_of(i)` maps a view morph index to its file record.
template <class RecordOf>
void drop_nested_groups(Model& m, const char* section, RecordOf record_of);

/// Adds ik_link_not_ancestor findings (links that are not ancestors of their effector).
void check_ik_ancestry(const Model& m, std::vector<Finding>& out, bool pmd);

/// Sets each bone's / morph's binding key from UTF-8 names (PMX); name_not_cp932 warnings.
void utf8_binding_keys(Model& m);

}  // namespace mmdkit::model::detail

#include "build_internal_impl.hpp"
