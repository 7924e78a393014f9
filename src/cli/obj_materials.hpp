// mmdkit CLI — the MTL materials of `pose` (cmd_pose.hpp): colours after morphs, the texture and
// sphere map of each material resolved once per file, the copies --copy-textures makes, and the
// warnings, one per texture file (not per material), naming the folder searched.
//
// File names with spaces: `mtllib` and `map_Kd` take a file name that many OBJ readers cut at the
// first space (the MTL spec allows several names on an mtllib line; tinyobjloader splits them),
// while others take the rest of the line (Blender, three.js). So names mmdkit chooses have no
// spaces: the MTL is named after the OBJ with blanks as '_' (obj_safe_file_name), and so are the
// --copy-textures folder and the copied files. A texture referenced in place (no --copy-textures)
// keeps its name; when it holds a blank a warning says so (use --copy-textures).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mmdkit/anim/morph.hpp"
#include "mmdkit/export/obj.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

/// `name` with every blank (space, tab, and other ASCII controls) replaced by '_'.
std::string obj_safe_file_name(std::string_view name);

/// What the MTL refers to and what has to be copied.
struct ObjMaterialPlan {
  std::vector<exporter::ObjMaterial> materials;                             ///< one per model material
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> copies;  ///< from, to (--copy-textures)
  std::vector<std::string> warnings;  ///< lines without the "mmdkit: warning: " prefix
};

/// Plans the MTL of `model` with the evaluated material `values` (one per material). Texture and
/// sphere references resolve inside `model_dir` (model/textures.hpp); the MTL refers to them
/// relative to `out_dir`, or, when `copy_folder` is not empty, to copies in `out_dir/copy_folder`
/// (relative paths inside it, blanks as '_', made unique). Sphere maps of mode multiply (.sph) or
/// add (.spa) are written as `refl -type sphere` (the MTL spec's sphere reflection map; MTL has no
/// blend mode, a comment says which); a sub-texture sphere map (mode 3, additional UV 1) cannot
/// be expressed and gets a warning. Missing textures: one warning per file with the materials
/// using it and the folder searched; references escaping the folder are refused, one warning each.
ObjMaterialPlan plan_obj_materials(const model::Model& model, std::span<const anim::MaterialValues> values,
                                   const std::filesystem::path& model_dir, const std::filesystem::path& out_dir,
                                   const std::string& copy_folder);

}  // namespace mmdkit::cli
