// Whole frames with physics, in order (replay.hpp).
#include "mmdkit/physics/replay.hpp"

#include <algorithm>

#include "mmdkit/anim/skeleton.hpp"

namespace mmdkit::physics {

Replay::Replay(World& world, ModelPhysics& model, const anim::Skeleton& skeleton)
    : world_(&world), model_(&model), skeleton_(&skeleton), off_(skeleton.bone_count(), 0) {}

Result<void> Replay::evaluate(std::uint32_t frame, const anim::PoseInput& input, anim::PoseWorkspace& ws, const Sampler& sample,
                      const Progress& progress, std::uint32_t progress_every) {
  if (last_ > static_cast<std::int64_t>(frame)) last_ = -1;  // backward: start again at frame 0
  const auto first = static_cast<std::uint32_t>(last_ + 1);
  const std::uint32_t total = frame + 1 - std::min(first, frame + 1);
  for (std::uint32_t f = first; f <= frame && last_ < static_cast<std::int64_t>(frame); ++f) {
    std::fill(off_.begin(), off_.end(), std::uint8_t{0});
    sample(f, off_);
    if (auto r = anim::evaluate_before_physics(*skeleton_, input, ws); !r) {
      last_ = -1;
      return r;
    }
    model_->set_targets(ws, off_);
    if (f == 0)
      world_->reset();
    else
      world_->step_frame();
    model_->write_bones(ws);
    if (auto r = anim::evaluate_after_physics(*skeleton_, input, ws); !r) {
      last_ = -1;
      return r;
    }
    last_ = f;
    const std::uint32_t done = f + 1 - first;
    if (progress && total > progress_every && done % progress_every == 0) progress(done, total);
  }
  return {};
}

}  // namespace mmdkit::physics
