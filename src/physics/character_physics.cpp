// Physics for one anim::Character, whole frames in order (character_physics.hpp).
#include "mmdkit/physics/character_physics.hpp"

#include "mmdkit/physics/character_stage.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

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
  return evaluate_sample(frame, 1, progress, progress_every);
}

Result<void> CharacterPhysics::evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                                               std::uint32_t progress_every) {
  const std::uint32_t substeps = world_->substeps_per_frame();
  if (per_frame == 0 || substeps % per_frame != 0)
    return make_error(ErrorCode::invalid_argument, std::to_string(per_frame) + " samples per frame: the world steps " +
                                                       std::to_string(substeps) +
                                                       " fixed steps per frame, which must be a multiple of it");
  // First call, a backward seek, the same sample again (evaluating it would step the world once
  // more) or another rate: start again from frame 0, so the result stays the sample of a run from 0.
  if (last_ < 0 || per_frame != per_frame_ || static_cast<std::int64_t>(index) <= last_) {
    character_->reset_physics();
    last_ = -1;
  }
  per_frame_ = per_frame;
  stage_->set_substeps(per_frame == 1 ? 0 : substeps / per_frame);  // 0: World::step_frame, as always
  const std::uint64_t first = static_cast<std::uint64_t>(last_ + 1);
  const std::uint64_t total = index - first + 1;
  for (std::uint64_t i = first; i <= index; ++i) {
    const double frame = per_frame == 1 ? static_cast<double>(i) : static_cast<double>(i) / per_frame;
    if (auto r = character_->evaluate(frame); !r) {
      last_ = -1;
      return r;
    }
    last_ = static_cast<std::int64_t>(i);
    const std::uint64_t done = i - first + 1;
    if (progress && total > progress_every && done % progress_every == 0)
      progress(static_cast<std::uint32_t>(std::min<std::uint64_t>(done, UINT32_MAX)),
               static_cast<std::uint32_t>(std::min<std::uint64_t>(total, UINT32_MAX)));
  }
  return {};
}

std::size_t CharacterPhysics::body_count() const noexcept { return model_->body_count(); }

std::span<const Warning> CharacterPhysics::warnings() const noexcept { return world_->warnings(); }

}  // namespace mmdkit::physics
