// mmdkit — the physics of a whole scene (scene/scene.hpp) in one world, as MMD simulates every model
// of a project together: bodies of different models collide with each other (by their groups and
// masks, as within one model), and the stage's bodies collide with the dancers (docs/SCENE.md
// "Physics", docs/PHYSICS.md).
//
// One frame F is the one physics run of src/physics/simulation.hpp (CharacterPhysics runs the same
// with one character: a character is a one-character scene):
//   for every character (models, then the stage; with outside parents in
//     Scene::evaluation_order(), each model's applied by Scene::apply_outside_parents right after
//     it): Character::evaluate_before_physics(F); then for every character its bones taken to
//     the world by its placement, ModelPhysics::set_targets (physics-off keys of its motions at F);
//   the world's gravity set to Scene::gravity(F) when the scene has gravity keys;
//   World::reset() on the first frame, World::step_frame() afterwards;
//   for every character: ModelPhysics::write_bones, the bones taken back to model space,
//     Character::evaluate_after_physics();
//   Scene::update_attachments(F) (accessories follow the simulated bones).
// evaluate(F) gives frame F of a run from frame 0 whatever was asked before (the rule of
// CharacterPhysics): a later frame continues, an earlier one or the same one starts again from 0.
// Whole 30 fps frames, or with evaluate_sample() a fixed number of samples per frame (the half
// frames of 60 fps output), as CharacterPhysics::evaluate_sample. A placement other than identity
// sends the bones through the placement and back (rotation and translation only: rounding of
// about 1e-6 MMD units); identity placements leave them untouched, so a one-model scene gives the
// bytes of CharacterPhysics.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "mmdkit/core/error.hpp"
#include "mmdkit/physics/physics.hpp"
#include "mmdkit/scene/scene.hpp"

namespace mmdkit::physics {

namespace detail {
class Simulation;
}

class ScenePhysics {
 public:
  using Progress = std::function<void(std::uint32_t done, std::uint32_t total)>;

  /// Builds one world (`settings`, with the scene's physics ground as Settings::floor and its
  /// gravity at frame 0 as Settings::gravity when it has gravity keys) with every character of
  /// `scene` that has rigid bodies.
  /// `scene` must outlive this object. Errors: invalid_argument "models[i].scale: ..." for a
  /// character with rigid bodies whose placement scale is not 1 (rigid bodies do not scale).
  static Result<std::unique_ptr<ScenePhysics>> create(scene::Scene& scene, const Settings& settings = {});
  ~ScenePhysics();
  ScenePhysics(const ScenePhysics&) = delete;
  ScenePhysics& operator=(const ScenePhysics&) = delete;

  /// Evaluates whole frame `frame` of the scene with physics (file comment). Errors: the
  /// characters' evaluation errors, with the character's field.
  Result<void> evaluate(std::uint32_t frame, const Progress& progress = {}, std::uint32_t progress_every = 1000);

  /// Evaluates sample `index` of a run at `per_frame` samples per 30 fps frame, i.e. frame
  /// index / per_frame (2: the half frames of `render --fps 60`): each sample after the first
  /// steps World::substeps_per_frame() / per_frame fixed steps, the kinematic bodies moving to the
  /// bones evaluated at that sample, exactly as CharacterPhysics::evaluate_sample (so a one-model
  /// scene gives its bytes). evaluate(F) is evaluate_sample(F, 1). Restart rule: the first call, an
  /// earlier or the same sample, or another rate than the last call's start again from frame 0.
  /// Errors: invalid_argument when per_frame is 0 or does not divide substeps_per_frame(); the
  /// characters' evaluation errors, with the character's field.
  Result<void> evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress = {},
                               std::uint32_t progress_every = 1000);

  /// The last sample evaluated (a whole frame after evaluate(); an index at the rate of the last
  /// evaluate_sample() call), −1 before the first.
  std::int64_t last_frame() const noexcept;
  /// Rigid bodies in the world (all characters).
  std::size_t body_count() const noexcept;
  /// The physics of character i of the scene; null when it has no rigid bodies.
  const ModelPhysics* character_physics(std::size_t i) const noexcept;
  /// Everything the world reported (Warning::model = the index among the characters with bodies).
  std::span<const Warning> warnings() const noexcept;

 private:
  ScenePhysics() = default;
  std::unique_ptr<detail::Simulation> run_;
};

}  // namespace mmdkit::physics
