// mmdkit — reading an accessory of a scene: the seam where a file becomes the drawable model view
// (docs/SCENE.md "Accessories").
//
// An accessory is a rigid mesh (MMD: a DirectX .x file, or a PMX / PMD model, which MMD also
// accepts): its vertices as stored (rest pose, not skinned) are moved by the accessory's world
// transform every frame (scene.hpp). load_accessory reads PMX and PMD, binary or mmdkit JSON, by
// content (anim/input_files.hpp). DirectX .x (and .vac) files are refused with `unsupported` until
// the .x reader is wired here: it returns the .x converted to a model view with
// AccessoryModel::accessory_shading set and unit_scale 10 (MMD draws .x accessories ×10).
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
  /// Scale applied under the placement: 1 for PMX / PMD, 10 for DirectX .x (MMD's ×10; nanoem
  /// Accessory kInitialWorldMatrix, saba XFileModel).
  float unit_scale = 1.0f;
  /// Drawn with MMD's accessory shader (no toon, emissive as ambient) instead of the model
  /// shader: set for .x accessories.
  bool accessory_shading = false;
};

/// Reads one accessory file (file comment). Reader warnings are appended to `warnings`. Errors:
/// the readers' (with Error::file), unsupported for a DirectX .x or .vac file (not read yet).
Result<AccessoryModel> load_accessory(const std::filesystem::path& path, std::vector<Warning>& warnings);

/// What a scene uses to read accessories (load_accessory by default; tests and other front ends
/// may give their own).
using AccessoryLoader = std::function<Result<AccessoryModel>(const std::filesystem::path&, std::vector<Warning>&)>;

}  // namespace mmdkit::scene
