// mmdkit — an MMD project (.pmm, formats/pmm.hpp) turned into what mmdkit evaluates: one VMD motion
// per model, one camera / light / self-shadow VMD motion, and a scene description (description.hpp)
// naming the project's model, accessory and audio files as found on this machine (docs/PMM.md).
//
// Source of the mapping: nanoem's project loader, hkrn/nanoem emapp/src/internal/project/PMM.cc
// (PMM::Context::loadModel / loadCamera / loadAccessory: every document keyframe becomes a motion
// keyframe of the same frame; bone keys keep translation, orientation, the four curves and the
// physics flag; model keys give visibility; camera keys look-at, angle, distance, view angle,
// perspective and six curves). mmdkit's code is its own.
//
// Units and spaces are the PMM's and VMD's, which agree (docs/CONVENTIONS.md): frames at 30 fps,
// MMD units, radians for camera Euler angles, quaternions (x, y, z, w) for bones; accessory
// rotations are converted from the PMM's radians to the scene's degrees.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/scene/description.hpp"

namespace mmdkit::scene {

/// Where a stored project path was looked for, and what was found.
struct ProjectPath {
  std::string stored;                          ///< the path as the project stores it (UTF-8)
  std::optional<std::filesystem::path> found;  ///< the file found (nullopt: none)
  std::vector<std::filesystem::path> tried;    ///< every place looked at, in order
};

/// Finds a file a project names (docs/PMM.md "Paths"): for each folder in `folders` (the project's
/// folder first, then each search folder) pmm::resolve_path(stored, folder): the stored path with
/// '\' read as '/' (a Windows absolute path such as `G:\MMD\UserFile\Model\a.pmd` is relative on
/// this system, so it is looked for below the folder as written), then its trailing components
/// below the folder, the longest first (`UserFile/Model/a.pmd`, `Model/a.pmd`, `a.pmd`), each
/// component matched case-insensitively (ASCII) as Windows does. The first hit wins. `tried` lists
/// the candidate paths of every folder (folder / suffix), for a message naming them all.
ProjectPath resolve_project_path(const std::string& stored, const std::vector<std::filesystem::path>& folders);

/// The 64-byte VMD bone interpolation block (vmd::encode_bone_interpolation's layout) of a PMM bone
/// key's 16 bytes: curves X, Y, Z, rotation, each stored as (x1, y1, x2, y2) on the 0..127 grid
/// (nanoem nanoemDocumentParseInterpolation); `physics_off` puts MMD's 0x63 0x0F in bytes 2 and 3.
std::array<std::uint8_t, 64> bone_interpolation_from_pmm(const std::array<std::uint8_t, 16>& pmm,
                                                         bool physics_off) noexcept;

/// The 24-byte VMD camera block (vmd::encode_camera_interpolation's layout: per curve x1, x2, y1,
/// y2) of a PMM camera key's 24 bytes: curves X, Y, Z, rotation, distance, view angle, each stored
/// as (x1, y1, x2, y2), the order nanoem reads them in (nanoemDocumentParseInterpolation, the same
/// function as for bone keys).
std::array<std::uint8_t, 24> camera_interpolation_from_pmm(const std::array<std::uint8_t, 24>& pmm) noexcept;

/// One model of the project, converted.
struct ProjectModel {
  std::size_t index = 0;  ///< position in pmm::Document::models
  std::string name;       ///< the model's name (UTF-8)
  ProjectPath file;       ///< its PMX / PMD file
  /// Every bone, morph and model (property) key of the model as a VMD motion (v2 signature, model
  /// name = the model's name): per bone its initial key at frame 0 then its regular keys in track
  /// order, named by the model's bone names (the first 15 bytes of the stored CP932 name, as MMD
  /// binds); interpolation bone_interpolation_from_pmm with the key's physics flag; per morph
  /// likewise (weights); property keys: the model keys (visible, one IK state per IK bone, named by
  /// the bone's name in the 20-byte field). Outside parents are not converted.
  vmd::Motion motion;
  /// Index into Project::scene.models (nullopt: the model file was not found, so the model is not
  /// in the scene).
  std::optional<std::size_t> scene_model;
};

/// One accessory of the project. Its keys are MMD's accessory keys (linear between keys: nanoem
/// PMM::Context::loadAccessory and Accessory::synchronizeMotion, hkrn/nanoem emapp/src).
struct ProjectAccessory {
  std::size_t index = 0;
  std::string name;  ///< as the project names it (UTF-8)
  ProjectPath file;  ///< its .x (or .vac) file
  /// The .x drawn: `file.found`, or for a .vac the .x it names in its folder (empty: not found).
  std::filesystem::path x_file;
  /// Its placement at frame 0 (the initial key): translation, rotation (degrees), scale.
  Placement placement;
  std::optional<std::size_t> model;  ///< the parent model's index in the scene (nullopt: world)
  std::string bone;                  ///< the parent bone's name
  bool visible = true;               ///< bit 0 of the initial key's opacity_visible
  float opacity = 1.0f;              ///< the initial key's opacity (0..1, pmm::accessory_opacity)
  bool add_blend = false;            ///< the accessory's additive blending (v2)
  bool shadow = true;                ///< the initial key's ground shadow (MMD's accessory 影)
  /// The initial key then the regular keys in track order, when the accessory has regular keys
  /// (empty: it stays where its initial key puts it): placement (rotation in degrees, scale < 0
  /// read as 0), visibility, opacity, ground shadow and parent per key, as AccessoryEntry::keys
  /// (description.hpp).
  std::vector<AccessoryKey> keys{};
  /// Index into Project::scene.accessories (nullopt: not in the scene); the scene lists the
  /// accessories in the project's draw order (their draw_order, ties in list order).
  std::optional<std::size_t> scene_accessory;
};

/// What a version-1 project does not store about a model and its keys need: the model file's bone
/// names, morph names (every morph record, PMD's base included) and the bone index of each IK bone
/// (PMD: each IK chain's target; PMX: the bones with IK, in order), names in UTF-8.
struct ModelNames {
  std::vector<std::string> bones, morphs;
  std::vector<std::int32_t> ik_bones;
};

struct ProjectOptions {
  std::filesystem::path project_folder;               ///< the .pmm's folder
  std::vector<std::filesystem::path> search_folders;  ///< --search-dir, in order
  /// A file not found is an error (io_error naming the file, the field and every place tried)
  /// instead of a warning with the item left out of the scene.
  bool strict = false;
  /// Version 1 only: reads the names of a model file found (nullopt: unreadable). Unset, or a
  /// model whose file is not found or not read: that model's motion is left empty with a warning
  /// (`strict`: an error).
  std::function<std::optional<ModelNames>(const std::filesystem::path&)> model_names;
};

/// A project converted.
struct Project {
  std::vector<ProjectModel> models;          ///< every model of the document, found or not
  std::vector<ProjectAccessory> accessories; ///< every accessory of the document, found or not
  /// The camera (initial key + keys: look-at, angle, distance, view angle, perspective, curves),
  /// light (colour, direction) and self-shadow (mode, distance; version 2) keys as one VMD motion
  /// (model name "カメラ・照明", as MMD names camera motions).
  vmd::Motion camera;
  /// The scene: the models found (file = the model file, motions empty: the caller names where it
  /// keeps Project::models[i].motion), the accessories found (their .x, placement at frame 0,
  /// parent model and bone; keys when they move), camera_parents (the bones the camera keys
  /// follow), camera / light_motion empty (the caller names camera's file), the audio
  /// when audio is on and found. `folder` empty.
  SceneDescription scene;
  std::optional<ProjectPath> audio;  ///< the audio file when audio_enabled
  std::int32_t width = 0, height = 0;  ///< the project's output size
  /// The play range: begin_frame when begin_enabled (else 0), end_frame when end_enabled (else
  /// nullopt = the last key).
  std::int32_t first_frame = 0;
  std::optional<std::int32_t> last_frame;
};

/// Converts a project (file comment). Warnings: files not found (naming the field, the stored path
/// and every place tried), accessories on a model that is not in the scene (placed in the world),
/// broken key chains, a version-1 model whose names are not known (ProjectOptions::model_names).
/// Errors: io_error for a file not found (or a version-1 model's names not read) with `strict`;
/// invalid_value when a version-1 model file's counts differ from the project's keys.
Result<Project> convert_project(const pmm::Document& document, const ProjectOptions& options,
                                std::vector<Warning>& warnings);

/// The scene file (docs/SCENE.md) of a converted project, as `mmdkit pmm extract` writes it: the
/// scene's models in scene order (the project's draw order) by absolute path, each with its motion
/// `motion_files[i]` (the file of `p.models[i].motion`, relative to the scene file's folder; one
/// per entry of p.models), `edge_width` when not 1, `self_shadow` when off, `add_blend` when on; the
/// accessories (placement or keys, parent, visibility, opacity, ground shadow, additive blending)
/// by absolute path, `accessories_after_models` when not 0; "camera": `camera_file` (the file of
/// p.camera); camera_parents; the audio; the "view" fields that differ from their defaults. Paths
/// made absolute against the current folder. Nothing is read or written.
std::string project_scene_json(const Project& p, const std::vector<std::string>& motion_files,
                               const std::string& camera_file);

/// The names of a converted project's files in one folder, as `mmdkit pmm extract` and Python's
/// Project.scene() write them beside "scene.json" and "camera.vmd": per model its motion
/// "<model name>.vmd", per accessory drawn from a .x file its "<accessory name>.vac". A name keeps
/// the project's (UTF-8) text with the characters Windows forbids in file names (control
/// characters, / \ : * ? " < > |) made '_', trailing spaces and dots dropped, a leading dot made
/// '_'; an empty one becomes "model<i>" / "accessory<i>". Names are unique in the folder with ASCII
/// case ignored (Windows, macOS): a name taken gets "_2", "_3", ... before its extension; the
/// motions are named first, in p.models order, then the accessories.
struct ProjectFileNames {
  std::vector<std::string> motions;      ///< one per p.models entry
  std::vector<std::string> accessories;  ///< one per p.accessories entry; empty when not from a .x file
};
ProjectFileNames project_file_names(const Project& p);

}  // namespace mmdkit::scene
