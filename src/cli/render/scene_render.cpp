// mmdkit CLI — the one render loop (scene_render.hpp): a single model is a one-character scene.

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/render/scene_render.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "cli/render/render_output.hpp"
#include "cli/scene_input.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/thread_pool.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/renderer.hpp"
#include "mmdkit/render/scene_renderer.hpp"
#include "mmdkit/render/video.hpp"
#include "mmdkit/scene/placement.hpp"
#include "mmdkit/version.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace {

int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }

// Physics: on by default when a model (or the stage) has rigid bodies (MMD simulates them unless
// switched off) and the scene's physics_mode is not "off", --physics / --no-physics decide otherwise. Every character in one world
// (physics/scene_physics.hpp); the simulation advances by the output's frame step: whole frames
// at --fps 30, half frames at --fps 60 (or when the first frame is a half), each sample one of a
// run from frame 0 at that rate. Returns kExitOk or the exit code (the problem printed).
int setup_physics(const RenderArgs& a, scene::Scene& s, double first, SceneEvaluator& evaluator, std::ostream& err) {
  bool bodies = false;
  for (std::size_t i = 0; i < s.character_count(); ++i) bodies = bodies || !s.character(i).data().model().rigid_bodies.empty();
  if (s.description().physics_mode == scene::PhysicsMode::off) bodies = false;  // the scene says off: only --physics
  PhysicsArgs physics_args;
  physics_args.on = !a.no_physics && (a.physics || (MMDKIT_HAS_PHYSICS && bodies));
  physics_args.verbose = a.verbose;
  if (const std::string p = physics_usage_problem(physics_args); !p.empty()) return usage(err, p);
  physics_args.samples_per_frame = (a.fps == 60 || first != std::floor(first)) ? 2 : 1;
  if (physics_args.on && first * 2 != std::floor(first * 2))
    return usage(err, "with physics (on by default for a model with rigid bodies) frames must be whole or halves "
                      "(the simulation advances by half frames at most); --no-physics renders any fraction");
  if (auto r = evaluator.set_physics(physics_args); !r) {
    if (!a.physics && r.error().code == ErrorCode::invalid_argument)  // on by default: say how to turn it off
      return usage(err, r.error().message + "; physics is on by default for models with rigid bodies: --no-physics renders without it");
    return report_error(err, r.error(), a.scene.scene);
  }
  return kExitOk;
}

// The video writer of a video output (into `temp`), or none for PNGs.
Result<std::optional<render::VideoWriter>> open_video(const RenderArgs& a, const RenderPlan& pl, const std::string& audio,
                                                      std::optional<TempOutput>& temp) {
  if (!pl.video) return std::optional<render::VideoWriter>{};
  temp.emplace(fs::path(a.output));
  render::VideoSettings vs;
  vs.path = temp->path();
  vs.container = pl.kind == OutKind::webm ? "webm" : "mp4";
  vs.width = pl.width;
  vs.height = pl.height;
  vs.fps = a.fps;
  vs.audio = audio;
  MMDKIT_TRY_ASSIGN(auto w, render::VideoWriter::open(vs));
  return std::optional<render::VideoWriter>(std::move(w));
}

// Where the time of the run went (the summary line).
struct RenderTimes {
  double eval = 0, draw = 0, out = 0;
};

// The summary line of every command (progress.hpp): what was written, then what was drawn (a
// scene: its models and accessories), frames, size, time and where the time went.
void render_summary(const RenderArgs& a, const RenderPlan& pl, std::size_t nc, std::size_t accessories,
                    std::uint64_t count, double total, const RenderTimes& t, bool physics, const std::string& first_written,
                    const std::string& last_written, std::ostream& err) {
  const double sum = std::max(1e-9, t.eval + t.draw + t.out);
  std::string what;
  if (!a.scene.scene.empty() || nc > 1 || accessories != 0) {
    char head[96];
    std::snprintf(head, sizeof head, "scene of %zu model%s and %zu accessor%s, ", nc, nc == 1 ? "" : "s", accessories,
                  accessories == 1 ? "y" : "ies");
    what = head;
  }
  char counts[400];
  std::snprintf(counts, sizeof counts,
                "%s%llu frame%s, %dx%d, %.2f s at %.1f frames/s: evaluation%s %.0f%%, drawing + read-back %.0f%%, %s "
                "%.0f%%",
                what.c_str(), static_cast<unsigned long long>(count), count == 1 ? "" : "s", pl.width, pl.height, total,
                double(count) / std::max(total, 1e-9), physics ? " + physics" : "", 100 * t.eval / sum,
                100 * t.draw / sum, pl.video ? "encoding" : "PNG", 100 * t.out / sum);
  // A pattern names the files written, first .. last (not the pattern itself).
  const std::string written = pl.kind != OutKind::pattern || first_written.empty() ? a.output
                              : first_written == last_written          ? first_written
                                                                       : first_written + " .. " + last_written;
  summary(err, a.quiet, "render", "wrote " + written + " (" + counts + ")");
}

}  // namespace

RenderArgs with_view_defaults(const RenderArgs& given, const scene::ViewSettings& view) {
  RenderArgs a = given;
  if (a.size.empty())
    a.size = view.size ? std::to_string((*view.size)[0]) + "x" + std::to_string((*view.size)[1]) : "1280x720";
  if (a.fps == 0) a.fps = view.fps.value_or(30);
  if (a.background.empty()) a.background = "ffffff";  // view.background: taken as floats by the caller
  return a;
}

int run_scene_render(const RenderArgs& given, std::ostream& err) {
  // Usage problems of the options first (the built-in defaults in place of the scene's).
  if (auto p = render_plan(with_view_defaults(given, {}), err); !p) return p.error();
  auto desc = scene_description(given.scene, SceneCommandInputs{given.model, given.motions, given.camera, given.audio, "render", given.quiet, given.output}, err);
  if (!desc) return desc.error();
  if (!given.background_image.empty()) {  // the option wins over the scene's background image
    std::error_code ec;
    if (!fs::is_regular_file(given.background_image, ec))
      return report_error(err, make_error(ErrorCode::io_error, "--background-image: file not found or not a file").error(),
                          given.background_image);
    desc->view.background_image = scene::BackgroundPicture{given.background_image};
  }
  // The scene's view settings where the options say nothing (docs/SCENE.md "View").
  const RenderArgs a = with_view_defaults(given, desc->view);
  auto plan = render_plan(a, err);
  if (!plan) return plan.error();
  if (given.background.empty() && desc->view.background) plan->background = *desc->view.background;
  const RenderPlan& pl = *plan;
  const std::vector<fs::path> inputs = scene_inputs(*desc, a.scene);
  if (pl.kind != OutKind::pattern)
    if (auto r = check_output(a.output, inputs, a.force); !r) return report_error(err, r.error(), a.output);
  const std::string audio = desc->audio.string();
  if (!audio.empty() && !pl.video) return usage(err, "the scene's audio needs a video output (.mp4 or .webm)");
  auto sc = load_scene(*desc, true, a.quiet, err, a.scene.scene.empty());
  if (!sc) return sc.error();
  scene::Scene& s = *sc;
  const scene::SceneDescription& d = s.description();

  const double first = pl.first;
  double last = pl.last;
  if (last < 0) last = (pl.video || pl.kind == OutKind::pattern) ? double(s.last_frame()) : 0.0;
  else if (!a.quiet)  // --frame / --frames past the inputs' last key (cli/messages.hpp)
    err << past_last_key_note(a.frames.empty() ? "--frame" : "--frames", last, s.last_frame());
  const double step = a.fps == 60 ? 0.5 : 1.0;
  const auto count = static_cast<std::uint64_t>(std::floor((last - first) / step + 1e-9)) + 1;
  if (!a.quiet && !d.camera.empty() && s.camera_source() == scene::CameraSource::mmd_default)
    err << "mmdkit: warning: " << d.camera.string() << ": no camera keys; MMD's default camera is used\n";
  // A motion keying nothing of the model (a camera-only VMD given as MOTION): `render` draws
  // what it is asked (the camera's view of the rest pose) but says so, as `sample` does.
  if (!a.quiet && a.scene.scene.empty() && !a.motions.empty() && s.character_count() > 0) {
    const anim::BindingReport& rep = s.character(0).data().report();
    if (rep.keyed_bones == 0 && rep.keyed_morphs == 0)
      err << "mmdkit: warning: " << motions_keying_nothing(a.motions, a.model) << ": it is drawn in its rest pose"
          << (s.camera_source() == scene::CameraSource::model_motion ? " (the motion's camera is used)" : "") << "\n";
  }
  SceneEvaluator evaluator(s, err, a.quiet);
  if (int rc = setup_physics(a, s, first, evaluator, err); rc != kExitOk) return rc;

  // GL: one renderer per character and visible accessory, the first owning the picture
  // (render/scene_renderer.hpp, shared with the Python module's mmdkit.Renderer).
  auto ctx = render::Context::create();
  if (!ctx) return report_error(err, ctx.error(), "");
  render::RenderSettings rs;
  rs.width = pl.width;
  rs.height = pl.height;
  if (auto r = render::choose_quality(rs, a.aa, std::max(a.msaa, 0), std::max(a.shadow_map, 0)); !r)
    return usage(err, r.error().message);  // checked by render_plan already
  rs.background = pl.background;
  rs.edges = !a.no_edge;
  rs.ground_shadow = rs.self_shadow = !a.no_shadow;
  rs.ground_shadow = rs.ground_shadow && d.view.ground_shadow;
  rs.translucent_ground_shadow = d.view.ground_shadow_translucent;
  rs.toon_dir = a.toon_dir;
  std::vector<Warning> render_warnings;
  auto session = render::SceneRenderer::create(*ctx, s, rs, render_warnings);
  if (!a.quiet)
    for (const Warning& w : render_warnings) err << "mmdkit: warning: " << w.file << ": " << w.message << "\n";
  if (!session) return report_error(err, session.error(), "");
  const std::size_t accessories_drawn = session->item_count() - s.character_count();

  // Stop signals: the temporary output is in core/interrupt.hpp's registry (removed, then the
  // process ends by the signal); a PNG's temporary file too (write_file_atomic).
  ThreadPool pool(0);
  std::optional<TempOutput> temp;
  auto opened = open_video(a, pl, audio, temp);
  if (!opened) return report_error(err, opened.error(), a.output);
  std::optional<render::VideoWriter> writer = std::move(*opened);

  Image image;
  std::string first_written, last_written;  // the files a pattern gave, for the summary
  Progress progress(err, count, progress_mode(err, a.quiet), "mmdkit render");
  using clock = std::chrono::steady_clock;
  RenderTimes times;
  const WriteOptions wo{inputs, a.force};
  const std::string input_name = a.scene.scene.empty() ? a.model : a.scene.scene;  // errors without a file of their own
  for (std::uint64_t i = 0; i < count; ++i) {
    const double frame = first + double(i) * step;
    const auto t0 = clock::now();
    if (auto r = evaluator.evaluate(frame); !r) return report_error(err, r.error(), input_name);
    if (auto r = session->prepare(s, &pool); !r) return report_error(err, r.error(), input_name);  // skinning
    const auto t1 = clock::now();
    if (auto r = session->draw_prepared(); !r) return report_error(err, r.error(), input_name);
    session->read(image);
    const auto t2 = clock::now();
    if (writer) {
      if (auto r = writer->write(image); !r) return report_error(err, r.error(), a.output);
    } else {
      auto png = encode_png(image, false);
      if (!png) return report_error(err, png.error(), a.output);
      const std::string name = pl.kind == OutKind::pattern ? pattern_name(pl.pattern, i) : a.output;
      if (auto r = check_output(name, inputs, a.force); !r) return report_error(err, r.error(), name);
      if (auto r = write_file_atomic(name, ByteSpan(png->data(), png->size()), wo); !r) return report_error(err, r.error(), name);
      if (first_written.empty()) first_written = name;
      last_written = name;
    }
    const auto t3 = clock::now();
    times.eval += std::chrono::duration<double>(t1 - t0).count();
    times.draw += std::chrono::duration<double>(t2 - t1).count();
    times.out += std::chrono::duration<double>(t3 - t2).count();
    progress.update(i + 1);
  }
  progress.clear();
  if (writer) {
    const auto t0 = clock::now();
    if (auto r = writer->finish(); !r) return report_error(err, r.error(), a.output);
    writer.reset();
    if (auto r = temp->commit(); !r) return report_error(err, r.error(), a.output);
    times.out += std::chrono::duration<double>(clock::now() - t0).count();
  }
  render_summary(a, pl, s.character_count(), accessories_drawn, count, progress.elapsed(), times,
                 evaluator.physics(), first_written, last_written, err);
  return kExitOk;
}

}  // namespace mmdkit::cli
