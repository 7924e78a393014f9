// mmdkit CLI — the physics options of the commands that evaluate a model (`sample`, `pose`):
// `--physics` and `--physics-fps 60|120|240`, and the evaluation of a frame with or without
// physics (physics/character_physics.hpp: frame F = frame F of a run from frame 0). In a build
// without the physics layer (MMDKIT_WITH_PHYSICS=OFF) `--physics` is a usage error that says so.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <ostream>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::cli {

struct PhysicsArgs {
  bool on = false;         ///< --physics
  std::uint32_t fps = 60;  ///< --physics-fps: fixed steps per second (60, 120 or 240)
  /// Samples per 30 fps frame the frames are evaluated at (not an option: `render --fps 60` sets
  /// 2, so that physics advances by half frames; CharacterPhysics::evaluate_sample). 1 or 2.
  std::uint32_t samples_per_frame = 1;
};

/// Declares --physics and --physics-fps on `sub`.
void declare_physics_options(CLI::App& sub, PhysicsArgs& a);

/// A usage problem of the physics options ("" if none): fps not 60/120/240, or --physics in a
/// build without the physics layer.
std::string physics_usage_problem(const PhysicsArgs& a);

/// Evaluates frames of one character, with physics when asked.
class FrameEvaluator {
 public:
  /// Attaches physics to `character` when `a.on` (its warnings are printed to `err` unless
  /// `quiet`). `character` must outlive the evaluator.
  FrameEvaluator(anim::Character& character, const PhysicsArgs& a, std::ostream& err, bool quiet);
  ~FrameEvaluator();
  FrameEvaluator(const FrameEvaluator&) = delete;
  FrameEvaluator& operator=(const FrameEvaluator&) = delete;

  /// Evaluates `frame`. With physics the frame must be a multiple of 1 / samples_per_frame (whole
  /// frames, or halves at 2; invalid_argument otherwise): it is that sample of a simulation run
  /// from frame 0 at that rate. Progress of the simulation on `err` (unless quiet), by
  /// cli/progress.hpp's rule (a bar on a terminal after 2 s, else a line every 5 s): the frames
  /// simulated out of the run's length (set_run_length, else the frame asked), for a run with more
  /// than 30 frames left to simulate.
  Result<void> evaluate(double frame);
  /// The last frame the caller will ask (the length of the progress bar; default: each call's frame).
  void set_run_length(std::uint32_t last_frame) noexcept { run_last_ = last_frame; }
  bool physics() const noexcept { return impl_ != nullptr; }

 private:
  struct Impl;
  anim::Character* character_;
  std::ostream* err_;
  bool quiet_;
  std::unique_ptr<Impl> impl_;
  std::uint32_t samples_per_frame_ = 1;
  std::size_t warnings_shown_ = 0;
  std::int64_t run_last_ = -1;
};

}  // namespace mmdkit::cli
