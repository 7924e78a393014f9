// mmdkit — what a scene is made of: the scene file (JSON, docs/SCENE.md) or the command line's
// short form, as paths and placements (nothing loaded yet; scene.hpp loads and evaluates it).
//
// Paths: a relative path in a scene file is resolved against the scene file's folder and must
// stay inside it (no ".." out of it, no link out of it: check_scene_files); an absolute path is
// read as given (the user named it explicitly). Errors name the field by its JSON path, e.g.
// "models[1].motions[0]: file not found ('dance.vmd')".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/anim/light.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/scene/placement.hpp"

namespace mmdkit::scene {

/// From `frame` on, bone `bone` of a model follows bone `parent_bone` of model `model` (MMD's
/// outside parent 外部親, a model key's outside parents; docs/SCENE.md "Outside parents"); a key
/// without `model` ends it. Evaluation (nanoem's Bone::applyOutsideParentTransform, hkrn/nanoem
/// emapp/src/model/Bone.cc): the bone's model matrix W (its own parent chain included) becomes
/// W · T(−head) · P, P the parent bone's model matrix (in the world: each through its model's
/// placement), and the bones below it in the model's hierarchy move with it.
struct ModelParentKey {
  std::uint32_t frame = 0;           ///< 30 fps; per bone strictly increasing
  std::string bone;                  ///< the bone of this model (UTF-8 name)
  std::optional<std::size_t> model;  ///< parent model (index into SceneDescription::models); nullopt: none
  std::string parent_bone;           ///< the parent model's bone (UTF-8), required with `model`
};

/// A dancer: a PMX / PMD model with its motions (VMD motions merged, at most one VPD pose).
struct ModelEntry {
  std::filesystem::path file;
  std::vector<std::filesystem::path> motions;
  Placement placement;  ///< model space → world
  /// Multiplies the model's edge sizes when drawn (MMD's edge width per model; >= 0, 0 = no edges).
  float edge_width = 1.0f;
  /// Outside parents over time (empty: none), in frame order (ModelParentKey).
  std::vector<ModelParentKey> parents{};
  /// MMD's self-shadow per model (a project model's セルフ影): false = the model neither casts into
  /// nor receives the self-shadow map (nanoem Model::draw skips its shadow-map pass and
  /// Model::drawColor draws it without the self-shadow pass, hkrn/nanoem emapp/src/Model.cc).
  bool self_shadow = true;
  /// Drawn additively (a project model's 加算合成, nanoem Model::isAddBlendEnabled): its materials
  /// add source × alpha to the picture, as an accessory's add_blend.
  bool add_blend = false;
};

/// The stage: a PMX / PMD model drawn at rest, without motion (its rigid bodies take part in the
/// scene's physics), placed in the world; or a DirectX .x file, which MMD loads as an accessory:
/// resolve_accessory_files turns a .x stage into an accessory entry placed in the world (`stage`
/// set), drawn with the accessory shader.
struct StageEntry {
  std::filesystem::path file;
  Placement placement;
};

/// One key of an accessory that moves (AccessoryEntry::keys; docs/SCENE.md "Accessory keys"): where
/// the accessory is from `frame` on, as MMD's accessory keys say it.
struct AccessoryKey {
  std::uint32_t frame = 0;           ///< 30 fps; keys strictly increasing
  Placement placement;               ///< scale >= 0 here (0: collapsed to a point, as nanoem clamps)
  float opacity = 1.0f;              ///< 0..1, multiplies the materials' alpha
  bool visible = true;
  std::optional<std::size_t> model;  ///< parent model (index into SceneDescription::models); nullopt: world
  std::string bone;                  ///< parent bone name (UTF-8), required with `model`
  /// The accessory casts its ground shadow from this key on (MMD's accessory 影, held until the
  /// next key as visibility is: nanoem Accessory::synchronizeMotion).
  bool shadow = true;
};

/// An accessory: attached to a bone of a model (`model` set, `bone` its name) or placed in the
/// world. World transform (scene.hpp): attached = model placement · bone model matrix ·
/// placement · S(unit scale); in the world = placement · S(unit scale).
struct AccessoryEntry {
  std::filesystem::path file;
  std::optional<std::size_t> model;  ///< index into SceneDescription::models
  std::string bone;                  ///< bone name (UTF-8) of that model; required with `model`
  Placement placement;
  bool visible = true;  ///< false: evaluated, not drawn
  /// The .vac this entry was read from (empty: none): resolve_accessory_files replaced `file` by
  /// the .vac's .x and took the placement and bone from it.
  std::filesystem::path vac;
  bool stage = false;  ///< the scene's .x stage (resolve_accessory_files), placed in the world
  float opacity = 1.0f;    ///< 0..1: multiplies every material's alpha (MMD's accessory 不透明度)
  bool add_blend = false;  ///< drawn additively (MMD's accessory 加算: colour added to the picture)
  /// Casts its ground shadow (MMD's accessory 影; false: no ground shadow whatever its materials say).
  bool shadow = true;
  /// Keys over time (empty: the fields above hold at every frame). When given they replace
  /// `model`, `bone`, `placement`, `visible`, `opacity` and `shadow` (those stay at their defaults): before the
  /// first key the first holds, after the last the last; between keys a and b at frame f, with
  /// t = (f − a.frame) / (b.frame − a.frame): position, scale and opacity a + t·(b − a), rotation
  /// the slerp of the two keys' rotations (placement_rotation), visibility and parent those of a
  /// (MMD's accessory keys are linear: nanoem Accessory::synchronizeMotion, hkrn/nanoem
  /// emapp/src/Accessory.cc).
  std::vector<AccessoryKey> keys{};
};

/// From `frame` on, the camera follows a bone (MMD's camera 外部親, a camera key's parent model and
/// bone): the camera's look-at point is taken relative to the bone's world position (look-at +
/// the bone's origin, as nanoem's PerspectiveCamera::boundLookAt; the bone's rotation is not
/// applied). A key without `model` ends the following.
struct CameraParentKey {
  std::uint32_t frame = 0;           ///< 30 fps; keys strictly increasing
  std::optional<std::size_t> model;  ///< index into SceneDescription::models; nullopt: no parent
  std::string bone;                  ///< bone name (UTF-8), required with `model`
};

/// One gravity key (MMD's gravity keys): from `frame` on, the physics world's gravity is
/// `gravity` (MMD units / s²; a project's acceleration a and direction d give a × 10 × d, MMD's
/// (0, −98, 0) for 9.8 down). Keys hold until the next (no interpolation).
struct GravityKey {
  std::uint32_t frame = 0;
  Vec3 gravity{0.0f, -98.0f, 0.0f};
};

/// When the physics is simulated (MMD's 物理演算 menu, a project's physics mode).
/// Scene file: "playing" (default), "always", "trace", "off". Every mode but `off` simulates when
/// a command simulates (a render is MMD playing the project).
enum class PhysicsMode : std::uint8_t {
  playing,  ///< MMD "演算しながら再生" (project value 2, MMD's default)
  always,   ///< MMD "常に演算" (1)
  trace,    ///< MMD "トレースモード" (3)
  off,      ///< MMD "演算しない" (0): `render` does not simulate unless --physics asks for it
};

/// A background picture (image or video) and where it is drawn: stretched to the output's size
/// × `scale`, its top-left corner `offset` pixels right of and below the output's top-left corner
/// (docs/SCENE.md "Background pictures": MMD's stored offset and scale; the direction of the
/// offset and the corner the scale keeps are nanoem's editor's, not verified against MMD).
struct BackgroundPicture {
  std::filesystem::path file;               ///< PNG, BMP, JPEG, TGA, GIF (image); any FFmpeg video
  std::array<std::int32_t, 2> offset{0, 0}; ///< pixels, x right, y down
  float scale = 1.0f;                       ///< > 0; 1 = the output's size
  bool operator==(const BackgroundPicture&) const = default;
};

/// How the scene is shown (the scene file's "view"; an MMD project's view settings, docs/PMM.md):
/// the defaults `render --scene` takes when its options do not say otherwise. Every field unset (or
/// at its default) draws as before.
struct ViewSettings {
  std::optional<std::array<float, 3>> background;  ///< RGB 0..1 (unset: the command's, MMD's white)
  bool ground_shadow = true;                       ///< draw the ground shadow (MMD's 地面影表示)
  /// The ground shadow drawn half transparent (alpha 0.5, as nanoem's translucent ground shadow;
  /// MMD's 半透明); false: opaque.
  bool ground_shadow_translucent = false;
  std::optional<std::array<std::int32_t, 2>> size;  ///< output width, height in pixels (1..16384)
  std::optional<std::int32_t> fps;                   ///< 30 or 60 (render's --fps)
  /// The edge colour (RGB 0..1) of models whose materials store none: PMD models (MMD's
  /// project-wide edge colour, 輪郭線の色; a PMX material's own edge colour is kept). Unset: as
  /// stored (PMD: black, the colour MMD's projects hold by default).
  std::optional<std::array<float, 3>> edge_color;
  /// A picture drawn behind everything (MMD's 背景画像; docs/SCENE.md "Background pictures").
  std::optional<BackgroundPicture> background_image;
  /// A video drawn behind everything, one decoded frame per output frame (MMD's 背景AVI): over the
  /// background image when both are set.
  std::optional<BackgroundPicture> background_video;
};

/// A whole scene.
struct SceneDescription {
  std::vector<ModelEntry> models;
  std::optional<StageEntry> stage;
  std::vector<AccessoryEntry> accessories;
  /// MMD's accessory draw order (描画順, a project's accessory_after_models): accessories[0, n) are
  /// drawn before the models, accessories[n, end) after them (each group in list order; a .x
  /// stage, appended last, is after). 0..accessories.size(); default 0: every accessory after the
  /// models. nanoem PMM::Context::loadAllAccessories / loadAllModels (hkrn/nanoem
  /// emapp/src/internal/project/PMM.cc) give the same order.
  std::size_t accessories_after_models = 0;
  /// VMD whose camera keys drive the camera (its light and self-shadow keys too, unless `light`
  /// says otherwise); empty = the first model motion with camera keys, else MMD's default camera.
  std::filesystem::path camera;
  /// VMD whose light keys drive the light; empty = see `fixed_light`, the camera VMD, the models'
  /// motions, MMD's default light, in that order.
  std::filesystem::path light_motion;
  std::optional<anim::LightState> fixed_light;  ///< a constant light (scene file "light": {...})
  /// The bones the camera follows over time (empty: none); before the first key: none.
  std::vector<CameraParentKey> camera_parents{};
  std::filesystem::path audio;                  ///< muxed into a rendered video; empty = none
  /// The physics world's gravity over time (empty: MMD's (0, −98, 0)); frames strictly increasing,
  /// the first key holds before its frame.
  std::vector<GravityKey> gravity{};
  /// off: `render` does not simulate by default (MMD's physics mode "off").
  PhysicsMode physics_mode = PhysicsMode::playing;
  /// MMD's physics ground (物理床): a static plane y = 0 the rigid bodies collide with.
  bool physics_ground = false;
  ViewSettings view;                            ///< the scene file's "view" (defaults: as before)
  /// Folder of the scene file (relative paths were resolved against it); empty for a scene built
  /// from the command line.
  std::filesystem::path folder;
};

/// At most this many models, accessories, motions per model (a scene file is small; the limits
/// keep a hostile file from asking for huge work).
inline constexpr std::size_t kMaxSceneItems = 1024;

/// Parses a scene file's text (docs/SCENE.md) and resolves its relative paths against `folder`
/// (no file is read). Errors: json_syntax with line and column; json_schema naming the field path
/// ("accessories[0].bone: required with 'model'", "models[0].scale: must be > 0", unknown fields,
/// wrong types, a model index out of range, more than kMaxSceneItems items); invalid_value for a
/// relative path that leaves the folder ("models[0].file: '../x.pmx' leaves the scene's folder").
Result<SceneDescription> parse_scene(std::string_view json, const std::filesystem::path& folder);

/// Checks that every file of the scene exists and is a regular file, and that no relative path of
/// a scene file leads out of its folder through a link. Errors: io_error "FIELD: file not found
/// ('PATH')" / "FIELD: is not a file", invalid_value "FIELD: leaves the scene's folder through a
/// link"; Error::file is the path.
Result<void> check_scene_files(const SceneDescription& scene);

/// parse_scene of the file's bytes with its folder, then check_scene_files. Error::file = `path`
/// for the file's own errors.
Result<SceneDescription> read_scene_file(const std::filesystem::path& path);

/// Reads the accessories that name a .vac and a .x stage into what they mean (docs/SCENE.md
/// "Accessory files"), in place:
///  - an accessory whose file ends in .vac: `file` becomes the .vac's .x (vac::resolve_x_file:
///    inside the .vac's folder), `placement` the .vac's position, rotation (degrees) and scale
///    (lines 3–5), `vac` the .vac's path; the bone is the entry's `bone` if given, else the
///    .vac's line 6; with a bone the accessory is attached to it on model `model` (default 0),
///    without one it is placed in the world (MMD's rule: the .vac's bone is the accessory's parent).
///  - a stage that is a DirectX .x file (signature "xof " or the .x extension): appended to the
///    accessories (world, the stage's placement, `stage` set) and `stage` emptied, as MMD loads a
///    .x stage as an accessory. A PMX / PMD stage stays a model.
/// Errors name the field: the .vac reader's ("accessories[0].file: ..." with Error::line),
/// json_schema "accessories[0].bone: required with 'model' (the .vac names no bone)",
/// invalid_value "accessories[0].file: the .vac's scale (line 3) must be > 0".
Result<void> resolve_accessory_files(SceneDescription& scene);

/// Every field path and file of `scene`, in the order the loader reads them ("models[0].file",
/// "models[0].motions[0]", ..., "stage.file", "accessories[0].file", "camera", "light", "audio").
struct SceneFile {
  std::string field;
  std::filesystem::path path;
};
std::vector<SceneFile> scene_files(const SceneDescription& scene);

}  // namespace mmdkit::scene
