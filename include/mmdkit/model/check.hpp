// mmdkit — structural validation of PMD and PMX models (`mmdkit check`).
//
// check() reports what would make MMD misbehave or what the model view had to repair, each with
// severity, section, record and field (docs/MODEL.md "check" lists every finding):
// - errors: index out of range (vertex, bone, material, morph, rigid body, texture, toon, IK link,
//   display element; kind index_out_of_range), bone parent loops incl. a bone that is its own
//   parent (bone_parent_loop), IK chains without a usable effector (ik_invalid), group / flip
//   morphs listing group or flip morphs (group_morph_nested) or looping back (group_morph_loop),
//   NaN / infinity in any float (non_finite), a face index count not a multiple of 3
//   (face_count_not_triangles), material face counts not summing to the face count
//   (material_face_sum);
// - warnings: BDEF2 / SDEF weight outside [0, 1] or BDEF4 / QDEF weights not summing to 1 ± 0.01
//   (weights_not_normalized), referenced textures missing from the model's folder
//   (texture_missing; only when a folder is given), IK links that are not ancestors of the
//   effector (ik_link_not_ancestor: MMD uses such models, the link cannot move the effector),
//   texture references leaving the folder (texture_escapes), PMX names without a CP932 form (name_not_cp932), tail bone out of range
//   (index_out_of_range, display only).
// Records are the file's: PMD morph 0 is the base morph, PMX IK data is in section "bones".
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "mmdkit/model/model.hpp"

namespace mmdkit::pmd {
struct Model;
}
namespace mmdkit::pmx {
struct Model;
}

namespace mmdkit::model {

struct CheckOptions {
  /// Folder of the model file; when set, texture references are resolved there (textures.hpp)
  /// and missing / escaping ones reported. Shared toons (toon01..10.bmp) are never missing.
  std::optional<std::filesystem::path> folder;
  /// Allowed |sum of weights − 1| for BDEF4 / QDEF vertices.
  float weight_tolerance = 0.01f;
};

/// All findings of a PMX model (the view builder's repairs + the checks below), in section order.
std::vector<Finding> check(const pmx::Model& model, const CheckOptions& options = {});

/// All findings of a PMD model.
std::vector<Finding> check(const pmd::Model& model, const CheckOptions& options = {});

/// The checks that need no raw indices, on a built view (non_finite, weights_not_normalized,
/// ik_link_not_ancestor, texture_missing / texture_escapes). Records name the view's entries,
/// mapped back to the file where they differ (PMD morphs + 1 when the file has a base morph).
std::vector<Finding> check_view(const Model& model, const CheckOptions& options = {});

/// Number of findings of a severity.
std::size_t count(const std::vector<Finding>& findings, Severity severity) noexcept;

}  // namespace mmdkit::model
