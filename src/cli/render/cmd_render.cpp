// mmdkit CLI — `render` (cmd_render.hpp).
#include "cli/render/cmd_render.hpp"
#include "cli/render/render_farm.hpp"
#include "cli/render/scene_render.hpp"
#include "cli/physics_option.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <memory>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/project_input.hpp"


namespace mmdkit::cli {

void declare_render(CLI::App& sub, RenderArgs& a) {
  CLI::App* s = &sub;
  s->add_option("MODEL", a.model, "model file (.pmx or .pmd), or an MMD project (.pmm: its scene, size and play range); not with --scene");
  s->add_option("MOTION", a.motions, "motions (.vmd, merged) and/or one pose (.vpd); none = bind pose");
  s->add_option("--camera", a.camera, "VMD whose camera section is used instead of the motions' camera");
  s->add_option("--frame", a.frame, "the frame of a single image (30 fps, fractional allowed; default 0)");
  s->add_option("--frames", a.frames, "A-B: frames A to B inclusive (default for video: 0 to the motion's last key)");
  s->add_option("-o,--output", a.output, "out.png, out.mp4, out.webm, or a PNG pattern such as frames/%05d.png")->required();
  s->add_option("--size", a.size, "WIDTHxHEIGHT in pixels (default 1280x720, or the scene's / project's output size; even for video)");
  s->add_option("--fps", a.fps, "30 or 60 (60 samples every half frame, as MMD's 60 fps output; default 30, or the scene's / project's)");
  s->add_option("--aa", a.aa, "anti-aliasing: fxaa (default: a post-process edge filter), msaa (multisampling, --msaa samples, default 4) or none");
  s->add_option("--msaa", a.msaa, "multisample anti-aliasing samples, clamped to the driver (alone: MSAA with N samples, 1 = no anti-aliasing)");
  s->add_option("--shadow-map", a.shadow_map, "self-shadow map of N x N pixels over MMD's whole shadow box (default: a map fitted to the models, sized from the output)");
  s->add_option("--background", a.background, "background colour RRGGBB (default ffffff, MMD's white, or the scene's / project's)");
  s->add_option("--background-image", a.background_image, "picture (PNG, BMP, JPEG, TGA, GIF) stretched over the whole output behind everything (MMD's background image; default: the scene's / project's)");
  s->add_flag("--no-edge", a.no_edge, "do not draw edges (outlines)");
  s->add_flag("--no-shadow", a.no_shadow, "do not draw the ground shadow and self-shadow");
  s->add_option("--audio", a.audio, "audio file muxed into the video (AAC in MP4, Opus in WebM; cut at the video's end)");
  s->add_option("--toon-dir", a.toon_dir, "folder with MMD's shared toon01.bmp .. toon10.bmp (default: the model's folder, then generated ramps)");
  s->add_flag("--physics", a.physics, "simulate the rigid bodies and joints from frame 0 (the default when the model has rigid bodies, as in MMD; half-frame steps at --fps 60; docs/PHYSICS.md)");
  s->add_flag("--no-physics", a.no_physics, "do not simulate rigid bodies (bodies follow their bones)");
  s->add_flag("-q,--quiet", a.quiet,
              "do not print warnings (reader warnings, tracks that match nothing, textures), progress or the summary line");
  declare_verbose_flag(*s, a.verbose);
  add_force_flag(sub, a.force);
  declare_scene_options(sub, a.scene);
  s->add_flag("--strict", a.strict, "with a .pmm: a file it names that is not found is an error (default: a warning)");
  s->add_option("--workers", a.workers, "render farm: draw frame ranges on a local Dask cluster of N worker processes (physics baked once first; docs/RENDER.md)");
  s->add_option("--scheduler", a.scheduler, "render farm: draw on the workers of a running Dask scheduler, e.g. tcp://host:8786 (inputs and output on a shared filesystem)");
}

const Command kRenderCommand{
    "render", "draw a model posed by its motions as MMD does, to PNG, a PNG sequence, MP4 (H.264) or WebM (VP9)",
    [](CLI::App& sub) -> Runner {
      auto args = std::make_shared<RenderArgs>();
      declare_render(sub, *args);
      return [args](const Streams& s) { return farm_requested(*args) ? run_render_farm(*args, s) : run_render(*args, s.out, s.err); };
    }};

namespace {

// `render project.pmm`: the project extracted to a temporary folder (always removed), rendered as
// `render --scene` renders it, with the project's output size and play range unless given.
int run_project_render(const RenderArgs& a, std::ostream& err) {
  if (!a.motions.empty() || a.scene.requested() || !a.camera.empty() || !a.audio.empty())
    return usage_error(err, "render", "a project (.pmm) is a whole scene: no MOTION, --scene, --stage, --accessory, --camera or --audio with it");
  auto lp = load_project(a.model, a.scene.search_dirs, a.strict, a.quiet, err);
  if (!lp) return lp.error();
  if (int rc = require_project_model(*lp, err); rc != kExitOk) return rc;
  auto tmp = temporary_folder(err);  // removed when the command ends
  if (!tmp) return tmp.error();
  RenderArgs b = a;
  const scene::Project& p = lp->project;
  const std::string ext = lower_extension(a.output);
  const bool movie = ext == ".mp4" || ext == ".webm";
  const bool video = movie || a.output.find('%') != std::string::npos;  // several frames
  if (!movie) lp->project.scene.audio.clear();  // pictures have no sound
  auto files = extract_project(*lp, *tmp, {std::filesystem::path(a.model)}, false, err);
  if (!files) return files.error();
  b.model.clear();
  b.scene.scene = files->scene.string();
  b.scene.search_dirs.clear();
  if (b.size.empty() && p.width > 0 && p.height > 0) b.size = std::to_string(p.width) + "x" + std::to_string(p.height);
  if (b.frame < 0 && b.frames.empty()) {
    if (video && p.last_frame)
      b.frames = std::to_string(p.first_frame) + "-" + std::to_string(*p.last_frame);
    else if (!video)
      b.frame = p.first_frame;
  }
  return run_scene_render(b, err);
}

}  // namespace

int run_render(const RenderArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  if (!a.scene.scene.empty() || !is_project_file(a.model)) {
    if (a.strict) return usage_error(err, "render", "--strict is for a project (.pmm) given as MODEL");
    const RenderArgs& b = a;
    // One loop for one model and for a scene: MODEL [MOTION...] alone is a one-character scene
    // (scene_render.hpp), so both draw, evaluate and write frames the same way.
    return run_scene_render(b, err);
  }
  return run_project_render(a, err);
}

}  // namespace mmdkit::cli
