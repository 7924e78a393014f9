// mmdkit — the physics slot of anim::Character (anim/character.hpp PhysicsStage) for one model:
// Character::set_physics(&stage) makes Character::evaluate run the frame order of
// docs/PHYSICS.md ("Frame order") with this model's rigid bodies.
//
// The stage steps one 30 fps frame per simulate() call (reset() places the bodies and runs the
// warm-up): evaluate whole frames in order from the first (physics/replay.hpp explains why; a
// caller that seeks calls Character::reset_physics()). Physics-off keys come from the bound
// motion given here (BoundMotion::physics_tracks; null = all on).
#pragma once

#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics {

class CharacterStage final : public anim::PhysicsStage {
 public:
  /// `world` holds `model` (added for the character's skeleton); both and `motion` must outlive
  /// the stage. Allocates the physics-off buffer once.
  CharacterStage(World& world, ModelPhysics& model, const anim::BoundMotion* motion, std::size_t bone_count);
  void reset(const anim::Skeleton& skeleton, anim::PoseWorkspace& pose, double frame) override;
  void simulate(double frame, const anim::Skeleton& skeleton, anim::PoseWorkspace& pose) override;
  /// Fixed steps per simulate() call: 0 (default) = one whole 30 fps frame (World::step_frame);
  /// n = World::step_substeps(n), for evaluating fractions of a frame (CharacterPhysics at 60 fps).
  void set_substeps(std::uint32_t substeps) noexcept { substeps_ = substeps; }

 private:
  void targets(double frame, const anim::PoseWorkspace& pose);
  World* world_;
  ModelPhysics* model_;
  const anim::BoundMotion* motion_;
  std::vector<std::uint8_t> off_;
  std::uint32_t substeps_ = 0;
};

}  // namespace mmdkit::physics
