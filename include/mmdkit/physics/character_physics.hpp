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
// 30 fixed steps). Units and space: docs/CONVENTIONS.md.
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

  /// The last frame evaluated, −1 before the first.
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
};

}  // namespace mmdkit::physics
