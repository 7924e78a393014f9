// mmdkit CLI — the one path of `pose` (cmd_pose.hpp): whatever the form — MODEL [MOTION...] (a
// single character, cmd_pose.cpp) or a scene (--scene FILE, or the short form MODEL [MOTION...]
// --stage / --accessory; scene_pose.cpp) — the form's usage checks, load and evaluation build
// one PoseJob (the posed mesh of every character and visible accessory in world space, with
// their materials), the form's --force check of the outputs included, and write_pose writes it
// the same way: the OBJ, its MTL, the copied textures, the summary.
//
// A scene's OBJ prefixes material names with m<i>_, stage_, a<i>_ and references the textures in
// place (--copy-textures is for one model).
#pragma once

#include <array>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/cmd_pose.hpp"
#include "mmdkit/anim/morph.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/export/obj.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

/// What one run of `pose` writes.
struct PoseJob {
  /// The posed meshes, appended one after the other (append_pose_mesh).
  std::vector<Vec3> positions, normals;
  std::vector<std::array<float, 2>> uvs;
  std::vector<std::uint32_t> faces;
  std::vector<exporter::ObjMaterial> materials;
  std::vector<std::array<std::uint32_t, 2>> ranges;  ///< first index, index count per material
  /// Textures to copy (from, to): --copy-textures.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> copies;
  std::vector<std::filesystem::path> inputs;  ///< the files read (the outputs may not replace one without --force)
  std::filesystem::path mtl_path;             ///< beside the OBJ, named after it with blanks as '_'
  std::string comment;                        ///< the OBJ's opening comment
};

/// One mesh appended to `job`: a model's posed vertices `pos` / `nrm` (model space) with `world`
/// applied (not when `identity`), UVs moved by `uv_offsets` (may be empty), faces, and its
/// materials (plan_obj_materials with the evaluated `values`, names prefixed by `prefix`;
/// textures resolved in `model_dir`, referenced relative to `out_dir`, copied into
/// `out_dir/copy_folder` when it is not empty). Warnings of the textures go to `err` unless
/// `quiet`, naming `label`.
void append_pose_mesh(PoseJob& job, const model::Model& m, std::span<const Vec3> pos, std::span<const Vec3> nrm,
                      std::span<const Vec4> uv_offsets, std::span<const anim::MaterialValues> values,
                      const Mat4& world, bool identity, const std::string& prefix,
                      const std::filesystem::path& model_dir, const std::filesystem::path& out_dir,
                      const std::string& copy_folder, const std::string& label, bool quiet, std::ostream& err);

/// The folder of `p` ("." for a bare file name).
std::filesystem::path folder_of(const std::filesystem::path& p);

/// The scene forms: usage checks, the scene, the --force rule of the OBJ and MTL, the load, the
/// evaluation, the meshes. Errors printed; the exit code returned.
std::expected<PoseJob, int> pose_scene_job(const PoseArgs& args, std::ostream& err);

}  // namespace mmdkit::cli
