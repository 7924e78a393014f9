// mmdkit — evaluating whole frames of one model with physics, in order (what `mmdkit sample
// --physics`, `pose --physics` and `bake` do; docs/PHYSICS.md "Start, seek and determinism").
//
// Frame F is the result of simulating every frame from 0 to F: the first call resets the world at
// frame 0 (bodies on their bones, warm-up) and steps each following frame; a later F continues
// from the last frame evaluated; an earlier F starts again from frame 0. So the result of a frame
// never depends on which frames were asked before (same bytes as one run from 0).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics {

class Replay {
 public:
  /// Fills the caller's pose input buffers (the spans given to evaluate) for a whole frame, and
  /// the per-bone physics-off flags (zeroed before the call).
  using Sampler = std::function<void(std::uint32_t frame, std::span<std::uint8_t> physics_off)>;
  /// Called every `progress_every` frames of a catch-up run longer than that: (frames done, to do).
  using Progress = std::function<void(std::uint32_t done, std::uint32_t total)>;

  /// `world` holds `model` (added for `skeleton`); all must outlive the Replay. Allocates the
  /// physics-off buffer once.
  Replay(World& world, ModelPhysics& model, const anim::Skeleton& skeleton);

  /// Evaluates whole frame `frame` into `ws`: every frame still needed is sampled with `sample`
  /// into the buffers `input` points to, evaluated before physics, simulated, written back and
  /// evaluated after physics. No allocation after construction (beyond what `sample` does).
  /// Errors: anim::evaluate_before_physics's (a workspace not built for the skeleton).
  Result<void> evaluate(std::uint32_t frame, const anim::PoseInput& input, anim::PoseWorkspace& ws, const Sampler& sample,
                const Progress& progress = {}, std::uint32_t progress_every = 1000);

  /// Last frame evaluated, −1 before the first.
  std::int64_t last_frame() const noexcept { return last_; }

 private:
  World* world_;
  ModelPhysics* model_;
  const anim::Skeleton* skeleton_;
  std::vector<std::uint8_t> off_;
  std::int64_t last_ = -1;
};

}  // namespace mmdkit::physics
