// mmdkit CLI — scenes for `sample`, `pose` and `render` (docs/SCENE.md): `--scene scene.json`, or
// the short form `MODEL [MOTION...] --stage STAGE --accessory FILE[@BONE] ...` (one dancer; an
// accessory with @BONE is attached to that bone of the dancer, without it placed at the world
// origin). Loads through the scene layer (scene/scene.hpp), prints warnings, maps errors to exit
// codes, and evaluates frames with or without physics (physics/scene_physics.hpp: all models in
// one world).
#pragma once

#include <CLI/CLI.hpp>

#include <expected>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/physics_option.hpp"
#include "mmdkit/scene/scene.hpp"

namespace mmdkit::cli {

struct SceneArgs {
  std::string scene;                     ///< --scene FILE
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
};

/// The scene to load: the --scene file (then MODEL, MOTION, --stage, --accessory, --camera and
/// --audio are usage errors: the file says them), or the short form. Errors are printed; the exit
/// code is returned (1 bad scene file, 2 usage).
std::expected<scene::SceneDescription, int> scene_description(const SceneArgs& a, const SceneCommandInputs& in,
                                                              std::ostream& err);

/// Loads the scene (geometry for pose / render), printing readers' warnings and tracks that match
/// nothing unless `quiet`. Errors are printed; the exit code is returned (1).
std::expected<scene::Scene, int> load_scene(const scene::SceneDescription& d, bool geometry, bool quiet,
                                            std::ostream& err);

/// Every input file of the scene (the --force rule protects them) and the scene file itself.
std::vector<std::filesystem::path> scene_inputs(const scene::SceneDescription& d, const SceneArgs& a);

/// Evaluates frames of a scene, with physics (all models in one world) when asked.
class SceneEvaluator {
 public:
  SceneEvaluator(scene::Scene& scene, std::ostream& err, bool quiet);
  ~SceneEvaluator();
  SceneEvaluator(const SceneEvaluator&) = delete;
  SceneEvaluator& operator=(const SceneEvaluator&) = delete;
  /// Switches physics on (a.on); errors (printed by the caller): ScenePhysics::create's.
  Result<void> set_physics(const PhysicsArgs& a);
  /// Evaluates `frame` (whole frames with physics: the frame of a run from frame 0).
  Result<void> evaluate(double frame);

 private:
  struct Impl;
  scene::Scene* scene_;
  std::ostream* err_;
  bool quiet_;
  std::unique_ptr<Impl> impl_;
  std::size_t warnings_shown_ = 0;
};

}  // namespace mmdkit::cli
