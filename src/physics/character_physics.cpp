// Physics for one anim::Character, whole frames in order (character_physics.hpp).
#include "mmdkit/physics/character_physics.hpp"

#include "mmdkit/physics/character_stage.hpp"

namespace mmdkit::physics {

CharacterPhysics::CharacterPhysics(anim::Character& character, const Settings& settings)
    : character_(&character), world_(std::make_unique<World>(settings)) {
  const anim::CharacterData& data = character.data();
  model_ = &world_->add_model(data.model(), data.skeleton());
  stage_ = std::make_unique<CharacterStage>(*world_, *model_, &data.bone_motion().bound(), data.skeleton().bone_count());
  character.set_physics(stage_.get());
}

CharacterPhysics::~CharacterPhysics() {
  if (character_->physics() == stage_.get()) character_->set_physics(nullptr);
}

Result<void> CharacterPhysics::evaluate(std::uint32_t frame, const Progress& progress, std::uint32_t progress_every) {
  // First call, a backward seek, or the same frame again (evaluating it would step the world once
  // more): start again from frame 0, so the result stays the frame of a run from 0.
  if (last_ < 0 || static_cast<std::int64_t>(frame) <= last_) {
    character_->reset_physics();
    last_ = -1;
  }
  const std::uint32_t first = static_cast<std::uint32_t>(last_ + 1);
  const std::uint32_t total = frame - first + 1;
  for (std::uint32_t f = first; f <= frame; ++f) {
    if (auto r = character_->evaluate(static_cast<double>(f)); !r) {
      last_ = -1;
      return r;
    }
    last_ = f;
    const std::uint32_t done = f - first + 1;
    if (progress && total > progress_every && done % progress_every == 0) progress(done, total);
  }
  return {};
}

std::size_t CharacterPhysics::body_count() const noexcept { return model_->body_count(); }

std::span<const Warning> CharacterPhysics::warnings() const noexcept { return world_->warnings(); }

}  // namespace mmdkit::physics
