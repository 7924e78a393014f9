// The physics slot of anim::Character (character_stage.hpp).
#include "mmdkit/physics/character_stage.hpp"

#include <algorithm>

namespace mmdkit::physics {

CharacterStage::CharacterStage(World& world, ModelPhysics& model, const anim::BoundMotion* motion, std::size_t bone_count)
    : world_(&world), model_(&model), motion_(motion), off_(bone_count, 0) {}

void CharacterStage::targets(double frame, const anim::PoseWorkspace& pose) {
  std::fill(off_.begin(), off_.end(), std::uint8_t{0});
  if (motion_) anim::sample_physics_off(*motion_, frame, off_);
  model_->set_targets(pose, off_);
}

void CharacterStage::reset(const anim::Skeleton&, anim::PoseWorkspace& pose, double frame) {
  targets(frame, pose);
  world_->reset();
  model_->write_bones(pose);
}

void CharacterStage::simulate(double frame, const anim::Skeleton&, anim::PoseWorkspace& pose) {
  targets(frame, pose);
  if (substeps_ == 0)
    world_->step_frame();
  else
    world_->step_substeps(substeps_);
  model_->write_bones(pose);
}

}  // namespace mmdkit::physics
