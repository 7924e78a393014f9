// mmdkit — an MMD project (.pmm, formats/pmm.hpp) made from models, motions, accessories and a
// camera: the inverse of scene/project.hpp's convert_project (docs/PMM.md "Creating a project").
//
// What is written is a version-2 project ("Polygon Movie maker 0002", MMD 9.x) laid out as MMD
// writes one (MMD's own files in the corpus: oigami/PMMEditor's UserFile/Model/t.pmm, a one-model
// project saved by MMD 9.26, and MMD's sample project): per model the model file's bone, morph, IK
// and outside-parent-bone lists; one initial key per bone and morph (frame 0) and the regular keys
// chained by `previous` / `next` with ids from the track count on; one model key with the IK
// switches; the view settings a fresh project of MMD 9.26 has (t.pmm's values, listed in
// docs/PMM.md). Layout sources: nanoem's reader (hkrn/nanoem nanoem/ext/document.c), whose field
// order formats/pmm's layout follows; the code here is mmdkit's own.
//
// Units are the PMM's and VMD's (docs/CONVENTIONS.md): frames at 30 fps, MMD units, quaternions
// (x, y, z, w); accessory rotations are given in degrees (scene::Placement) and stored in radians.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mmdkit/anim/light.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/scene/description.hpp"
#include "mmdkit/scene/placement.hpp"

namespace mmdkit::scene {

/// One model of the project to make.
struct CreateModel {
  std::filesystem::path file;         ///< PMX / PMD (binary or mmdkit JSON)
  std::vector<vmd::Motion> motions;   ///< merged in order (a later motion's key of the same track and frame wins)
  /// Outside parents (ModelParentKey; `model` an index into CreateInput::models): written into the
  /// model keys' outside parents (a model key at each key's frame, holding the state of every
  /// outside-parent bone from then on; a subject bone not in MMD's outside-parent list is added).
  std::vector<ModelParentKey> parents{};
  bool self_shadow = true;  ///< MMD's self-shadow per model (ModelEntry::self_shadow): the model's `self_shadow` byte
  bool add_blend = false;   ///< drawn additively (ModelEntry::add_blend): the model's `blend` byte
};

/// One accessory: a .x placed by `placement` (on `bone` of model `model`, or in the world), or a
/// .vac (stored as the .vac, as MMD stores it; its placement and bone are taken from it unless
/// `placement_given`).
struct CreateAccessory {
  std::filesystem::path file;
  std::string name;                   ///< empty: the .vac's name, else the file's stem
  std::optional<std::size_t> model;   ///< index into CreateInput::models
  std::string bone;                   ///< UTF-8 bone name of that model
  Placement placement;                ///< position (MMD units), rotation (degrees), scale (MMD's Si)
  bool placement_given = false;       ///< a .vac's own placement is replaced by `placement`
  bool visible = true;
  float opacity = 1.0f;               ///< 0..1, stored in whole percent as MMD does
  bool add_blend = false;             ///< drawn additively (MMD's 加算)
  bool shadow = true;                 ///< casts its ground shadow (MMD's 影): the keys' and state's `shadow`
  /// Keys over time (AccessoryEntry::keys; model indices into CreateInput::models). When given they
  /// replace `model`, `bone`, `placement`, `visible`, `opacity` and `shadow`: the first key's values are the
  /// frame-0 (initial) key, the keys after frame 0 are chained after it.
  std::vector<AccessoryKey> keys;
};

/// Everything a project is made of.
struct CreateInput {
  std::vector<CreateModel> models;
  std::vector<CreateAccessory> accessories;
  /// MMD's 描画順 (SceneDescription::accessories_after_models): accessories[0, n) drawn before the
  /// models. Stored as accessory_after_models = n (accessories' draw_order = their position); 0,
  /// every accessory after the models, is stored as a fresh project's 1 when there are no
  /// accessories (MMD 9.26's t.pmm value; then nothing is drawn before the models either).
  std::size_t accessories_after_models = 0;
  /// Camera keys (light and self-shadow keys too, unless `light` is given); nullopt = MMD's
  /// default camera (distance −45, look-at (0, 10, 0), 30°).
  std::optional<vmd::Motion> camera;
  std::optional<vmd::Motion> light;             ///< light keys of this motion instead of the camera's
  std::optional<anim::LightState> fixed_light;  ///< a constant light (initial light key only)
  std::filesystem::path audio;                  ///< .wav; empty = none
  /// Gravity keys (MMD units / s²), stored as acceleration |g| / 10 and direction g / |g| (a zero
  /// vector: acceleration 0, direction down); empty = MMD's 9.8 down.
  std::vector<GravityKey> gravity;
  PhysicsMode physics_mode = PhysicsMode::playing;  ///< MMD's fresh project: 2 (while playing)
  bool physics_ground = true;                       ///< MMD's fresh project: on
  std::int32_t width = 1280, height = 720;      ///< output size (MMD 9.26's t.pmm: 1280 × 720)
  /// A scene's view settings (create_input_from_scene; the size is in width / height): nullopt =
  /// a fresh project's (MMD 9.26's t.pmm: 60 fps, ground shadow on and translucent, white);
  /// given: fps (unset: 30) → preferred_fps, ground_shadow, ground_shadow_translucent, and a
  /// background (0, 0, 0) → black_background, so that the project reads back as the same scene.
  std::optional<ViewSettings> view;
  std::optional<std::int32_t> first_frame, last_frame;  ///< play range (begin_enabled / end_enabled)
  /// Folder the project will be saved in: files below it are stored relative to it ('\'
  /// separators, as MMD's sample stores `UserFile\Model\初音ミク.pmd`), others by absolute path
  /// with '\' separators (docs/PMM.md "Paths" finds both again). Empty: every path absolute.
  std::filesystem::path project_folder;
};

/// The path stored for `file` in a project saved in `project_folder` (see CreateInput).
std::string project_stored_path(const std::filesystem::path& file, const std::filesystem::path& project_folder);

/// A VMD motion from a file, binary or JSON (anim::read_motion_file). Errors: the reader's
/// (Error::file set), unsupported for a VPD pose (a project stores keys, not a pose file).
Result<vmd::Motion> read_project_motion(const std::filesystem::path& path, std::vector<Warning>& warnings);

/// Makes the project (file comment). Per model: the model file is read (geometry-free view) for
/// its names (bones, morphs with PMD's base morph first, as MMD lists them), IK bones (bones with
/// IK, model order), outside-parent bones (−1 then every movable or IK bone: the rule MMD's files
/// follow), display frames and English name; the motions' keys bind by MMD's rule (a track's
/// 15-byte CP932 name against the bone's / morph's first 15 bytes). A keyed track whose first key
/// is after frame 0 gets that key's value as its initial (frame-0) key, so the project plays as
/// the motion does (VMD holds the first key before it; MMD's frame-0 key would otherwise be the
/// rest pose). Warnings: motion tracks that match no bone or morph, a model placement (a project
/// has none: ignored), VPD-free. Errors: the model or .vac reader's (Error::file set),
/// invalid_argument for an accessory's model index out of range or a bone it does not have,
/// more than 255 models or accessories, encoding_error for a name with no CP932 form.
Result<pmm::Document> create_project(const CreateInput& input, std::vector<Warning>& warnings);

/// A scene (description.hpp, e.g. read_scene_file) as CreateInput: models with their VMD motions
/// (read here; a VPD pose is an error), the stage (a PMX / PMD stage is a model without motion, a
/// .x stage an accessory), accessories (a .vac kept as the .vac), camera, light, audio, the view
/// settings (`view`, and its size as width / height when set). Errors as below; invalid_argument
/// for a view background other than white or black (a project has only MMD's black background).
/// `project_folder` as CreateInput's. Errors: the motion readers' (Error::file set), unsupported
/// for a VPD motion.
Result<CreateInput> create_input_from_scene(const SceneDescription& scene, const std::filesystem::path& project_folder,
                                            std::vector<Warning>& warnings);

}  // namespace mmdkit::scene
