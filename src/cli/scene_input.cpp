// mmdkit CLI — scenes for sample, pose and render (scene_input.hpp).

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/scene_input.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/progress.hpp"
#include "cli/project_input.hpp"
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS
#include "mmdkit/physics/scene_physics.hpp"
#include "core/try.hpp"
#endif

namespace mmdkit::cli {

namespace fs = std::filesystem;

Error short_form_error(Error e) {
  // The short form's fields by option.
  const std::string& msg = e.message;
  const std::string field = msg.substr(0, msg.find(':'));
  const std::string name = field == "models[0].file" ? "MODEL"
                           : field.rfind("models[0].motions[", 0) == 0 ? "MOTION"
                           : field == "models[0]" ? "MODEL"
                           : field == "stage.file" || field == "stage" ? "--stage"
                           : field.rfind("accessories[", 0) == 0 ? "--accessory"
                           : field == "camera" ? "--camera" : field == "audio" ? "--audio" : field;
  // An error inside a file the field names (a section of it: a parse error, "FILE: section
  // 'header', byte 71: truncated: ...") needs no field: the words of `sample` / `info` for that
  // file. Other errors (a missing file, a bone the model lacks) say which argument they are about.
  const bool inside_file = !e.file.empty() && !e.section.empty() && e.section != "scene" && field != msg;
  e.message = inside_file ? msg.substr(std::min(msg.size(), field.size() + 2)) : name + msg.substr(field.size());
  // No scene file was read: the section 'scene' of the description's checks, and the path
  // repeated after the file's name, say nothing ("FILE: io_error: MODEL: file not found").
  if (e.section == "scene") e.section.clear();
  if (const std::string tail = " ('" + e.file + "')"; !e.file.empty() && e.message.ends_with(tail))
    e.message.resize(e.message.size() - tail.size());
  return e;
}

void declare_scene_options(CLI::App& sub, SceneArgs& a) {
  sub.add_option("--scene", a.scene, "scene file (JSON, docs/SCENE.md): models, motions, stage, accessories, camera, light, audio; or an MMD project (.pmm, docs/PMM.md)");
  sub.add_option("--search-dir", a.search_dirs,
                 "with a project (.pmm): folder to look for its models, accessories and audio in (repeatable; after the project's folder)");
  sub.add_option("--stage", a.stage,
                 "stage drawn with the model (a scene in short form): a PMX / PMD model (at rest, its rigid bodies in the "
                 "physics) or a DirectX .x (an accessory in the world, as MMD loads it)");
  sub.add_option("--accessory", a.accessories,
                 "FILE[@BONE]: an accessory (.x, PMX or PMD) attached to BONE of the model, or at the world origin; "
                 "FILE.vac[@BONE]: the .vac's .x, placement and bone (@BONE replaces its bone); repeatable");
}

std::expected<scene::SceneDescription, int> scene_description(const SceneArgs& a, const SceneCommandInputs& in,
                                                              std::ostream& err) {
  auto usage = [&](const std::string& msg) { return std::unexpected(usage_error(err, in.command, msg)); };
  if (!a.scene.empty()) {
    if (!in.model.empty() || !in.motions.empty())
      return usage("--scene gives the models and motions: no MODEL or MOTION arguments with it");
    if (!a.stage.empty() || !a.accessories.empty())
      return usage("--scene gives the stage and accessories: no --stage or --accessory with it");
    if (!in.camera.empty() || !in.audio.empty())
      return usage("--scene gives the camera and audio: no --camera or --audio with it");
    if (is_std_stream(a.scene)) return usage("--scene reads a file, not the standard input");
    fs::path scene_file = a.scene;
    if (is_project_file(a.scene)) {
      // An MMD project: extracted to a temporary folder (removed when the command ends).
      MMDKIT_TRY_ASSIGN(auto lp, load_project(a.scene, a.search_dirs, false, in.quiet, err));
      if (int rc = require_project_model(lp, err); rc != kExitOk) return std::unexpected(rc);
      MMDKIT_TRY_ASSIGN(auto tmp, temporary_folder(err));
      const std::string ext = lower_extension(in.output);
      if (ext != ".mp4" && ext != ".webm") lp.project.scene.audio.clear();  // only a video has sound
      MMDKIT_TRY_ASSIGN(auto files, extract_project(lp, tmp, {fs::path(a.scene)}, false, err));
      scene_file = files.scene;
    } else if (!a.search_dirs.empty()) {
      return usage("--search-dir is for a project (.pmm) given as --scene");
    }
    auto d = scene::read_scene_file(scene_file);
    if (!d) {
      Error e = d.error();
      if (e.file.empty()) e.file = a.scene;
      err << "mmdkit: error: " << e.to_string() << "\n";
      return std::unexpected(kExitBadInput);
    }
    return std::move(*d);
  }
  if (!a.search_dirs.empty() && !(in.command == std::string_view("render") && is_project_file(in.model)))
    return usage("--search-dir is for a project (.pmm) given as --scene" +
                 std::string(in.command == std::string_view("render") ? " or MODEL" : ""));
  if (in.model.empty()) return usage("a MODEL (or --scene FILE) is required");
  scene::SceneDescription d;
  scene::ModelEntry m;
  m.file = in.model;
  for (const std::string& p : in.motions) m.motions.emplace_back(p);
  d.models.push_back(std::move(m));
  if (!a.stage.empty()) d.stage = scene::StageEntry{a.stage, {}};
  for (const std::string& spec : a.accessories) {
    scene::AccessoryEntry acc;
    const std::size_t at = spec.rfind('@');
    if (at == 0 || at + 1 == spec.size()) return usage("--accessory '" + spec + "': use FILE or FILE@BONE");
    acc.file = spec.substr(0, at);
    if (at != std::string::npos) {
      acc.model = 0;
      acc.bone = spec.substr(at + 1);
    }
    d.accessories.push_back(std::move(acc));
  }
  d.camera = in.camera;
  d.audio = in.audio;
  for (const std::string& p : {in.model, a.stage, in.camera})
    if (is_std_stream(p)) return usage(std::string(in.command) + " reads files only, not the standard input ('-')");
  if (auto r = scene::check_scene_files(d); !r) {
    err << "mmdkit: error: " << short_form_error(r.error()).to_string() << "\n";
    return std::unexpected(kExitBadInput);
  }
  return d;
}

std::expected<scene::Scene, int> load_scene(const scene::SceneDescription& d, bool geometry, bool quiet,
                                            std::ostream& err, bool short_form) {
  std::vector<Warning> warnings;
  scene::LoadOptions o;
  o.geometry = geometry;
  auto s = scene::Scene::load(d, o, warnings);
  if (!quiet)
    for (const Warning& w : warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
  if (!s) {
    // The short form's own usage problems (a second VPD pose among the MOTIONs): exit 2.
    const bool usage = short_form && s.error().code == ErrorCode::invalid_argument;
    err << "mmdkit: error: " << (short_form ? short_form_error(s.error()) : s.error()).to_string() << "\n";
    return std::unexpected(usage ? kExitUsage : kExitBadInput);
  }
  if (!quiet)
    for (std::size_t i = 0; i < d.models.size(); ++i) {
      std::vector<std::string> inputs;
      for (const fs::path& p : d.models[i].motions) inputs.push_back(p.string());
      err << model_check_warning(s->character(i).data().model(), d.models[i].file.string());
      err << binding_warning(s->character(i).data().report(), inputs);
    }
  return std::move(*s);
}

std::vector<fs::path> scene_inputs(const scene::SceneDescription& d, const SceneArgs& a) {
  std::vector<fs::path> out;
  if (!a.scene.empty()) out.emplace_back(a.scene);
  // With the .x files that .vac accessories name (read again here: a .vac is a few lines).
  scene::SceneDescription resolved = d;
  if (!scene::resolve_accessory_files(resolved)) resolved = d;  // the load reports the problem
  for (const scene::SceneFile& f : scene::scene_files(resolved)) out.push_back(f.path);
  return out;
}

#if MMDKIT_HAS_PHYSICS
struct SceneEvaluator::Impl {
  std::unique_ptr<physics::ScenePhysics> physics;
};
#else
struct SceneEvaluator::Impl {};
#endif

SceneEvaluator::SceneEvaluator(scene::Scene& scene, std::ostream& err, bool quiet)
    : scene_(&scene), err_(&err), quiet_(quiet), progress_(err, quiet) {}
SceneEvaluator::~SceneEvaluator() = default;

Result<void> SceneEvaluator::set_physics(const PhysicsArgs& a) {
  verbose_ = a.verbose;
  if (!a.on) return {};
#if MMDKIT_HAS_PHYSICS
  physics::Settings settings;
  settings.steps_per_second = a.fps;
  MMDKIT_TRY_ASSIGN(auto p, physics::ScenePhysics::create(*scene_, settings));
  impl_ = std::make_unique<Impl>();
  impl_->physics = std::move(p);
  samples_per_frame_ = std::max<std::uint32_t>(1, a.samples_per_frame);
  return {};
#else
  return make_error(ErrorCode::invalid_argument, "this mmdkit was built without the physics layer");
#endif
}

Result<void> SceneEvaluator::evaluate(double frame) {
#if MMDKIT_HAS_PHYSICS
  if (impl_) {
    const double sample = frame * static_cast<double>(samples_per_frame_);
    if (!std::isfinite(frame) || frame < 0 || sample != std::floor(sample) || frame > 4294967295.0)
      return make_error(ErrorCode::invalid_argument,
                        samples_per_frame_ == 1 ? std::string("with --physics frames must be whole frames (30 fps)")
                                                : "with --physics frames must be multiples of 1/" +
                                                      std::to_string(samples_per_frame_) + " frame");
    physics::ScenePhysics& ph = *impl_->physics;
    const auto f = static_cast<std::uint32_t>(frame);
    const std::uint64_t total = std::uint64_t{f} + 1;
    const std::int64_t before = ph.last_frame() < f ? ph.last_frame() + 1 : 0;
    const std::uint32_t every = progress_.begin(before, total);
    const auto report = [this](std::uint32_t done, std::uint32_t todo) { progress_.report(done, todo); };
    auto r = ph.evaluate_sample(static_cast<std::uint64_t>(sample), samples_per_frame_, report, every);
    const auto warnings = ph.warnings();
    progress_.end(f, total, warnings.size() - warnings_shown_);
    // Each names its model's file (physics_warning_line): Warning::model counts the characters
    // with rigid bodies, in order.
    std::vector<std::string> files;
    const scene::SceneDescription& d = scene_->description();
    for (std::size_t i = 0; i < scene_->character_count(); ++i)
      if (ph.character_physics(i))
        files.push_back(scene_->has_stage() && i == scene_->stage_index() ? d.stage->file.string() : d.models[i].file.string());
    std::vector<PhysicsNote> notes;
    for (; warnings_shown_ < warnings.size(); ++warnings_shown_) {
      const physics::Warning& w = warnings[warnings_shown_];
      notes.push_back({w.model < files.size() ? files[w.model] : scene_->character_field(w.model), w.section, w.record,
                       w.name, w.message});
    }
    if (!quiet_) *err_ << physics_warning_lines(notes, verbose_);
    return r;
  }
#endif
  return scene_->evaluate(frame);
}

}  // namespace mmdkit::cli
