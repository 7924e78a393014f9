// mmdkit — physics for one anim::Character, evaluated by whole frames in order: what `mmdkit
// sample --physics`, `pose --physics` and `render --physics` use (docs/PHYSICS.md "Start, seek and
// determinism").
//
// A CharacterPhysics owns a World with the character's model in it and the CharacterStage that
// fills the character's physics slot (character_stage.hpp). evaluate(F) gives the frame F of a
// simulation that started at frame 0: the first call resets the world at frame 0 (bodies on their
// bones, warm-up) and steps every frame up to F; a later F continues from the last frame
// evaluated; an earlier F starts again from 0. So the result of frame F never depends on which
// frames were asked before (same bytes as one run from 0 to F).
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

class CharacterStage;

class CharacterPhysics {
 public:
  /// Called every `progress_every` frames of a catch-up run longer than that: (frames done, to do).
  using Progress = std::function<void(std::uint32_t done, std::uint32_t total)>;

  /// Builds the world (`settings`) with `character`'s model (its rigid bodies and joints;
  /// problems are repaired and listed in warnings()) and attaches the stage to `character`, which
  /// must outlive this object (the destructor detaches it). Allocates.
  explicit CharacterPhysics(anim::Character& character, const Settings& settings = {});
  ~CharacterPhysics();
  CharacterPhysics(const CharacterPhysics&) = delete;
  CharacterPhysics& operator=(const CharacterPhysics&) = delete;

  /// Evaluates whole frame `frame` of the character with physics (see the file comment); the
  /// character's outputs then hold that frame. Errors: Character::evaluate's.
  Result<void> evaluate(std::uint32_t frame, const Progress& progress = {}, std::uint32_t progress_every = 1000);

  /// Evaluates sample `index` of a run at `per_frame` samples per 30 fps frame, i.e. frame
  /// index / per_frame (per_frame 2: the half frames of 60 fps output). Each sample after frame 0
  /// steps World::substeps_per_frame() / per_frame fixed steps, the kinematic bodies moving to the
  /// bones evaluated at that sample; evaluate(F) is evaluate_sample(F, 1). Same restart rule as
  /// evaluate (first call, an earlier or the same sample, or a rate other than the last call's:
  /// start again from frame 0), so the result is sample `index` of one run from frame 0 at that
  /// rate. Whole frames of a per_frame 2 run equal those of a 30 fps run when the kinematic bodies
  /// move linearly between whole frames (at rest, or linear translation curves), since the 30 fps
  /// run interpolates their targets linearly between frames; otherwise they differ by what the
  /// curves add at the half frames (docs/PHYSICS.md). Errors: invalid_argument when per_frame is 0
  /// or does not divide substeps_per_frame() (60 steps / s: 1 or 2; 120: 1, 2 or 4); Character::evaluate's.
  Result<void> evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress = {},
                               std::uint32_t progress_every = 1000);

  /// The last sample evaluated (a whole frame after evaluate(); an index at the rate of the last
  /// evaluate_sample() call), −1 before the first.
  std::int64_t last_frame() const noexcept { return last_; }
  /// Number of rigid bodies simulated (0: the model has none, and physics changes nothing).
  std::size_t body_count() const noexcept;
  /// Everything the world reported so far (repairs at build, bodies reset while simulating).
  std::span<const Warning> warnings() const noexcept;

 private:
  anim::Character* character_;
  std::unique_ptr<World> world_;
  ModelPhysics* model_ = nullptr;
  std::unique_ptr<CharacterStage> stage_;
  std::int64_t last_ = -1;
  std::uint32_t per_frame_ = 1;  ///< rate of the samples evaluated since the last restart
};

}  // namespace mmdkit::physics
