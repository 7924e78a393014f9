// mmdkit CLI — `render` (cmd_render.hpp).
#include "cli/render/cmd_render.hpp"
#include "cli/render/render_output.hpp"
#include "cli/render/scene_render.hpp"

#include "cli/physics_option.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/interrupt.hpp"
#include "mmdkit/core/thread_pool.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/renderer.hpp"
#include "mmdkit/render/video.hpp"
#include "mmdkit/version.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

void declare_render(CLI::App& sub, RenderArgs& a) {
  CLI::App* s = &sub;
  s->add_option("MODEL", a.model, "model file (.pmx or .pmd); not with --scene");
  s->add_option("MOTION", a.motions, "motions (.vmd, merged) and/or one pose (.vpd); none = bind pose");
  s->add_option("--camera", a.camera, "VMD whose camera section is used instead of the motions' camera");
  s->add_option("--frame", a.frame, "the frame of a single image (30 fps, fractional allowed; default 0)");
  s->add_option("--frames", a.frames, "A-B: frames A to B inclusive (default for video: 0 to the motion's last key)");
  s->add_option("-o,--output", a.output, "out.png, out.mp4, out.webm, or a PNG pattern such as frames/%05d.png")->required();
  s->add_option("--size", a.size, "WIDTHxHEIGHT in pixels (default 1280x720; even for video)");
  s->add_option("--fps", a.fps, "30 or 60 (60 samples every half frame, as MMD's 60 fps output)");
  s->add_option("--msaa", a.msaa, "multisample anti-aliasing samples (1 = off; default 4, clamped to the driver)");
  s->add_option("--background", a.background, "background colour RRGGBB (default ffffff, MMD's white)");
  s->add_flag("--no-edge", a.no_edge, "do not draw edges (outlines)");
  s->add_flag("--no-shadow", a.no_shadow, "do not draw the ground shadow and self-shadow");
  s->add_option("--audio", a.audio, "audio file muxed into the video (AAC in MP4, Opus in WebM; cut at the video's end)");
  s->add_option("--toon-dir", a.toon_dir, "folder with MMD's shared toon01.bmp .. toon10.bmp (default: the model's folder, then generated ramps)");
  s->add_flag("--physics", a.physics, "simulate the rigid bodies and joints from frame 0 (the default when the model has rigid bodies, as in MMD; half-frame steps at --fps 60; docs/PHYSICS.md)");
  s->add_flag("--no-physics", a.no_physics, "do not simulate rigid bodies (bodies follow their bones)");
  s->add_flag("-q,--quiet", a.quiet,
              "do not print warnings (reader warnings, tracks that match nothing, textures), progress or the summary line");
  add_force_flag(sub, a.force);
  declare_scene_options(sub, a.scene);
}

const Command kRenderCommand{
    "render", "draw a model posed by its motions as MMD does, to PNG, a PNG sequence, MP4 (H.264) or WebM (VP9)",
    [](CLI::App& sub) -> Runner {
      auto args = std::make_shared<RenderArgs>();
      declare_render(sub, *args);
      return [args](const Streams& s) { return run_render(*args, s.out, s.err); };
    }};

namespace {

int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }

int fail(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << "mmdkit: error: " << e.to_string() << "\n";
  return kExitBadInput;
}

}  // namespace

int run_render(const RenderArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  if (a.scene.requested()) return run_scene_render(a, err);
  if (a.model.empty()) return usage(err, "MODEL is required (or --scene FILE)");
  auto plan = render_plan(a, err);
  if (!plan) return plan.error();
  const OutKind kind = plan->kind;
  const std::string& pattern = plan->pattern;
  const bool video = plan->video;
  const int width = plan->width, height = plan->height;
  const std::array<float, 3> bg = plan->background;
  const double first = plan->first;
  double last = plan->last;

  // Inputs.
  std::vector<fs::path> inputs{fs::path(a.model)};
  for (const auto& m : a.motions) inputs.emplace_back(m);
  if (!a.camera.empty()) inputs.emplace_back(a.camera);
  if (!a.audio.empty()) inputs.emplace_back(a.audio);
  if (kind != OutKind::pattern)
    if (auto r = check_output(a.output, inputs, a.force); !r) return fail(err, r.error(), a.output);
  AnimationRequest req;
  req.model = a.model;
  req.motions = a.motions;
  req.geometry = true;
  req.command = "render";
  req.quiet = a.quiet;
  auto loaded = load_animation(req, err);
  if (!loaded) return loaded.error();
  anim::Character character(*loaded);
  const model::Model& mdl = character.data().model();
  // --camera: that file's camera track replaces the motions' (an empty one: MMD's default camera).
  std::vector<anim::CameraTrackKey> camera_track;
  std::uint32_t camera_cursor = 0;
  std::uint32_t last_key = character.data().last_frame();
  if (!a.camera.empty()) {
    std::vector<Warning> cw;
    auto cam = anim::read_motion_file(a.camera, {}, cw);
    if (!a.quiet)
      for (const Warning& w : cw) err << "mmdkit: warning: " << w.to_string() << "\n";
    if (!cam) return fail(err, cam.error(), a.camera);
    if (!cam->motion) return usage(err, "--camera needs a VMD motion, not a VPD pose: " + a.camera);
    camera_track = anim::build_camera_track(cam->motion->camera_keys);
    if (camera_track.empty() && !a.quiet) err << "mmdkit: warning: " << a.camera << ": no camera keys; MMD's default camera is used\n";
    for (const auto& k : camera_track) last_key = std::max(last_key, k.frame);
  }
  if (last < 0) last = (video || kind == OutKind::pattern) ? double(last_key) : 0.0;
  const double step = a.fps == 60 ? 0.5 : 1.0;
  const auto count = static_cast<std::uint64_t>(std::floor((last - first) / step + 1e-9)) + 1;
  // Physics: on by default when the model has rigid bodies (MMD simulates them unless switched
  // off), --physics / --no-physics decide otherwise. The simulation advances by the output's
  // frame step: whole frames at --fps 30, half frames at --fps 60 (or when the first frame is a
  // half), each step a run from frame 0 at that rate (CharacterPhysics::evaluate_sample).
  PhysicsArgs physics_args;
  physics_args.on = !a.no_physics && (a.physics || (MMDKIT_HAS_PHYSICS && !mdl.rigid_bodies.empty()));
  if (const std::string p = physics_usage_problem(physics_args); !p.empty()) return usage(err, p);
  physics_args.samples_per_frame = (a.fps == 60 || first != std::floor(first)) ? 2 : 1;
  if (physics_args.on && first * 2 != std::floor(first * 2))
    return usage(err, "with physics (on by default for a model with rigid bodies) frames must be whole or halves "
                      "(the simulation advances by half frames at most); --no-physics renders any fraction");
  FrameEvaluator evaluator(character, physics_args, err, a.quiet);

  // GL.
  auto ctx = render::Context::create();
  if (!ctx) return fail(err, ctx.error(), "");
  render::RenderSettings rs;
  rs.width = width;
  rs.height = height;
  rs.msaa = a.msaa;
  rs.background = bg;
  rs.edges = !a.no_edge;
  rs.ground_shadow = rs.self_shadow = !a.no_shadow;
  rs.toon_dir = a.toon_dir;
  const fs::path folder = fs::path(a.model).has_parent_path() ? fs::path(a.model).parent_path() : fs::path(".");
  std::vector<Warning> warnings;
  auto renderer = render::Renderer::create(*ctx, mdl, folder, rs, warnings);
  if (!a.quiet)
    for (const Warning& w : warnings) err << "mmdkit: warning: " << a.model << ": " << w.message << "\n";
  if (!renderer) return fail(err, renderer.error(), a.model);

  ThreadPool pool(0);
  std::optional<TempOutput> temp;
  std::optional<render::VideoWriter> writer;
  if (video) {
    temp.emplace(fs::path(a.output));
    render::VideoSettings vs;
    vs.path = temp->path();
    vs.container = kind == OutKind::webm ? "webm" : "mp4";
    vs.width = width;
    vs.height = height;
    vs.fps = a.fps;
    vs.audio = a.audio;
    auto w = render::VideoWriter::open(vs);
    if (!w) return fail(err, w.error(), a.output);
    writer.emplace(std::move(*w));
  }

  render::Image image;
  render::ModelFrame mf;
  render::SceneFrame scene;
  Progress progress(err, count, progress_mode(err, a.quiet), "mmdkit render");
  using clock = std::chrono::steady_clock;
  double t_eval = 0, t_draw = 0, t_out = 0;
  const WriteOptions wo{inputs, a.force};
  for (std::uint64_t i = 0; i < count; ++i) {
    const double frame = first + double(i) * step;
    const auto t0 = clock::now();
    if (auto r = evaluator.evaluate(frame); !r) return fail(err, r.error(), a.model);
    if (auto r = character.skin(&pool); !r) return fail(err, r.error(), a.model);
    const anim::MorphWorkspace& morphs = character.morphs();
    mf.positions = character.positions();
    mf.normals = character.normals();
    mf.materials = morphs.materials();
    const bool uv_morph = !morphs.touched_uv_vertices().empty();
    mf.uv_offsets = uv_morph ? morphs.uv_offsets() : std::span<const anim::Vec4>{};
    mf.additional_uv_offsets = uv_morph ? morphs.additional_uv_offsets() : std::span<const anim::Vec4>{};
    scene.camera = a.camera.empty() ? character.camera() : anim::sample_camera(camera_track, frame, camera_cursor);
    scene.light = character.light();
    scene.self_shadow = character.self_shadow();
    const auto t1 = clock::now();
    if (auto r = renderer->draw(mf, scene); !r) return fail(err, r.error(), a.model);
    renderer->read(image);
    const auto t2 = clock::now();
    if (writer) {
      if (auto r = writer->write(image); !r) return fail(err, r.error(), a.output);
    } else {
      auto png = render::encode_png(image, false);
      if (!png) return fail(err, png.error(), a.output);
      const std::string name = kind == OutKind::pattern ? pattern_name(pattern, i) : a.output;
      if (auto r = check_output(name, inputs, a.force); !r) return fail(err, r.error(), name);
      if (auto r = write_file_atomic(name, ByteSpan(png->data(), png->size()), wo); !r) return fail(err, r.error(), name);
    }
    const auto t3 = clock::now();
    t_eval += std::chrono::duration<double>(t1 - t0).count();
    t_draw += std::chrono::duration<double>(t2 - t1).count();
    t_out += std::chrono::duration<double>(t3 - t2).count();
    progress.update(i + 1);
  }
  progress.clear();
  if (writer) {
    const auto t0 = clock::now();
    if (auto r = writer->finish(); !r) return fail(err, r.error(), a.output);
    writer.reset();
    if (auto r = temp->commit(); !r) return fail(err, r.error(), a.output);
    t_out += std::chrono::duration<double>(clock::now() - t0).count();
  }
  const double total = progress.elapsed();
  const double sum = std::max(1e-9, t_eval + t_draw + t_out);
  char line[320];
  std::snprintf(line, sizeof line,
                "mmdkit render: %llu frame%s %dx%d in %.2f s (%.1f frames/s): evaluation%s %.0f%%, drawing + read-back "
                "%.0f%%, %s %.0f%% -> %s\n",
                static_cast<unsigned long long>(count), count == 1 ? "" : "s", width, height, total,
                double(count) / std::max(total, 1e-9), evaluator.physics() ? " + physics" : "", 100 * t_eval / sum,
                100 * t_draw / sum,
                video ? "encoding" : "PNG", 100 * t_out / sum, a.output.c_str());
  if (!a.quiet) err << line;
  return kExitOk;
}

}  // namespace mmdkit::cli
