// mmdkit CLI — scenes for `sample`, `pose` and `render` (docs/SCENE.md): `--scene scene.json`, or
// the short form `MODEL [MOTION...] --stage STAGE --accessory FILE[@BONE] ...` (one dancer; an
// accessory with @BONE is attached to that bone of the dancer, without it placed at the world
// origin). Loads through the scene layer (scene/scene.hpp), prints warnings, maps errors to exit
// codes, and evaluates frames with or without physics (physics/scene_physics.hpp: all models in
// one world).
#pragma once

#include <expected>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/physics_option.hpp"
#include "mmdkit/scene/scene.hpp"

// CLI11 declared, not included: <CLI/CLI.hpp> costs every file that includes it several seconds
// of compile time; only the files that declare options include it.
namespace CLI {
class App;
}

namespace mmdkit::cli {

struct SceneArgs {
  std::string scene;                     ///< --scene FILE (a scene file, or an MMD project .pmm: docs/PMM.md)
  std::vector<std::string> search_dirs;  ///< --search-dir: where a .pmm's files are looked for
  std::string stage;                     ///< --stage FILE
  std::vector<std::string> accessories;  ///< --accessory FILE[@BONE], repeatable
  /// A scene was asked for (any of the three options).
  bool requested() const noexcept { return !scene.empty() || !stage.empty() || !accessories.empty(); }
};

/// Declares --scene, --stage and --accessory on `sub`.
void declare_scene_options(CLI::App& sub, SceneArgs& a);

/// What the command gave besides the scene options (empty = not given).
struct SceneCommandInputs {
  std::string model;
  std::vector<std::string> motions;
  std::string camera;  ///< render's --camera
  std::string audio;   ///< render's --audio
  const char* command = "";
  bool quiet = false;  ///< no warnings (a project's files not found)
  std::string output;  ///< render's output: a project's audio is kept for a video only
};

/// The scene to load: the --scene file (then MODEL, MOTION, --stage, --accessory, --camera and
/// --audio are usage errors: the file says them), or the short form. Errors are printed; the exit
/// code is returned (1 bad scene file, 2 usage).
std::expected<scene::SceneDescription, int> scene_description(const SceneArgs& a, const SceneCommandInputs& in,
                                                              std::ostream& err);

/// Loads the scene (geometry for pose / render), printing readers' warnings and tracks that match
/// nothing unless `quiet`. Errors are printed; the exit code is returned (1; 2 for a usage problem
/// of the short form, such as a second VPD pose). `short_form`: the scene came from the command
/// line (not --scene): errors name the options (MODEL, MOTION, --stage, --accessory, --camera)
/// instead of the scene file's fields.
std::expected<scene::Scene, int> load_scene(const scene::SceneDescription& d, bool geometry, bool quiet,
                                            std::ostream& err, bool short_form = false);

/// `e` with its leading field path ("models[0].motions[1]: ...") replaced by the short form's
/// option ("MOTION: ..."), without the section 'scene' (no scene file was read) and without the
/// path repeated at the end of the message when `e.file` names it.
Error short_form_error(Error e);

/// Every input file of the scene (the --force rule protects them) and the scene file itself.
std::vector<std::filesystem::path> scene_inputs(const scene::SceneDescription& d, const SceneArgs& a);

/// Evaluates frames of a scene, with physics (all models in one world) when asked.
class SceneEvaluator {
 public:
  SceneEvaluator(scene::Scene& scene, std::ostream& err, bool quiet);
  ~SceneEvaluator();
  SceneEvaluator(const SceneEvaluator&) = delete;
  SceneEvaluator& operator=(const SceneEvaluator&) = delete;
  /// Switches physics on (a.on), advancing a.samples_per_frame samples per frame (2: half frames,
  /// render --fps 60); errors (printed by the caller): ScenePhysics::create's.
  Result<void> set_physics(const PhysicsArgs& a);
  /// Evaluates `frame`. With physics the frame must be a multiple of 1 / samples_per_frame (whole
  /// frames, or halves at 2; invalid_argument otherwise): that sample of a run from frame 0 at
  /// that rate (ScenePhysics::evaluate_sample); progress of a catch-up as FrameEvaluator's.
  Result<void> evaluate(double frame);
  bool physics() const noexcept { return impl_ != nullptr; }

 private:
  struct Impl;
  scene::Scene* scene_;
  std::ostream* err_;
  bool quiet_;
  bool verbose_ = false;  ///< PhysicsArgs::verbose
  std::unique_ptr<Impl> impl_;
  CatchUpProgress progress_;
  std::uint32_t samples_per_frame_ = 1;
  std::size_t warnings_shown_ = 0;
};

}  // namespace mmdkit::cli
