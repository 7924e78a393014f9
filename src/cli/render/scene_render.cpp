// mmdkit CLI — `render` of a scene (scene_render.hpp).

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/render/scene_render.hpp"

#include <chrono>
#include <cmath>
#include <iostream>

#include "cli/app.hpp"
#include "cli/io.hpp"
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

namespace mmdkit::cli {

namespace {

int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }

int fail(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << "mmdkit: error: " << e.to_string() << "\n";
  return kExitBadInput;
}

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

anim::Vec3 unit(anim::Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return l > 0 ? anim::Vec3{v[0] / l, v[1] / l, v[2] / l} : v;
}

// Vertices of one drawn item in world space (reused every frame).
struct WorldVertices {
  std::vector<anim::Vec3> positions, normals;
  void place(const Mat4& m, std::span<const anim::Vec3> p, std::span<const anim::Vec3> n) {
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
  auto desc = scene_description(a.scene, SceneCommandInputs{a.model, a.motions, a.camera, a.audio, "render"}, err);
  if (!desc) return desc.error();
  const std::vector<fs::path> inputs = scene_inputs(*desc, a.scene);
  if (pl.kind != OutKind::pattern)
    if (auto r = check_output(a.output, inputs, a.force); !r) return fail(err, r.error(), a.output);
  const std::string audio = desc->audio.string();
  if (!audio.empty() && !pl.video) return usage(err, "the scene's audio needs a video output (.mp4 or .webm)");
  auto sc = load_scene(*desc, true, a.quiet, err);
  if (!sc) return sc.error();
  scene::Scene& s = *sc;
  const scene::SceneDescription& d = s.description();

  const double first = pl.first;
  double last = pl.last;
  if (last < 0) last = (pl.video || pl.kind == OutKind::pattern) ? double(s.last_frame()) : 0.0;
  const double step = a.fps == 60 ? 0.5 : 1.0;
  const auto count = static_cast<std::uint64_t>(std::floor((last - first) / step + 1e-9)) + 1;
  PhysicsArgs physics_args;
  physics_args.on = a.physics && !a.no_physics;
  if (const std::string p = physics_usage_problem(physics_args); !p.empty()) return usage(err, p);
  if (physics_args.on && (a.fps != 30 || first != std::floor(first)))
    return usage(err, "--physics renders whole frames at --fps 30 (the simulation steps whole 30 fps frames)");
  SceneEvaluator evaluator(s, err, a.quiet);
  if (auto r = evaluator.set_physics(physics_args); !r) return fail(err, r.error(), a.scene.scene);

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
  std::vector<std::vector<anim::Vec3>> acc_pos(accessory_of.size()), acc_nrm(accessory_of.size());
  for (std::size_t j = 0; j < accessory_of.size(); ++j) {
    const model::Model& m = *s.accessory(accessory_of[j]).model;
    for (const model::Vertex& v : m.vertices) {
      acc_pos[j].push_back(v.position);
      acc_nrm[j].push_back(v.normal);
    }
  }

  // Stop signals: the temporary output is in core/interrupt.hpp's registry (removed, then the
  // process ends by the signal), as for a single model.
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

  render::Image image;
  render::SceneFrame sf;
  Progress progress(err, count, progress_mode(err, a.quiet), "mmdkit render");
  const WriteOptions wo{inputs, a.force};
  const std::size_t nc = s.character_count();
  for (std::uint64_t i = 0; i < count; ++i) {
    if (g_stop) break;
    const double frame = first + double(i) * step;
    if (auto r = evaluator.evaluate(frame); !r) return fail(err, r.error(), a.scene.scene);
    for (std::size_t c = 0; c < nc; ++c) {
      anim::Character& ch = s.character(c);
      if (auto r = ch.skin(&pool); !r) return fail(err, r.error(), "");
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
      mf.uv_offsets = uv_morph ? morphs.uv_offsets() : std::span<const anim::Vec4>{};
      mf.additional_uv_offsets = uv_morph ? morphs.additional_uv_offsets() : std::span<const anim::Vec4>{};
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
    if (auto r = render::Renderer::draw_scene(drawn, frames, sf); !r) return fail(err, r.error(), "");
    renderers.front().read(image);
    if (writer) {
      if (auto r = writer->write(image); !r) return fail(err, r.error(), a.output);
    } else {
      auto png = render::encode_png(image, false);
      if (!png) return fail(err, png.error(), a.output);
      const std::string name = pl.kind == OutKind::pattern ? pattern_name(pl.pattern, i) : a.output;
      if (auto r = check_output(name, inputs, a.force); !r) return fail(err, r.error(), name);
      if (auto r = write_file_atomic(name, ByteSpan(png->data(), png->size()), wo); !r) return fail(err, r.error(), name);
    }
    progress.update(i + 1);
  }
  progress.clear();
  if (g_stop) {
    err << "mmdkit: render interrupted by " << (g_stop == SIGINT ? "SIGINT" : "SIGTERM")
        << (pl.video ? "; the unfinished video was removed\n" : "; frames written so far are kept\n");
    return kExitBadInput;
  }
  if (writer) {
    if (auto r = writer->finish(); !r) return fail(err, r.error(), a.output);
    writer.reset();
    if (auto r = temp->commit(); !r) return fail(err, r.error(), a.output);
  }
  const double total = progress.elapsed();
  char line[320];
  std::snprintf(line, sizeof line, "mmdkit render: scene of %zu model%s and %zu accessor%s, %llu frame%s %dx%d in %.2f s -> %s\n",
                nc, nc == 1 ? "" : "s", accessory_of.size(), accessory_of.size() == 1 ? "y" : "ies",
                static_cast<unsigned long long>(count), count == 1 ? "" : "s", pl.width, pl.height, total,
                a.output.c_str());
  if (!a.quiet) err << line;
  return kExitOk;
}

}  // namespace mmdkit::cli
