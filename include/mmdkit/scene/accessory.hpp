// mmdkit — reading an accessory of a scene: the seam where a file becomes the drawable model view
// (docs/SCENE.md "Accessories").
//
// An accessory is a rigid mesh (MMD: a DirectX .x file, or a PMX / PMD model, which MMD also
// accepts): its vertices as stored (rest pose, not skinned) are moved by the accessory's world
// transform every frame (scene.hpp). load_accessory reads PMX and PMD, binary or mmdkit JSON, by
// content (anim/input_files.hpp), and DirectX .x (signature "xof " or the .x extension) through
// model::load_x (model/accessory.hpp: MMD's ×10 is baked into the view's vertices, so unit_scale
// stays 1, and accessory_shading is set). A .vac is refused with `unsupported`: it is a placement,
// not a mesh; Scene::load reads it into its .x, placement and bone first
// (description.hpp, resolve_accessory_files), so the loader only ever sees the .x.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::scene {

/// A drawable accessory.
struct AccessoryModel {
  std::shared_ptr<const model::Model> model;  ///< with geometry; vertices in the accessory's space
  /// Scale applied under the placement: 1 for PMX / PMD and for .x views from model::load_x, which
  /// bake MMD's ×10 into their vertices (nanoem Accessory kInitialWorldMatrix, saba XFileModel); a
  /// loader giving a .x view at file size sets 10.
  float unit_scale = 1.0f;
  /// Drawn with MMD's accessory shader (no toon, emissive as ambient) instead of the model
  /// shader: set for .x accessories.
  bool accessory_shading = false;
};

/// Reads one accessory file (file comment). Reader warnings are appended to `warnings`. Errors:
/// the readers' (with Error::file), unsupported for a .vac file.
Result<AccessoryModel> load_accessory(const std::filesystem::path& path, std::vector<Warning>& warnings);

/// What a scene uses to read accessories (load_accessory by default; tests and other front ends
/// may give their own).
using AccessoryLoader = std::function<Result<AccessoryModel>(const std::filesystem::path&, std::vector<Warning>&)>;

}  // namespace mmdkit::scene
