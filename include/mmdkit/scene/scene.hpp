// mmdkit — a scene: several characters (anim::Character, one per model, plus the stage), accessories,
// one camera and one light, evaluated frame by frame (docs/SCENE.md).
//
// Layer: above anim (every model is evaluated through anim::Character), below physics and
// render: physics/scene_physics.hpp simulates every model of a scene in one world, the CLI draws
// a scene with render::draw_scene.
//
// One frame, evaluate(frame) (30 fps, fractional allowed; without physics):
//   1. every character (models in order, then the stage) evaluates the frame (model space); with
//      outside parents (description.hpp ModelParentKey), in evaluation_order(), each model's
//      outside parents applied between its bones before and after physics;
//   2. update_attachments(frame): accessory world transforms (attached: model placement · bone
//      model matrix · accessory placement · S(unit scale), exactly, from this frame's bones; in the
//      world: placement · S(unit scale); an accessory with keys: the placement, parent, visibility
//      and opacity its keys give at the frame, description.hpp AccessoryEntry::keys), then camera,
//      light and self-shadow.
// Camera: the camera VMD's keys (a camera VMD without camera keys: MMD's default camera, as when
// MMD loads such a file onto its camera), else (no camera VMD) the first model whose motions have
// camera keys, else MMD's default camera; then, while a camera_parents key names a bone, its
// look-at point and eye moved by that bone's world origin (description.hpp CameraParentKey). Light: the fixed light, else the light VMD's keys, else the camera VMD's, else
// the first model's motions with light keys, else MMD's default (anim/light.hpp). Self-shadow: the
// camera VMD's keys, else the light VMD's, else the first model's motions with such keys, else
// MMD's default (anim/self_shadow.hpp).
// Spaces: a character's outputs are in its model space; character_placement(i) maps them to the
// world (the renderer and `pose --scene` apply it; `sample --scene` prints world space).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/anim/self_shadow.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/scene/accessory.hpp"
#include "mmdkit/scene/description.hpp"

namespace mmdkit::scene {

/// How a scene is loaded.
struct LoadOptions {
  /// Keep the models' geometry (render, pose); false: bones only (sample; accessories are still
  /// read whole, they are small).
  bool geometry = true;
  std::optional<Encoding> encoding;  ///< legacy text encoding of PMD / VMD names (nullopt = detect)
  AccessoryLoader accessory_loader;  ///< empty = load_accessory
};

/// Where the scene's camera comes from (file comment).
enum class CameraSource : std::uint8_t {
  camera_file,   ///< the camera VMD's camera keys
  model_motion,  ///< the camera keys of the first model's motions that have some (no camera VMD)
  mmd_default,   ///< MMD's default camera: no keys anywhere, or a camera VMD without camera keys
};

/// A loaded scene (see the file comment). Movable, not copyable.
class Scene {
 public:
  /// Reads every file of `description` (models, motions, stage, accessories, camera and light
  /// VMDs) and binds them. Readers' warnings go to `warnings` (with their files). Errors: the
  /// readers' and binders' with Error::file and the field path first in the message
  /// ("models[1].motions[0]: ..."); json_schema "accessories[0].bone: model 0 has no bone 'X'";
  /// invalid_argument for a VPD pose as the camera or light.
  static Result<Scene> load(const SceneDescription& description, const LoadOptions& options,
                            std::vector<Warning>& warnings);

  Scene(Scene&&) noexcept;
  Scene& operator=(Scene&&) noexcept;
  ~Scene();

  /// The description loaded, after resolve_accessory_files (description.hpp): .vac accessories
  /// name their .x with the .vac's placement and bone, a .x stage is an accessory (`stage` set).
  const SceneDescription& description() const noexcept;

  /// Characters: the models in order, then the stage (if any).
  std::size_t character_count() const noexcept;
  std::size_t model_count() const noexcept;  ///< the models only (= description().models.size())
  bool has_stage() const noexcept;
  /// Index of the stage among the characters (= model_count()); only when has_stage().
  std::size_t stage_index() const noexcept { return model_count(); }
  anim::Character& character(std::size_t i) noexcept;
  const anim::Character& character(std::size_t i) const noexcept;
  /// Model space → world of character i (its placement matrix).
  const Mat4& character_placement(std::size_t i) const noexcept;
  const Placement& character_placement_values(std::size_t i) const noexcept;
  /// "models[i]" or "stage": the field of character i, for messages.
  std::string character_field(std::size_t i) const;

  std::size_t accessory_count() const noexcept;
  const AccessoryModel& accessory(std::size_t i) const noexcept;
  /// The accessory's bone in its model's skeleton (−1: placed in the world).
  std::int32_t accessory_bone(std::size_t i) const noexcept;
  /// Accessory space → world at the last frame evaluated (identity before). An accessory with keys
  /// (AccessoryEntry::keys) takes its placement and parent from them at that frame.
  const Mat4& accessory_transform(std::size_t i) const noexcept;
  /// Visibility and opacity (0..1) at the last frame evaluated: the entry's, or its keys' at that
  /// frame (frame 0's before any evaluation).
  bool accessory_visible(std::size_t i) const noexcept;
  float accessory_opacity(std::size_t i) const noexcept;
  /// Whether it casts its ground shadow at the last frame evaluated (AccessoryEntry::shadow, or
  /// the key at or before that frame: MMD's accessory 影).
  bool accessory_shadow(std::size_t i) const noexcept;
  /// Visible at some frame: the entry is visible, or one of its keys is (a renderer needs it).
  bool accessory_ever_visible(std::size_t i) const noexcept;

  const anim::CameraState& camera() const noexcept;
  CameraSource camera_source() const noexcept;
  const anim::LightState& light() const noexcept;
  const anim::SelfShadowState& self_shadow() const noexcept;

  /// The last key frame over every model's inputs and the camera and light VMDs.
  std::uint32_t last_frame() const noexcept;

  /// Evaluates `frame` (file comment; no physics). Errors: Character::evaluate's, with the
  /// character's field in the message. Never allocates on success.
  Result<void> evaluate(double frame);
  /// Step 2 of the file comment, after the caller evaluated every character at `frame` (the
  /// physics layer does so with physics). Never allocates.
  void update_attachments(double frame) noexcept;

  /// The frame last evaluated (evaluate / update_attachments; 0 before any): 30 fps, fractional.
  double frame() const noexcept;

  /// Outside parents (description.hpp ModelParentKey): whether any model has some.
  bool has_outside_parents() const noexcept;
  /// The characters in the order they are evaluated: every model after the models it follows
  /// (otherwise in order), then the stage. Scene::load refuses a cycle (json_schema
  /// "models[0].parents: outside parents form a cycle (models[0] -> models[1] -> models[0]) ...").
  std::span<const std::size_t> evaluation_order() const noexcept;
  /// Applies character i's outside parents at `frame` to its bones evaluated before physics
  /// (model space, PoseWorkspace::set_model_transform): call between
  /// character(i).evaluate_before_physics(frame) and anything that reads its bones, after the
  /// characters it follows were evaluated and had theirs applied, in model space (evaluate() does
  /// so; the physics layer too). A subject bone evaluated after physics is left as is (a warning at
  /// load). Never allocates.
  void apply_outside_parents(std::size_t i, double frame) noexcept;
  /// The gravity of the physics world at `frame` (SceneDescription::gravity: the key at or before
  /// it, the first before the first; MMD's (0, −98, 0) without keys), MMD units / s².
  Vec3 gravity(double frame) const noexcept;

  struct Impl;  ///< private (src/scene/scene.cpp)

 private:
  explicit Scene(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmdkit::scene
