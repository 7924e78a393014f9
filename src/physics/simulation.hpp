// mmdkit physics internals — the one physics run behind CharacterPhysics (a character is a
// one-character scene without a scene::Scene) and ScenePhysics (every character of a scene in one
// world). docs/PHYSICS.md "Frame order" and "Start, seek and determinism".
//
// One sample at frame F:
//   for every character: Character::evaluate_before_physics(F); with a scene, its bones taken to
//     the world by its placement (scene::Placement, identity leaves them untouched);
//     ModelPhysics::set_targets with the physics-off keys of its motions at F;
//   World::reset() on the first sample of a run, else World::step_frame() (whole frames) or
//     World::step_substeps(substeps_per_frame / per_frame) (per_frame samples per frame);
//   for every character: ModelPhysics::write_bones, the bones taken back to model space,
//     Character::evaluate_after_physics();
//   with a scene, Scene::update_attachments(F).
// evaluate_sample(i, per_frame) gives sample i (frame i / per_frame) of a run that started at the
// first frame (set_first_frame, default 0): a later sample continues, an earlier one, the same
// one or another rate starts again from the first frame. So a sample's result never depends on
// which ones were asked before. No allocation after the first reset (World's rule).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::scene {
class Scene;
}

namespace mmdkit::physics::detail {

class Simulation {
 public:
  using Progress = std::function<void(std::uint32_t done, std::uint32_t total)>;

  /// `scene` null: the characters stand alone (identity placement, errors as the character's,
  /// no attachments); else character i is scene->character(i), placed and named by the scene.
  Simulation(const Settings& settings, scene::Scene* scene);

  /// Adds the next character (its index is the number of calls before). `bodies`: its model's
  /// rigid bodies and joints go into the world (returned); false: it is only evaluated (null).
  ModelPhysics* add(anim::Character& character, bool bodies);

  /// The frame a run starts at (reset there; the frames before are not simulated). Default 0.
  void set_first_frame(std::uint32_t frame) noexcept;

  /// Sample `index` at `per_frame` samples per 30 fps frame (file comment). Errors:
  /// invalid_argument when per_frame is 0 or does not divide World::substeps_per_frame(), or the
  /// sample is before the first frame; the characters' evaluation errors (with a scene, prefixed
  /// with the character's field).
  Result<void> evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                               std::uint32_t progress_every);

  std::int64_t last_sample() const noexcept { return last_; }
  std::size_t body_count() const noexcept;
  /// The physics of character i; null when it was added without bodies.
  const ModelPhysics* model(std::size_t i) const noexcept { return i < members_.size() ? members_[i].model : nullptr; }
  std::span<const Warning> warnings() const noexcept { return world_->warnings(); }

 private:
  struct Member {
    anim::Character* character;
    ModelPhysics* model;             // null: no bodies
    std::vector<std::uint8_t> off;   // physics-off flags per bone
  };
  Result<void> step(double frame, bool reset, std::uint32_t substeps);
  Result<void> failed(std::size_t i, Error e) const;
  scene::Scene* scene_;
  std::unique_ptr<World> world_;
  std::vector<Member> members_;
  std::uint32_t first_frame_ = 0;
  std::int64_t last_ = -1;
  std::uint32_t per_frame_ = 1;  // rate of the samples evaluated since the last restart
};

}  // namespace mmdkit::physics::detail
