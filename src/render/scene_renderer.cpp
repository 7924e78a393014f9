// mmdkit — a render session of a scene (scene_renderer.hpp).
#include "mmdkit/render/scene_renderer.hpp"

#include <algorithm>
#include <cmath>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/thread_pool.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/render/texture.hpp"
#include "mmdkit/render/video.hpp"
#include "mmdkit/scene/placement.hpp"
#include "mmdkit/scene/scene.hpp"

namespace mmdkit::render {

namespace fs = std::filesystem;

namespace {

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

Vec3 unit(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return l > 0 ? Vec3{v[0] / l, v[1] / l, v[2] / l} : v;
}

// Vertices of one drawn item in world space (reused every frame).
struct WorldVertices {
  std::vector<Vec3> positions, normals;
  void place(const scene::Mat4& m, std::span<const Vec3> p, std::span<const Vec3> n) {
    positions.resize(p.size());
    normals.resize(n.size());
    for (std::size_t v = 0; v < p.size(); ++v) positions[v] = scene::transform_point(m, p[v]);
    for (std::size_t v = 0; v < n.size(); ++v) normals[v] = unit(scene::transform_direction(m, n[v]));
  }
};

// Where a background picture is drawn (BackgroundPicture): the output's size × scale, its
// top-left corner at the offset (x right, y down), in output pixels.
std::array<float, 4> background_rect(const scene::BackgroundPicture& b, const RenderSettings& s) {
  return {float(b.offset[0]), float(b.offset[1]), float(s.width) * b.scale, float(s.height) * b.scale};
}

// A warning about a background picture that is not drawn (the rest of the scene is).
Warning background_warning(const std::string& what, const Error& e) {
  Warning w = e;
  w.message = what + " is not drawn: " + e.message;
  return w;
}

// MMD's draw order (SceneDescription::accessories_after_models): the accessories before the models
// (accessories[0, after)), the characters, then the other accessories; items are the characters
// then the drawn accessories (`accessory_of`: their indices). Empty when it is the item order.
std::vector<std::size_t> draw_order(std::size_t characters, const std::vector<std::size_t>& accessory_of,
                                    std::size_t after) {
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < accessory_of.size(); ++j)
    if (accessory_of[j] < after) order.push_back(characters + j);
  if (order.empty()) return order;
  for (std::size_t c = 0; c < characters; ++c) order.push_back(c);
  for (std::size_t j = 0; j < accessory_of.size(); ++j)
    if (accessory_of[j] >= after) order.push_back(characters + j);
  return order;
}

}  // namespace

struct SceneRenderer::Impl {
  std::vector<Renderer> renderers;
  std::vector<Renderer*> drawn;
  std::vector<fs::path> files;
  std::vector<std::size_t> accessory_of;  // per renderer after the characters: the accessory index
  std::size_t characters = 0;
  std::vector<ModelFrame> frames;
  std::vector<std::size_t> order;  // the draw order (empty: item order; SceneDescription::accessories_after_models)
  std::vector<WorldVertices> world;
  std::vector<std::vector<Vec3>> acc_pos, acc_nrm;  // accessories' stored vertices
  SceneFrame scene_frame;
  std::optional<Image> background_image;           // view.background_image, decoded
  std::optional<VideoFrameReader> background_video;  // view.background_video, opened
  bool prepared = false;   // prepare() filled frames and scene_frame
  bool has_frame = false;  // they were drawn (read_depth / read_mask may redraw them)
};

namespace {

// The scene's background image (decoded) and video (opened); one that cannot be read is a warning.
void open_backgrounds(SceneRenderer::Impl& r, const scene::ViewSettings& v, std::vector<Warning>& warnings) {
  if (v.background_image) {
    const fs::path& f = v.background_image->file;
    auto bytes = read_file(f, std::uint64_t{256} << 20);
    Result<Image> im = std::unexpected(Error{});
    if (bytes) im = decode_texture(*bytes, f.string());
    if (im) {
      r.background_image = std::move(*im);
    } else {
      Error e = bytes ? im.error() : bytes.error();
      e.file = f.string();
      warnings.push_back(background_warning("the background image", e));
    }
  }
  if (v.background_video) {
    auto video = VideoFrameReader::open(v.background_video->file);
    if (video) r.background_video = std::move(*video);
    else warnings.push_back(background_warning("the background video", video.error()));
  }
}

}  // namespace

SceneRenderer::SceneRenderer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
SceneRenderer::SceneRenderer(SceneRenderer&&) noexcept = default;
SceneRenderer& SceneRenderer::operator=(SceneRenderer&&) noexcept = default;
SceneRenderer::~SceneRenderer() = default;

Result<SceneRenderer> SceneRenderer::create(Context& context, const scene::Scene& s, const RenderSettings& settings,
                                            std::vector<Warning>& warnings) {
  auto impl = std::make_unique<Impl>();
  Impl& r = *impl;
  const scene::SceneDescription& d = s.description();
  std::size_t visible = 0;
  for (std::size_t k = 0; k < s.accessory_count(); ++k) visible += s.accessory_ever_visible(k) ? 1 : 0;
  const std::size_t items = s.character_count() + visible;
  if (items == 0) return make_error(ErrorCode::invalid_argument, "the scene has no model and no visible accessory to draw");
  if (items > 255)
    return make_error(ErrorCode::invalid_argument,
                      "the scene has " + std::to_string(items) + " models and accessories; at most 255 are drawn");
  auto add = [&](const model::Model& m, const fs::path& file) -> Result<void> {
    std::vector<Warning> w;
    RenderSettings rs = settings;
    rs.framebuffer = r.renderers.empty();
    auto rr = Renderer::create(context, m, folder_of(file), rs, w);
    for (Warning& x : w) {
      x.file = file.string();
      warnings.push_back(std::move(x));
    }
    if (!rr) {
      Error e = rr.error();
      if (e.file.empty()) e.file = file.string();
      return std::unexpected(e);
    }
    r.renderers.push_back(std::move(*rr));
    r.files.push_back(file);
    return {};
  };
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    const bool stage = s.has_stage() && i == s.stage_index();
    if (auto e = add(s.character(i).data().model(), stage ? d.stage->file : d.models[i].file); !e) return std::unexpected(e.error());
  }
  r.characters = s.character_count();
  for (std::size_t k = 0; k < s.accessory_count(); ++k) {
    if (!s.accessory_ever_visible(k)) continue;  // shown by no key: never drawn
    if (auto e = add(*s.accessory(k).model, d.accessories[k].file); !e) return std::unexpected(e.error());
    r.accessory_of.push_back(k);
    const model::Model& m = *s.accessory(k).model;
    auto& pos = r.acc_pos.emplace_back();
    auto& nrm = r.acc_nrm.emplace_back();
    for (const model::Vertex& v : m.vertices) {
      pos.push_back(v.position);
      nrm.push_back(v.normal);
    }
  }
  open_backgrounds(r, d.view, warnings);
  for (Renderer& x : r.renderers) r.drawn.push_back(&x);
  r.order = draw_order(r.characters, r.accessory_of, d.accessories_after_models);
  r.frames.resize(r.renderers.size());
  r.world.resize(r.renderers.size());
  return SceneRenderer(std::move(impl));
}

namespace {

// The background layers of this frame: the image, then the video's frame at the scene's time
// (frame / 30 s: the video plays with the project's frames, one decoded frame per output frame).
Result<void> place_backgrounds(SceneRenderer::Impl& r, const scene::Scene& s) {
  const scene::ViewSettings& v = s.description().view;
  const RenderSettings& rs = r.renderers.front().settings();
  r.scene_frame.backgrounds.clear();
  if (r.background_image) r.scene_frame.backgrounds.push_back({&*r.background_image, background_rect(*v.background_image, rs)});
  if (r.background_video) {
    auto im = r.background_video->frame_at(std::max(0.0, s.frame()) / 30.0);
    if (!im) return std::unexpected(im.error());
    r.scene_frame.backgrounds.push_back({*im, background_rect(*v.background_video, rs)});
  }
  return {};
}

}  // namespace

Result<void> SceneRenderer::draw(scene::Scene& s, ThreadPool* pool) {
  if (auto e = prepare(s, pool); !e) return e;
  return draw_prepared();
}

Result<void> SceneRenderer::prepare(scene::Scene& s, ThreadPool* pool) {
  Impl& r = *impl_;
  r.prepared = r.has_frame = false;
  const std::size_t nc = r.characters;
  for (std::size_t c = 0; c < nc; ++c) {
    anim::Character& ch = s.character(c);
    if (auto e = ch.skin(pool); !e) return e;
    ModelFrame& mf = r.frames[c];
    if (s.character_placement_values(c).is_identity()) {
      mf.positions = ch.positions();
      mf.normals = ch.normals();
    } else {
      r.world[c].place(s.character_placement(c), ch.positions(), ch.normals());
      mf.positions = r.world[c].positions;
      mf.normals = r.world[c].normals;
    }
    const anim::MorphWorkspace& morphs = ch.morphs();
    const bool is_model = c < s.model_count();
    // A model hidden by its motions' property keys (MMD's 表示) is not drawn (nor in the mask).
    mf.visible = ch.data().bone_motion().visible(ch.frame());
    mf.edge_scale = is_model ? s.description().models[c].edge_width : 1.0f;
    mf.self_shadow = is_model ? s.description().models[c].self_shadow : true;
    mf.add_blend = is_model && s.description().models[c].add_blend;
    // The scene's edge colour for models whose materials store none (PMD; ViewSettings::edge_color).
    if (ch.data().model().source == model::SourceFormat::pmd) mf.edge_color = s.description().view.edge_color;
    mf.materials = morphs.materials();
    const bool uv_morph = !morphs.touched_uv_vertices().empty();
    mf.uv_offsets = uv_morph ? morphs.uv_offsets() : std::span<const Vec4>{};
    mf.additional_uv_offsets = uv_morph ? morphs.additional_uv_offsets() : std::span<const Vec4>{};
  }
  for (std::size_t j = 0; j < r.accessory_of.size(); ++j) {
    WorldVertices& wv = r.world[nc + j];
    wv.place(s.accessory_transform(r.accessory_of[j]), r.acc_pos[j], r.acc_nrm[j]);
    r.frames[nc + j].positions = wv.positions;
    r.frames[nc + j].normals = wv.normals;
    r.frames[nc + j].visible = s.accessory_visible(r.accessory_of[j]);
    r.frames[nc + j].opacity = s.accessory_opacity(r.accessory_of[j]);
    r.frames[nc + j].add_blend = s.description().accessories[r.accessory_of[j]].add_blend;
    r.frames[nc + j].ground_shadow = s.accessory_shadow(r.accessory_of[j]);
  }
  r.scene_frame.camera = s.camera();
  r.scene_frame.light = s.light();
  r.scene_frame.self_shadow = s.self_shadow();
  if (auto e = place_backgrounds(r, s); !e) return e;
  r.prepared = true;
  return {};
}


Result<void> SceneRenderer::draw_prepared() {
  Impl& r = *impl_;
  if (!r.prepared) return make_error(ErrorCode::invalid_argument, "draw_prepared: no frame prepared");
  r.has_frame = false;
  if (auto e = Renderer::draw_scene(r.drawn, r.frames, r.scene_frame, r.order); !e) return e;
  r.has_frame = true;
  return {};
}

void SceneRenderer::read(Image& out) { impl_->renderers.front().read(out); }

Result<void> SceneRenderer::read_depth(std::vector<float>& out) {
  Impl& r = *impl_;
  if (!r.has_frame) return make_error(ErrorCode::invalid_argument, "read_depth: no frame drawn yet");
  return Renderer::draw_ids(r.drawn, r.frames, r.scene_frame, nullptr, &out);
}

Result<void> SceneRenderer::read_mask(std::vector<std::uint8_t>& out) {
  Impl& r = *impl_;
  if (!r.has_frame) return make_error(ErrorCode::invalid_argument, "read_mask: no frame drawn yet");
  return Renderer::draw_ids(r.drawn, r.frames, r.scene_frame, &out, nullptr);
}

std::size_t SceneRenderer::item_count() const noexcept { return impl_->renderers.size(); }
const fs::path& SceneRenderer::item_file(std::size_t k) const noexcept { return impl_->files[k]; }
const RenderSettings& SceneRenderer::settings() const noexcept { return impl_->renderers.front().settings(); }

}  // namespace mmdkit::render
