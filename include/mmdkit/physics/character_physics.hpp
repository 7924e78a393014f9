// mmdkit — physics for one anim::Character, evaluated by whole frames in order: what `mmdkit
// sample --physics`, `pose --physics` and `render --physics` use (docs/PHYSICS.md "Start, seek and
// determinism").
//
// A character is a one-character scene: CharacterPhysics runs the one physics run of
// ScenePhysics (scene_physics.hpp: the bones before physics, the world stepped, the bones after
// physics; src/physics/simulation.hpp) with this character alone, at its identity placement, so
// a one-model scene gives its bytes. It owns a World with the character's model in it.
// evaluate(F) gives the frame F of a simulation that started at the first frame (0 unless
// set_first_frame): the first call resets the world there (bodies on their bones, warm-up) and
// steps every frame up to F; a later F continues from the last frame evaluated; an earlier F
// starts again from the first frame. So the result of frame F never depends on which frames were
// asked before (same bytes as one run from the first frame to F). Character::evaluate() alone
// runs no physics: evaluate through this object.
//
// Frames: whole 30 fps frames (the world steps one frame at a time: Settings::steps_per_second /
// 30 fixed steps), or with evaluate_sample() a fixed number of samples per frame (the half frames
// of 60 fps output: half as many fixed steps per sample). Units and space: docs/CONVENTIONS.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics {

namespace detail {
class Simulation;
}

class CharacterPhysics {
 public:
  /// Called every `progress_every` frames of a catch-up run longer than that: (frames done, to do).
  using Progress = std::function<void(std::uint32_t done, std::uint32_t total)>;

  /// Builds the world (`settings`) with `character`'s model (its rigid bodies and joints;
  /// problems are repaired and listed in warnings()). `character` must outlive this object.
  /// Allocates.
  explicit CharacterPhysics(anim::Character& character, const Settings& settings = {});
  ~CharacterPhysics();
  CharacterPhysics(const CharacterPhysics&) = delete;
  CharacterPhysics& operator=(const CharacterPhysics&) = delete;

  /// The frame the simulation starts at (reset there; earlier frames are not simulated), e.g. the
  /// first frame `mmdkit export --physics` writes. Default 0. A change starts the run again.
  void set_first_frame(std::uint32_t frame) noexcept;

  /// Evaluates whole frame `frame` of the character with physics (see the file comment); the
  /// character's outputs then hold that frame. Errors: Character::evaluate's; invalid_argument
  /// for a frame before the first frame.
  Result<void> evaluate(std::uint32_t frame, const Progress& progress = {}, std::uint32_t progress_every = 1000);

  /// Evaluates sample `index` of a run at `per_frame` samples per 30 fps frame, i.e. frame
  /// index / per_frame (per_frame 2: the half frames of 60 fps output). Each sample after the first
  /// steps World::substeps_per_frame() / per_frame fixed steps, the kinematic bodies moving to the
  /// bones evaluated at that sample; evaluate(F) is evaluate_sample(F, 1). Same restart rule as
  /// evaluate (first call, an earlier or the same sample, or a rate other than the last call's:
  /// start again from the first frame), so the result is sample `index` of one run from the first
  /// frame at that rate. Whole frames of a per_frame 2 run equal those of a 30 fps run when the kinematic bodies
  /// move linearly between whole frames (at rest, or linear translation curves), since the 30 fps
  /// run interpolates their targets linearly between frames; otherwise they differ by what the
  /// curves add at the half frames (docs/PHYSICS.md). Errors: invalid_argument when per_frame is 0
  /// or does not divide substeps_per_frame() (60 steps / s: 1 or 2; 120: 1, 2 or 4); Character::evaluate's.
  Result<void> evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress = {},
                               std::uint32_t progress_every = 1000);

  /// The last sample evaluated (a whole frame after evaluate(); an index at the rate of the last
  /// evaluate_sample() call), −1 before the first.
  std::int64_t last_frame() const noexcept;
  /// The character's bodies and joints in the world (ModelPhysics::driven_bones: the bones physics writes).
  const ModelPhysics& model_physics() const noexcept;
  /// Number of rigid bodies simulated (0: the model has none, and physics changes nothing).
  std::size_t body_count() const noexcept;
  /// Everything the world reported so far (repairs at build, bodies reset while simulating).
  std::span<const Warning> warnings() const noexcept;

 private:
  std::unique_ptr<detail::Simulation> run_;
};

}  // namespace mmdkit::physics
