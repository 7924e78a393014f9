// mmdkit CLI — the physics options of the commands that evaluate a model (`sample`, `pose`):
// `--physics` and `--physics-fps 60|120|240`, and the evaluation of a frame with or without
// physics (physics/character_physics.hpp: frame F = frame F of a run from frame 0). In a build
// without the physics layer (MMDKIT_WITH_PHYSICS=OFF) `--physics` is a usage error that says so.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>

#include "cli/progress.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/error.hpp"

// CLI11 declared, not included: <CLI/CLI.hpp> costs every file that includes it several seconds
// of compile time; only the files that declare options include it.
namespace CLI {
class App;
}

namespace mmdkit::cli {

struct PhysicsArgs {
  bool on = false;         ///< --physics
  std::uint32_t fps = 60;  ///< --physics-fps: fixed steps per second (60, 120 or 240)
  /// Samples per 30 fps frame the frames are evaluated at (not an option: `render --fps 60` sets
  /// 2, so that physics advances by half frames; CharacterPhysics::evaluate_sample). 1 or 2.
  std::uint32_t samples_per_frame = 1;
  /// --verbose: every physics warning on a line of its own (default: physics_warning_lines groups
  /// the warnings of one kind).
  bool verbose = false;
};

/// Declares --physics, --physics-fps and --verbose on `sub`.
void declare_physics_options(CLI::App& sub, PhysicsArgs& a);

/// Declares --verbose alone (commands that simulate by default: render; export, bake).
void declare_verbose_flag(CLI::App& sub, bool& verbose);

/// A usage problem of the physics options ("" if none): fps not 60/120/240, or --physics in a
/// build without the physics layer.
std::string physics_usage_problem(const PhysicsArgs& a);

/// The progress of a physics catch-up (the frames simulated before the one asked) on `err`, for
/// FrameEvaluator and the scene's evaluator (scene_input.hpp), by cli/progress.hpp's rule (a bar
/// on a terminal once the run has lasted 2 s, a line every 5 s otherwise, nothing when quiet) of
/// the frames simulated out of the run's length, for a run with more than 30 frames to simulate.
class CatchUpProgress {
 public:
  CatchUpProgress(std::ostream& err, bool quiet);
  /// Before a run that continues after `before` frames already simulated (0 after a restart), of
  /// a run `total` frames long. Returns how often (in samples) to call report.
  std::uint32_t begin(std::int64_t before, std::uint64_t total);
  /// `done` of `todo` samples of this catch-up simulated (the physics classes' Progress).
  void report(std::uint32_t done, std::uint32_t todo);
  /// After the run; `warnings` new warnings are about to be printed (the bar is cleared first).
  void end(std::uint32_t frame, std::uint64_t total, std::size_t warnings);

 private:
  std::ostream* err_;
  ProgressMode mode_;
  std::int64_t before_ = 0;
  std::optional<Progress> bar_;
};

/// The one form of a physics warning of every command (bake, sample, pose, export, render):
/// "mmdkit: warning: MODEL_FILE: physics: joints 28 '...': ...\n".
std::string physics_warning_line(const std::string& model_file, const std::string& warning);

/// One physics warning to print: its model's file and physics::Warning's parts.
struct PhysicsNote {
  std::string file;
  std::string section;       ///< "joints", "rigid bodies", "simulation", ...
  std::int64_t record = -1;  ///< -1: the section as a whole
  std::string name;          ///< the record's name (may be empty)
  std::string message;       ///< what is wrong, the same words for every record of one kind
};

/// The lines of `notes`: unless `verbose`, the notes of one file, section and message share one
/// line, in the order of their first, naming the first kShownRecords records and how many more
/// ("... physics: joints 3 '髪1', 5 '髪2', 9 '髪3' and 107 more (--verbose lists them): angular limit
/// x is inverted ..."); a kind met once is physics_warning_line's line. A model with a hundred
/// inverted joint limits (ちびAppearanceミク) thus prints a few lines, not a hundred.
std::string physics_warning_lines(std::span<const PhysicsNote> notes, bool verbose);
inline constexpr std::size_t kShownRecords = 3;

/// Evaluates frames of one character, with physics when asked.
class FrameEvaluator {
 public:
  /// Attaches physics to `character` when `a.on` (its warnings are printed to `err` unless
  /// `quiet`, each once, naming `model_file`: physics_warning_line). `character` must outlive the
  /// evaluator.
  FrameEvaluator(anim::Character& character, const PhysicsArgs& a, std::ostream& err, bool quiet,
                 std::string model_file);
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
  /// The frame the simulation starts at (default 0; export starts at its first frame):
  /// physics::CharacterPhysics::set_first_frame.
  void set_first_frame(std::uint32_t frame) noexcept;
  /// The last frame the caller will ask (the length of the progress bar; default: each call's frame).
  void set_run_length(std::uint32_t last_frame) noexcept { run_last_ = last_frame; }
  /// Prints the physics warnings not printed yet (evaluate does after each frame).
  void print_new_warnings();
  bool physics() const noexcept { return impl_ != nullptr; }

 private:
  struct Impl;
  anim::Character* character_;
  std::ostream* err_;
  bool quiet_;
  std::string model_file_;
  bool verbose_ = false;
  std::unique_ptr<Impl> impl_;
  CatchUpProgress progress_;
  std::uint32_t samples_per_frame_ = 1;
  std::size_t warnings_shown_ = 0;
  std::int64_t run_last_ = -1;
  std::uint32_t first_frame_ = 0;
};

}  // namespace mmdkit::cli
