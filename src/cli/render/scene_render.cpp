// mmdkit CLI — the one render loop (scene_render.hpp): a single model is a one-character scene.

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/render/scene_render.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

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
#include "mmdkit/render/video.hpp"
#include "mmdkit/scene/placement.hpp"
#include "mmdkit/version.hpp"

namespace mmdkit::cli {

namespace {

int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }

int fail(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << "mmdkit: error: " << e.to_string() << "\n";
  return kExitBadInput;
}

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

Vec3 unit(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return l > 0 ? Vec3{v[0] / l, v[1] / l, v[2] / l} : v;
}

// Vertices of one drawn item in world space (reused every frame).
struct WorldVertices {
  std::vector<Vec3> positions, normals;
  void place(const Mat4& m, std::span<const Vec3> p, std::span<const Vec3> n) {
    positions.resize(p.size());
    normals.resize(n.size());
    for (std::size_t v = 0; v < p.size(); ++v) positions[v] = scene::transform_point(m, p[v]);
    for (std::size_t v = 0; v < n.size(); ++v) normals[v] = unit(scene::transform_direction(m, n[v]));
  }
};

}  // namespace

int run_scene_render(const RenderArgs& a, std::ostream& err) {
  auto plan = render_plan(a, err);
  if (!plan) return plan.error();
  const RenderPlan& pl = *plan;
  auto desc = scene_description(a.scene, SceneCommandInputs{a.model, a.motions, a.camera, a.audio, "render", a.quiet, a.output}, err);
  if (!desc) return desc.error();
  const std::vector<fs::path> inputs = scene_inputs(*desc, a.scene);
  if (pl.kind != OutKind::pattern)
    if (auto r = check_output(a.output, inputs, a.force); !r) return fail(err, r.error(), a.output);
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
  // Physics: on by default when a model (or the stage) has rigid bodies (MMD simulates them unless
  // switched off), --physics / --no-physics decide otherwise. Every character in one world
  // (physics/scene_physics.hpp); the simulation advances by the output's frame step: whole frames
  // at --fps 30, half frames at --fps 60 (or when the first frame is a half), each sample one of a
  // run from frame 0 at that rate.
  bool bodies = false;
  for (std::size_t i = 0; i < s.character_count(); ++i) bodies = bodies || !s.character(i).data().model().rigid_bodies.empty();
  PhysicsArgs physics_args;
  physics_args.on = !a.no_physics && (a.physics || (MMDKIT_HAS_PHYSICS && bodies));
  physics_args.verbose = a.verbose;
  if (const std::string p = physics_usage_problem(physics_args); !p.empty()) return usage(err, p);
  physics_args.samples_per_frame = (a.fps == 60 || first != std::floor(first)) ? 2 : 1;
  if (physics_args.on && first * 2 != std::floor(first * 2))
    return usage(err, "with physics (on by default for a model with rigid bodies) frames must be whole or halves "
                      "(the simulation advances by half frames at most); --no-physics renders any fraction");
  SceneEvaluator evaluator(s, err, a.quiet);
  if (auto r = evaluator.set_physics(physics_args); !r) {
    if (!a.physics && r.error().code == ErrorCode::invalid_argument)  // on by default: say how to turn it off
      return usage(err, r.error().message + "; physics is on by default for models with rigid bodies: --no-physics renders without it");
    return fail(err, r.error(), a.scene.scene);
  }

  // GL: one renderer per character and visible accessory; the first owns the picture.
  auto ctx = render::Context::create();
  if (!ctx) return fail(err, ctx.error(), "");
  render::RenderSettings rs;
  rs.width = pl.width;
  rs.height = pl.height;
  rs.msaa = a.msaa;
  rs.background = pl.background;
  rs.edges = !a.no_edge;
  rs.ground_shadow = rs.self_shadow = !a.no_shadow;
  rs.toon_dir = a.toon_dir;
  std::vector<render::Renderer> renderers;
  std::vector<std::size_t> accessory_of;  // per renderer after the characters: the accessory index
  auto add = [&](const model::Model& m, const fs::path& file) -> int {
    std::vector<Warning> warnings;
    render::RenderSettings r = rs;
    r.framebuffer = renderers.empty();
    auto rr = render::Renderer::create(*ctx, m, folder_of(file), r, warnings);
    if (!a.quiet)
      for (const Warning& w : warnings) err << "mmdkit: warning: " << file.string() << ": " << w.message << "\n";
    if (!rr) return fail(err, rr.error(), file.string());
    renderers.push_back(std::move(*rr));
    return kExitOk;
  };
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    const bool stage = s.has_stage() && i == s.stage_index();
    if (int rc = add(s.character(i).data().model(), stage ? d.stage->file : d.models[i].file); rc != kExitOk) return rc;
  }
  for (std::size_t k = 0; k < s.accessory_count(); ++k) {
    if (!d.accessories[k].visible) continue;
    if (int rc = add(*s.accessory(k).model, d.accessories[k].file); rc != kExitOk) return rc;
    accessory_of.push_back(k);
  }
  std::vector<render::Renderer*> drawn;
  for (render::Renderer& r : renderers) drawn.push_back(&r);
  std::vector<render::ModelFrame> frames(renderers.size());
  std::vector<WorldVertices> world(renderers.size());
  // Accessories' stored vertices (drawn rigidly).
  std::vector<std::vector<Vec3>> acc_pos(accessory_of.size()), acc_nrm(accessory_of.size());
  for (std::size_t j = 0; j < accessory_of.size(); ++j) {
    const model::Model& m = *s.accessory(accessory_of[j]).model;
    for (const model::Vertex& v : m.vertices) {
      acc_pos[j].push_back(v.position);
      acc_nrm[j].push_back(v.normal);
    }
  }

  // Stop signals: the temporary output is in core/interrupt.hpp's registry (removed, then the
  // process ends by the signal); a PNG's temporary file too (write_file_atomic).
  ThreadPool pool(0);
  std::optional<TempOutput> temp;
  std::optional<render::VideoWriter> writer;
  if (pl.video) {
    temp.emplace(fs::path(a.output));
    render::VideoSettings vs;
    vs.path = temp->path();
    vs.container = pl.kind == OutKind::webm ? "webm" : "mp4";
    vs.width = pl.width;
    vs.height = pl.height;
    vs.fps = a.fps;
    vs.audio = audio;
    auto w = render::VideoWriter::open(vs);
    if (!w) return fail(err, w.error(), a.output);
    writer.emplace(std::move(*w));
  }

  Image image;
  std::string first_written, last_written;  // the files a pattern gave, for the summary
  render::SceneFrame sf;
  Progress progress(err, count, progress_mode(err, a.quiet), "mmdkit render");
  using clock = std::chrono::steady_clock;
  double t_eval = 0, t_draw = 0, t_out = 0;
  const WriteOptions wo{inputs, a.force};
  const std::size_t nc = s.character_count();
  const std::string input_name = a.scene.scene.empty() ? a.model : a.scene.scene;  // errors without a file of their own
  for (std::uint64_t i = 0; i < count; ++i) {
    const double frame = first + double(i) * step;
    const auto t0 = clock::now();
    if (auto r = evaluator.evaluate(frame); !r) return fail(err, r.error(), input_name);
    for (std::size_t c = 0; c < nc; ++c) {
      anim::Character& ch = s.character(c);
      if (auto r = ch.skin(&pool); !r) return fail(err, r.error(), input_name);
      render::ModelFrame& mf = frames[c];
      if (s.character_placement_values(c).is_identity()) {
        mf.positions = ch.positions();
        mf.normals = ch.normals();
      } else {
        world[c].place(s.character_placement(c), ch.positions(), ch.normals());
        mf.positions = world[c].positions;
        mf.normals = world[c].normals;
      }
      const anim::MorphWorkspace& morphs = ch.morphs();
      mf.materials = morphs.materials();
      const bool uv_morph = !morphs.touched_uv_vertices().empty();
      mf.uv_offsets = uv_morph ? morphs.uv_offsets() : std::span<const Vec4>{};
      mf.additional_uv_offsets = uv_morph ? morphs.additional_uv_offsets() : std::span<const Vec4>{};
    }
    for (std::size_t j = 0; j < accessory_of.size(); ++j) {
      WorldVertices& wv = world[nc + j];
      wv.place(s.accessory_transform(accessory_of[j]), acc_pos[j], acc_nrm[j]);
      frames[nc + j].positions = wv.positions;
      frames[nc + j].normals = wv.normals;
    }
    sf.camera = s.camera();
    sf.light = s.light();
    sf.self_shadow = s.self_shadow();
    const auto t1 = clock::now();
    if (auto r = render::Renderer::draw_scene(drawn, frames, sf); !r) return fail(err, r.error(), input_name);
    renderers.front().read(image);
    const auto t2 = clock::now();
    if (writer) {
      if (auto r = writer->write(image); !r) return fail(err, r.error(), a.output);
    } else {
      auto png = encode_png(image, false);
      if (!png) return fail(err, png.error(), a.output);
      const std::string name = pl.kind == OutKind::pattern ? pattern_name(pl.pattern, i) : a.output;
      if (auto r = check_output(name, inputs, a.force); !r) return fail(err, r.error(), name);
      if (auto r = write_file_atomic(name, ByteSpan(png->data(), png->size()), wo); !r) return fail(err, r.error(), name);
      if (first_written.empty()) first_written = name;
      last_written = name;
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
  // The summary line of every command (progress.hpp): what was written, then what was drawn (a
  // scene: its models and accessories), frames, size, time and where the time went.
  const double total = progress.elapsed();
  const double sum = std::max(1e-9, t_eval + t_draw + t_out);
  std::string what;
  if (!a.scene.scene.empty() || nc > 1 || !accessory_of.empty()) {
    char head[96];
    std::snprintf(head, sizeof head, "scene of %zu model%s and %zu accessor%s, ", nc, nc == 1 ? "" : "s",
                  accessory_of.size(), accessory_of.size() == 1 ? "y" : "ies");
    what = head;
  }
  char counts[400];
  std::snprintf(counts, sizeof counts,
                "%s%llu frame%s, %dx%d, %.2f s at %.1f frames/s: evaluation%s %.0f%%, drawing + read-back %.0f%%, %s "
                "%.0f%%",
                what.c_str(), static_cast<unsigned long long>(count), count == 1 ? "" : "s", pl.width, pl.height, total,
                double(count) / std::max(total, 1e-9), evaluator.physics() ? " + physics" : "", 100 * t_eval / sum,
                100 * t_draw / sum, pl.video ? "encoding" : "PNG", 100 * t_out / sum);
  // A pattern names the files written, first .. last (not the pattern itself).
  const std::string written = pl.kind != OutKind::pattern || first_written.empty() ? a.output
                              : first_written == last_written          ? first_written
                                                                       : first_written + " .. " + last_written;
  summary(err, a.quiet, "render", "wrote " + written + " (" + counts + ")");
  return kExitOk;
}

}  // namespace mmdkit::cli
