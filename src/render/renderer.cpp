// mmdkit — the model renderer (renderer.hpp). Formulas and their sources: docs/RENDER.md.
#include "mmdkit/render/renderer.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "core/try.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/model/textures.hpp"
#include "mmdkit/render/texture.hpp"
#include "render/background.hpp"
#include "render/fxaa.hpp"
#include "render/gl_util.hpp"
#include "render/shaders.hpp"

namespace mmdkit::render {

namespace fs = std::filesystem;

namespace {

constexpr float kNear = 0.5f, kFar = 100000.0f;
constexpr float kPi = 3.14159265358979f;

struct MaterialGl {
  GLuint texture = 0, sphere = 0, toon = 0;  // 0 = none
  std::uint8_t sphere_mode = 0;
  std::uint8_t flags = 0;
  std::uint32_t first = 0, count = 0;
};

struct Locations {
  GLint view = -1, proj = -1, light_vp = -1, diffuse = -1, ambient = -1, specular = -1, power = -1,
        light_color = -1, to_light = -1, eye = -1, ortho = -1, view_dir = -1, has_texture = -1,
        sphere_mode = -1, has_toon = -1, self_shadow = -1, tex_mul = -1, tex_add = -1, sph_mul = -1,
        sph_add = -1, toon_mul = -1, toon_add = -1, accessory = -1, shadow_rect = -1;
};

GLuint upload_texture(const Image& img, bool repeat) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, img.width, img.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  const GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
  return t;
}

// The id buffer of draw_ids (mask and depth), made on first use: RGBA8 colour (id in red) and a
// 32-bit float depth buffer, single-sampled, with the flat program (shadow-map vertex shader).
struct IdBuffer {
  GLuint fbo = 0, rb_color = 0, rb_depth = 0, prog = 0;
  GLint vp = -1, color = -1;
  IdBuffer() = default;
  IdBuffer(const IdBuffer&) = delete;
  IdBuffer& operator=(const IdBuffer&) = delete;
  ~IdBuffer() {
    if (fbo) glDeleteFramebuffers(1, &fbo);
    GLuint rbs[] = {rb_color, rb_depth};
    if (rb_color || rb_depth) glDeleteRenderbuffers(2, rbs);
    if (prog) glDeleteProgram(prog);
  }
};

}  // namespace

struct Renderer::Impl {
  RenderSettings settings;
  float edge_px = 1;
  std::size_t vertex_count = 0, additional_uv_count = 0;
  std::vector<anim::MaterialValues> base_materials;
  std::vector<MaterialGl> materials;
  std::vector<model::Vec4> base_uv;   // per vertex: uv.xy, additional uv 1.xy
  std::vector<model::Vec4> uv_work;   // reused when UV morphs are active
  bool uv_dirty = false;
  std::vector<GLuint> textures;       // owned
  GLuint vao = 0, vbo_pos = 0, vbo_nrm = 0, vbo_uv = 0, vbo_edge = 0, ebo = 0;
  GLuint vbo_color = 0;      // accessory vertex colours (0 = none: constant white)
  bool accessory = false;    // model::Shading::accessory
  GLuint prog_material = 0, prog_edge = 0, prog_ground = 0, prog_depth = 0;
  Locations loc;
  GLint edge_view = -1, edge_proj = -1, edge_viewport = -1, edge_pixels = -1, edge_size = -1, edge_color = -1;
  GLint ground_view = -1, ground_proj = -1, ground_dir = -1, ground_color = -1;
  GLint depth_vp = -1;
  GLuint fbo_msaa = 0, rb_color = 0, rb_depth = 0, fbo_resolve = 0, rb_resolve = 0;
  GLuint fbo_shadow = 0, tex_shadow = 0;
  detail::FxaaWork fxaa;     // RenderSettings::fxaa: the filter's buffers (read)
  int samples = 1;
  IdBuffer ids;  ///< draw_ids (renderers[0] only)
  std::unique_ptr<detail::BackgroundPass> background;  ///< SceneFrame::backgrounds (first use)

  ~Impl() {
    if (!textures.empty()) glDeleteTextures(static_cast<GLsizei>(textures.size()), textures.data());
    GLuint bufs[] = {vbo_pos, vbo_nrm, vbo_uv, vbo_edge, ebo};
    glDeleteBuffers(5, bufs);
    if (vbo_color) glDeleteBuffers(1, &vbo_color);
    glDeleteVertexArrays(1, &vao);
    for (GLuint p : {prog_material, prog_edge, prog_ground, prog_depth})
      if (p) glDeleteProgram(p);
    GLuint fbos[] = {fbo_msaa, fbo_resolve, fbo_shadow};
    glDeleteFramebuffers(3, fbos);
    GLuint rbs[] = {rb_color, rb_depth, rb_resolve};
    glDeleteRenderbuffers(3, rbs);
    if (tex_shadow) glDeleteTextures(1, &tex_shadow);
  }
};

Renderer::Renderer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Renderer::Renderer(Renderer&&) noexcept = default;
Renderer& Renderer::operator=(Renderer&&) noexcept = default;
Renderer::~Renderer() = default;

const RenderSettings& Renderer::settings() const noexcept { return impl_->settings; }
float Renderer::edge_pixels() const noexcept { return impl_->edge_px; }

Result<void> choose_quality(RenderSettings& settings, std::string_view aa, int msaa, int shadow_map) {
  if (msaa != 0 && (msaa < 1 || msaa > 64)) return make_error(ErrorCode::invalid_argument, "MSAA samples must be 1..64");
  if (shadow_map != 0 && (shadow_map < 16 || shadow_map > 8192))
    return make_error(ErrorCode::invalid_argument, "the shadow map size must be 16..8192 pixels");
  if (aa.empty()) aa = msaa != 0 ? "msaa" : "fxaa";  // --msaa N alone: as before --aa existed
  if (aa == "msaa") {
    settings.msaa = msaa != 0 ? msaa : 4;
    settings.fxaa = false;
  } else if (aa == "fxaa" || aa == "none") {
    if (msaa > 1)
      return make_error(ErrorCode::invalid_argument, "anti-aliasing '" + std::string(aa) + "' draws one sample per pixel; " +
                                                         std::to_string(msaa) + " MSAA samples need 'msaa'");
    settings.msaa = 1;
    settings.fxaa = aa == "fxaa";
  } else {
    return make_error(ErrorCode::invalid_argument, "anti-aliasing must be fxaa, msaa or none, not '" + std::string(aa) + "'");
  }
  settings.shadow_fit = shadow_map == 0;
  if (shadow_map != 0) {
    settings.shadow_map_size = shadow_map;
  } else {
    const int side = std::max(settings.width, settings.height) / 4;
    int size = 256;
    while (size < side && size < 2048) size *= 2;
    settings.shadow_map_size = size;
  }
  return {};
}

Mat4 projection_matrix(const anim::CameraState& camera, float aspect) noexcept {
  const float fov = std::clamp(camera.fov_degrees, 1.0f, 179.0f) * kPi / 180.0f;
  Mat4 m{};
  if (camera.perspective) {
    const float f = 1.0f / std::tan(fov / 2);
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (kFar + kNear) / (kFar - kNear);
    m[11] = 1;
    m[14] = -2 * kFar * kNear / (kFar - kNear);
  } else {
    const float h = std::max(std::abs(camera.distance), 0.01f) * std::tan(fov / 2);
    m[0] = 1 / (h * aspect);
    m[5] = 1 / h;
    m[10] = 2 / (kFar - kNear);
    m[14] = -(kFar + kNear) / (kFar - kNear);
    m[15] = 1;
  }
  return m;
}

namespace {

// Refuses an image size outside 1..16384 or beyond the driver's renderbuffer limit.
Result<void> check_image_size(const RenderSettings& settings) {
  if (settings.width < 1 || settings.height < 1 || settings.width > 16384 || settings.height > 16384)
    return make_error(ErrorCode::invalid_argument, "image size " + std::to_string(settings.width) + "x" +
                                                       std::to_string(settings.height) + " is outside 1..16384");
  GLint max_rb = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
  if (settings.width > max_rb || settings.height > max_rb)
    return make_error(ErrorCode::invalid_argument, "image size " + std::to_string(settings.width) + "x" +
                                                       std::to_string(settings.height) + " exceeds the driver's limit " +
                                                       std::to_string(max_rb));
  return {};
}

// The four programs (material, edge, ground shadow, shadow map) and their uniform locations.
Result<void> make_programs(Renderer::Impl& r) {
  auto pm = gl::make_program(shaders::kMaterialVs, shaders::kMaterialFs, "material");
  if (!pm) return std::unexpected(pm.error());
  r.prog_material = *pm;
  auto pe = gl::make_program(shaders::kEdgeVs, shaders::kFlatFs, "edge");
  if (!pe) return std::unexpected(pe.error());
  r.prog_edge = *pe;
  auto pg = gl::make_program(shaders::kGroundVs, shaders::kFlatFs, "ground shadow");
  if (!pg) return std::unexpected(pg.error());
  r.prog_ground = *pg;
  auto pd = gl::make_program(shaders::kDepthVs, shaders::kDepthFs, "shadow map");
  if (!pd) return std::unexpected(pd.error());
  r.prog_depth = *pd;
  const GLuint p = r.prog_material;
  Locations& l = r.loc;
  auto u = [&](const char* n) { return glGetUniformLocation(p, n); };
  l = {u("u_view"), u("u_proj"), u("u_light_vp"), u("u_diffuse"), u("u_ambient"), u("u_specular"), u("u_power"),
       u("u_light_color"), u("u_to_light"), u("u_eye"), u("u_ortho"), u("u_view_dir"), u("u_has_texture"),
       u("u_sphere_mode"), u("u_has_toon"), u("u_self_shadow"), u("u_tex_mul"), u("u_tex_add"), u("u_sph_mul"),
       u("u_sph_add"), u("u_toon_mul"), u("u_toon_add"), u("u_accessory"), u("u_shadow_rect")};
  glUseProgram(p);
  glUniform1i(u("u_texture"), 0);
  glUniform1i(u("u_sphere"), 1);
  glUniform1i(u("u_toon"), 2);
  glUniform1i(u("u_shadow_map"), 3);
  r.edge_view = glGetUniformLocation(r.prog_edge, "u_view");
  r.edge_proj = glGetUniformLocation(r.prog_edge, "u_proj");
  r.edge_viewport = glGetUniformLocation(r.prog_edge, "u_viewport");
  r.edge_pixels = glGetUniformLocation(r.prog_edge, "u_edge_pixels");
  r.edge_size = glGetUniformLocation(r.prog_edge, "u_edge_size");
  r.edge_color = glGetUniformLocation(r.prog_edge, "u_color");
  r.ground_view = glGetUniformLocation(r.prog_ground, "u_view");
  r.ground_proj = glGetUniformLocation(r.prog_ground, "u_proj");
  r.ground_dir = glGetUniformLocation(r.prog_ground, "u_light_dir");
  r.ground_color = glGetUniformLocation(r.prog_ground, "u_color");
  r.depth_vp = glGetUniformLocation(r.prog_depth, "u_light_vp");
  return {};
}

// The vertex array: positions and normals (streamed per frame), UVs, edge scales, accessory vertex
// colours and the faces.
void upload_geometry(Renderer::Impl& r, const model::Model& model) {
  const std::size_t n = model.vertices.size();
  std::vector<float> edge(n);
  r.base_uv.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    const model::Vertex& vx = model.vertices[v];
    model::Vec4 a{};
    if (model.additional_uv_count > 0) a = model.additional_uvs[v * model.additional_uv_count];
    r.base_uv[v] = {vx.uv[0], vx.uv[1], a[0], a[1]};
    edge[v] = vx.edge_scale;
  }
  glGenVertexArrays(1, &r.vao);
  glBindVertexArray(r.vao);
  GLuint bufs[5];
  glGenBuffers(5, bufs);
  r.vbo_pos = bufs[0];
  r.vbo_nrm = bufs[1];
  r.vbo_uv = bufs[2];
  r.vbo_edge = bufs[3];
  r.ebo = bufs[4];
  const auto bytes3 = static_cast<GLsizeiptr>(n * sizeof(Vec3));
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_pos);
  glBufferData(GL_ARRAY_BUFFER, bytes3, nullptr, GL_STREAM_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_nrm);
  glBufferData(GL_ARRAY_BUFFER, bytes3, nullptr, GL_STREAM_DRAW);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_uv);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(model::Vec4)), r.base_uv.data(), GL_DYNAMIC_DRAW);
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(2);
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_edge);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(float)), edge.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(3);
  r.accessory = model.shading == model::Shading::accessory;
  if (!model.vertex_colors.empty() && model.vertex_colors.size() == n) {
    glGenBuffers(1, &r.vbo_color);
    glBindBuffer(GL_ARRAY_BUFFER, r.vbo_color);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(n * sizeof(model::Vec4)), model.vertex_colors.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(4);
  }
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(model.faces.size() * sizeof(std::uint32_t)),
               model.faces.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
}

// ASCII letters in lower case (multi-byte UTF-8 left as is): Windows' file-name rule for references.
std::string ascii_folded(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The materials' GL textures: one per file (or generated toon), white for what cannot be read,
// with one warning per unreadable or refused file and one for all the files not found.
void load_material_textures(Renderer::Impl& r, const model::Model& model, const fs::path& folder,
                            const RenderSettings& settings, std::vector<Warning>& warnings) {
  std::map<std::string, GLuint> cache;  // key: resolved path or "toon:N" / "white"
  std::set<std::string> reported;
  std::vector<std::string> missing;  // references not found, in material order (one warning)
  auto own = [&](const Image& img, bool repeat) {
    const GLuint t = upload_texture(img, repeat);
    r.textures.push_back(t);
    return t;
  };
  auto white = [&]() {
    auto it = cache.find("white");
    if (it != cache.end()) return it->second;
    Image w{1, 1, {255, 255, 255, 255}};
    return cache["white"] = own(w, true);
  };
  const std::string model_label = model.name.empty() ? std::string("model") : "model '" + model.name + "'";
  auto warn_once = [&](const std::string& key, ErrorCode code, const std::string& message) {
    if (reported.insert(key).second) {
      Warning w;
      w.code = code;
      w.message = message;
      w.section = "textures";
      warnings.push_back(std::move(w));
    }
  };
  auto load_file = [&](const fs::path& path, bool repeat) -> std::optional<GLuint> {
    const std::string key = path.string();
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    auto bytes = read_file(path);
    if (!bytes) {
      warn_once(key, ErrorCode::io_error, model_label + ": texture '" + key + "' cannot be read (" + bytes.error().message + "); drawn white");
      return std::nullopt;
    }
    auto img = decode_texture(*bytes, path.filename().string());
    if (!img) {
      warn_once(key, img.error().code, model_label + ": texture '" + key + "' is not usable: " + img.error().message + "; drawn white");
      return std::nullopt;
    }
    return cache[key] = own(*img, repeat);
  };
  // A model texture reference: resolved inside the model folder; white (with one warning) if absent.
  auto model_texture = [&](const std::string& ref, bool repeat) -> GLuint {
    if (ref.empty()) return 0;
    const model::TextureLookup t = model::resolve_texture(folder, ref);
    if (t.status == model::TextureStatus::found) {
      if (auto g = load_file(t.path, repeat)) return *g;
      return white();
    }
    if (t.status == model::TextureStatus::escapes)
      warn_once("ref:" + model::normalize_texture_path(ref), ErrorCode::texture_escapes,
                model_label + ": texture '" + ref + "' refused (" + t.message + ") in folder '" + folder.string() +
                    "'; drawn white");
    else if (reported.insert("missing:" + ascii_folded(model::normalize_texture_path(ref))).second)
      missing.push_back(ref);  // one warning for all of them, after the materials (a file named
                               // in two spellings counts once: lookups are case-insensitive)
    return white();
  };
  // Shared toon N: --toon-dir, then the model folder, then the generated ramp.
  auto shared_toon = [&](int index) -> GLuint {
    const std::string name = model::shared_toon_name(index);
    for (const fs::path& dir : {settings.toon_dir, folder}) {
      if (dir.empty()) continue;
      const model::TextureLookup t = model::resolve_texture(dir, name);
      if (t.status == model::TextureStatus::found)
        if (auto g = load_file(t.path, false)) return *g;
    }
    const std::string key = "toon:" + std::to_string(index);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    return cache[key] = own(generated_toon(index), false);
  };

  for (std::size_t i = 0; i < model.materials.size(); ++i) {
    const model::Material& m = model.materials[i];
    MaterialGl g;
    g.flags = m.flags;
    g.first = m.first_index;
    g.count = m.index_count;
    g.texture = model_texture(m.texture, true);
    if (m.sphere_mode != model::SphereMode::off && !m.sphere.empty()) {
      g.sphere = model_texture(m.sphere, false);
      g.sphere_mode = static_cast<std::uint8_t>(m.sphere_mode);
    }
    if (m.shared_toon >= 0 && m.shared_toon <= 9) {
      g.toon = shared_toon(m.shared_toon);
    } else if (!m.toon.empty()) {
      const model::TextureLookup t = model::resolve_texture(folder, m.toon);
      const int shared = model::shared_toon_index(m.toon);
      if (t.status != model::TextureStatus::found && shared >= 0) g.toon = shared_toon(shared);
      else g.toon = model_texture(m.toon, false);
    }
    r.materials.push_back(g);
  }
  if (!missing.empty()) {
    // One line per model however many are missing (a model shipped without its textures has
    // dozens): the count, the first few names, the folder looked in.
    constexpr std::size_t kNamed = 5;
    std::string names;
    for (std::size_t i = 0; i < missing.size() && i < kNamed; ++i) names += (i ? ", '" : "'") + missing[i] + "'";
    if (missing.size() > kNamed) names += " and " + std::to_string(missing.size() - kNamed) + " more";
    Warning w;
    w.code = ErrorCode::texture_missing;
    w.section = "textures";
    w.message = model_label + ": " +
                (missing.size() == 1 ? "texture " + names : std::to_string(missing.size()) + " textures " + names) +
                " not found in folder '" + folder.string() + "'; drawn white";
    warnings.push_back(std::move(w));
  }
}

// Framebuffers: MSAA colour + depth/stencil, resolved into a single-sample colour buffer, and the
// shadow map's with self shadows.
Result<void> make_framebuffers(Renderer::Impl& r, const RenderSettings& settings) {
  glGenFramebuffers(1, &r.fbo_msaa);
  glGenRenderbuffers(1, &r.rb_color);
  glGenRenderbuffers(1, &r.rb_depth);
  glBindFramebuffer(GL_FRAMEBUFFER, r.fbo_msaa);
    glBindRenderbuffer(GL_RENDERBUFFER, r.rb_color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, r.samples > 1 ? r.samples : 0, GL_RGBA8, settings.width, settings.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r.rb_color);
  glBindRenderbuffer(GL_RENDERBUFFER, r.rb_depth);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, r.samples > 1 ? r.samples : 0, GL_DEPTH24_STENCIL8, settings.width, settings.height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, r.rb_depth);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    return make_error(ErrorCode::unsupported, "the driver refuses a " + std::to_string(settings.width) + "x" +
                                                  std::to_string(settings.height) + " framebuffer with " +
                                                  std::to_string(r.samples) + " samples");
  glGenFramebuffers(1, &r.fbo_resolve);
  glGenRenderbuffers(1, &r.rb_resolve);
  glBindFramebuffer(GL_FRAMEBUFFER, r.fbo_resolve);
  glBindRenderbuffer(GL_RENDERBUFFER, r.rb_resolve);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, settings.width, settings.height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, r.rb_resolve);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    return make_error(ErrorCode::unsupported, "the driver refuses the resolve framebuffer");
  if (settings.self_shadow) {
    const int s = std::clamp(settings.shadow_map_size, 16, 8192);
    glGenTextures(1, &r.tex_shadow);
    glBindTexture(GL_TEXTURE_2D, r.tex_shadow);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, s, s, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &r.fbo_shadow);
    glBindFramebuffer(GL_FRAMEBUFFER, r.fbo_shadow);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r.tex_shadow, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return make_error(ErrorCode::unsupported, "the driver refuses the shadow map framebuffer");
  }
  return {};
}

}  // namespace

Result<Renderer> Renderer::create(Context& context, const model::Model& model, const fs::path& folder,
                                  const RenderSettings& settings, std::vector<Warning>& warnings) {
  if (auto r = context.make_current(); !r) return std::unexpected(r.error());
  MMDKIT_TRY(check_image_size(settings));
  auto impl = std::make_unique<Impl>();
  Impl& r = *impl;
  r.settings = settings;
  r.samples = settings.fxaa ? 1 : std::clamp(settings.msaa, 1, std::max(1, context.info().max_samples));
  r.edge_px = settings.edge_pixels > 0 ? settings.edge_pixels
                                       : float(settings.height) * 0.001f / (2.0f * std::tan(15.0f * kPi / 180.0f));
  r.vertex_count = model.vertices.size();
  r.additional_uv_count = model.additional_uv_count;
  MMDKIT_TRY(make_programs(r));
  upload_geometry(r, model);
  load_material_textures(r, model, folder, settings, warnings);
  // Material values without morphs (for frames that give none), as the morph layer builds them.
  auto morph_data = anim::MorphData::create(model);
  if (!morph_data) return std::unexpected(morph_data.error());
  r.base_materials.assign(morph_data->base_materials().begin(), morph_data->base_materials().end());

  // No framebuffer for a renderer drawn only into another's picture.
  if (!settings.framebuffer) return Renderer(std::move(impl));
  MMDKIT_TRY(make_framebuffers(r, settings));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return Renderer(std::move(impl));
}

namespace {

Vec3 normalized(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (l > 0) v = {v[0] / l, v[1] / l, v[2] / l};
  return v;
}

// The light's view-projection for the self-shadow map (docs/RENDER.md "Self-shadow"): orthographic
// along the light, centred on the camera's look-at point, x/y scaled by the stored shadow distance
// (MMD's (10000 − UI distance) / 100000), depth over ±1000 MMD units.
Mat4 shadow_matrix(const SceneFrame& scene) {
  const Vec3 d = normalized(scene.light.direction);
  const Vec3& c = scene.camera.target;
  const Vec3 eye{c[0] - 50 * d[0], c[1] - 50 * d[1], c[2] - 50 * d[2]};
  const Vec3 up = std::abs(d[1]) > 0.99f ? Vec3{0, 0, 1} : Vec3{0, 1, 0};
  const Mat4 view = gl::look_at_lh(eye, c, up);
  const float s = std::clamp(scene.self_shadow.distance, 1e-5f, 1.0f);
  Mat4 proj{};
  proj[0] = s;
  proj[5] = s;
  proj[10] = 1.0f / 1000.0f;  // z in [-1000, 1000] → [-1, 1]
  proj[15] = 1;
  return gl::mul(proj, view);
}

}  // namespace

namespace {

// What every model of one picture shares: the camera's matrices, the light, the shadow map.
struct PassState {
  Mat4 proj{}, view{}, light_vp{};
  Mat4 map_vp{};  ///< what draws the shadow map: light_vp, or cropped to shadow_rect (fitted map)
  Vec4 shadow_rect{0, 0, 1, 1};  ///< the part of MMD's box the map holds (offset, size; 0..1)
  Vec3 light_dir{}, to_light{};
  bool self_shadow = false;
  GLuint tex_shadow = 0;
};

}  // namespace

// The fitted self-shadow map (RenderSettings::shadow_fit): the square part of MMD's map box
// (texture coordinates 0..1) holding every drawn vertex, of size 2^-k of the box (the smallest
// that holds them) with its corner on whole texels of that size, so the texel grid stays put while
// the models move (it changes only when k does). Nothing drawn inside the box: the whole box.
static void fit_shadow_map(std::span<Renderer* const> renderers, std::span<const ModelFrame> frames,
                           const RenderSettings& s, PassState& ps) {
  const Mat4& m = ps.light_vp;  // orthographic: w = 1
  float lo[2] = {1, 1}, hi[2] = {0, 0};
  for (std::size_t k = 0; k < renderers.size(); ++k) {
    if (!frames[k].visible || !frames[k].self_shadow) continue;  // casts nothing into the map
    for (const Vec3& v : frames[k].positions)
      for (int a = 0; a < 2; ++a) {
        const auto i = static_cast<std::size_t>(a);
        const float ndc = m[i] * v[0] + m[4 + i] * v[1] + m[8 + i] * v[2] + m[12 + i];
        const float st = std::clamp(ndc * 0.5f + 0.5f, 0.0f, 1.0f);
        lo[a] = std::min(lo[a], st);
        hi[a] = std::max(hi[a], st);
      }
  }
  if (!(hi[0] > lo[0]) && !(hi[1] > lo[1])) return;  // nothing (or one point) in the box
  const float texels = float(std::clamp(s.shadow_map_size, 16, 8192));
  for (int k = 12; k >= 0; --k) {
    const float size = std::ldexp(1.0f, -k);
    const float texel = size / texels;
    // One texel of margin on each side: the rasterised edge of the nearest casters.
    const float ox = std::floor((lo[0] - texel) / texel) * texel, oy = std::floor((lo[1] - texel) / texel) * texel;
    if (k > 0 && (ox + size < hi[0] + texel || oy + size < hi[1] + texel)) continue;
    if (k == 0) {
      ps.shadow_rect = {0, 0, 1, 1};
      return;  // the whole box: MMD's matrix as it is
    }
    ps.shadow_rect = {ox, oy, size, size};
    // NDC of the map: (ndc + 1 − 2·offset) / size − 1, per axis (z unchanged).
    Mat4 crop{1 / size, 0, 0, 0, 0, 1 / size, 0, 0, 0, 0, 1, 0, (1 - 2 * ox) / size - 1, (1 - 2 * oy) / size - 1, 0, 1};
    ps.map_vp = gl::mul(crop, ps.light_vp);
    return;
  }
}

// Checks a frame against its model and uploads its vertices (and UVs when morphs move them);
// returns the material values to draw with.
static Result<std::span<const anim::MaterialValues>> upload_frame(Renderer::Impl& r, const ModelFrame& frame) {
  const std::size_t n = r.vertex_count;
  if (frame.positions.size() != n || frame.normals.size() != n)
    return make_error(ErrorCode::invalid_argument, "frame has " + std::to_string(frame.positions.size()) + " positions and " +
                                                       std::to_string(frame.normals.size()) + " normals for " +
                                                       std::to_string(n) + " vertices");
  if (!frame.materials.empty() && frame.materials.size() != r.materials.size())
    return make_error(ErrorCode::invalid_argument, "frame has " + std::to_string(frame.materials.size()) +
                                                       " material values for " + std::to_string(r.materials.size()) + " materials");
  if ((!frame.uv_offsets.empty() && frame.uv_offsets.size() != n) ||
      (!frame.additional_uv_offsets.empty() && frame.additional_uv_offsets.size() != n * r.additional_uv_count))
    return make_error(ErrorCode::invalid_argument, "frame UV offsets do not match the vertex count");
  const std::span<const anim::MaterialValues> mats =
      frame.materials.empty() ? std::span<const anim::MaterialValues>(r.base_materials) : frame.materials;

  // Upload the frame's vertices (and UVs when morphs move them).
  glBindVertexArray(r.vao);
  const auto bytes3 = static_cast<GLsizeiptr>(n * sizeof(Vec3));
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_pos);
  glBufferData(GL_ARRAY_BUFFER, bytes3, nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes3, frame.positions.data());
  glBindBuffer(GL_ARRAY_BUFFER, r.vbo_nrm);
  glBufferData(GL_ARRAY_BUFFER, bytes3, nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes3, frame.normals.data());
  const bool uv_morph = !frame.uv_offsets.empty() || !frame.additional_uv_offsets.empty();
  if (uv_morph || r.uv_dirty) {
    const model::Vec4* src = r.base_uv.data();
    if (uv_morph) {
      r.uv_work = r.base_uv;
      for (std::size_t v = 0; v < n; ++v) {
        if (!frame.uv_offsets.empty()) {
          r.uv_work[v][0] += frame.uv_offsets[v][0];
          r.uv_work[v][1] += frame.uv_offsets[v][1];
        }
        if (!frame.additional_uv_offsets.empty()) {
          r.uv_work[v][2] += frame.additional_uv_offsets[v * r.additional_uv_count][0];
          r.uv_work[v][3] += frame.additional_uv_offsets[v * r.additional_uv_count][1];
        }
      }
      src = r.uv_work.data();
    }
    glBindBuffer(GL_ARRAY_BUFFER, r.vbo_uv);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(model::Vec4)), src);
    r.uv_dirty = uv_morph;
  }
  glBindVertexArray(0);
  return mats;
}

// upload_frame of every renderer's frame (the spans' sizes checked by the caller); errors name
// the renderer (Error::record = its index).
Result<std::vector<std::span<const anim::MaterialValues>>> Renderer::upload_frames(
    std::span<Renderer* const> renderers, std::span<const ModelFrame> frames, const char* who) {
  std::vector<std::span<const anim::MaterialValues>> mats(renderers.size());
  for (std::size_t k = 0; k < renderers.size(); ++k) {
    if (!renderers[k]) return make_error(ErrorCode::invalid_argument, std::string(who) + ": renderer " + std::to_string(k) + " is null");
    if (!frames[k].visible) continue;  // not drawn this frame (its spans are not read)
    auto m = upload_frame(*renderers[k]->impl_, frames[k]);
    if (!m) {
      Error e = m.error();
      e.record = static_cast<std::int64_t>(k);
      return std::unexpected(e);
    }
    mats[k] = *m;
  }
  return mats;
}

static bool material_visible(const Renderer::Impl& r, std::span<const anim::MaterialValues> mats, std::size_t i) {
  return mats[i].diffuse[3] > 0.0f && r.materials[i].count > 0;
}

static void draw_range(const MaterialGl& m) {
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(m.count), GL_UNSIGNED_INT,
                 reinterpret_cast<const void*>(static_cast<std::uintptr_t>(m.first) * sizeof(std::uint32_t)));
}

// 1. Self-shadow map: this model's depth into the bound shadow framebuffer.
static void shadow_pass(Renderer::Impl& r, std::span<const anim::MaterialValues> mats, const PassState& ps) {
  glBindVertexArray(r.vao);
  glUseProgram(r.prog_depth);
  glUniformMatrix4fv(r.depth_vp, 1, GL_FALSE, ps.map_vp.data());
  for (std::size_t i = 0; i < r.materials.size(); ++i)
    if (material_visible(r, mats, i) && (r.materials[i].flags & model::kDrawShadowMap)) draw_range(r.materials[i]);
  glBindVertexArray(0);
}

// 3–5. Ground shadow, materials and edges of this model into the bound colour framebuffer.
static void color_pass(Renderer::Impl& r, std::span<const anim::MaterialValues> mats, const ModelFrame& frame,
                       const SceneFrame& scene, const PassState& ps) {
  const RenderSettings& s = r.settings;
  glBindVertexArray(r.vao);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  const Mat4& view = ps.view;
  const Mat4& proj = ps.proj;
  const Vec3& light_dir = ps.light_dir;
  auto visible = [&](std::size_t i) { return material_visible(r, mats, i); };

  // 3. Ground shadow (light colour; stencil keeps overlapping triangles from blending twice).
  if (s.ground_shadow && frame.ground_shadow && light_dir[1] < -1e-3f) {
    glUseProgram(r.prog_ground);
    glUniformMatrix4fv(r.ground_view, 1, GL_FALSE, view.data());
    glUniformMatrix4fv(r.ground_proj, 1, GL_FALSE, proj.data());
    glUniform3fv(r.ground_dir, 1, light_dir.data());
    glUniform4f(r.ground_color, scene.light.color[0], scene.light.color[1], scene.light.color[2],
                s.translucent_ground_shadow ? 0.5f : 1.0f);
    glDisable(GL_CULL_FACE);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    for (std::size_t i = 0; i < r.materials.size(); ++i)
      if (visible(i) && (r.materials[i].flags & model::kGroundShadow)) draw_range(r.materials[i]);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_STENCIL_TEST);
  }

  // 4. Materials in file order.
  glUseProgram(r.prog_material);
  const Locations& l = r.loc;
  glUniformMatrix4fv(l.view, 1, GL_FALSE, view.data());
  glUniformMatrix4fv(l.proj, 1, GL_FALSE, proj.data());
  glUniformMatrix4fv(l.light_vp, 1, GL_FALSE, ps.light_vp.data());
  glUniform4fv(l.shadow_rect, 1, ps.shadow_rect.data());
  glUniform3fv(l.light_color, 1, scene.light.color.data());
  glUniform3fv(l.to_light, 1, ps.to_light.data());
  glUniform3fv(l.eye, 1, scene.camera.position.data());
  glUniform1i(l.ortho, scene.camera.perspective ? 0 : 1);
  const Vec3 view_dir{view[2], view[6], view[10]};  // third row of the rotation = forward
  glUniform3fv(l.view_dir, 1, view_dir.data());
  glUniform1i(l.accessory, r.accessory ? 1 : 0);
  if (!r.vbo_color) glVertexAttrib4f(4, 1.0f, 1.0f, 1.0f, 1.0f);  // current value (context state)
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, ps.tex_shadow);
  // ModelFrame::opacity multiplies every material's alpha; add_blend adds the colour (MMD's
  // accessory 加算: source × alpha + destination).
  const float opacity = frame.opacity;
  if (frame.add_blend) glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  for (std::size_t i = 0; i < r.materials.size(); ++i) {
    if (!visible(i) || !(mats[i].diffuse[3] * opacity > 0.0f)) continue;
    const MaterialGl& m = r.materials[i];
    const anim::MaterialValues& v = mats[i];
    if (m.flags & model::kDoubleSided) glDisable(GL_CULL_FACE);
    else {
      glEnable(GL_CULL_FACE);
      glCullFace(GL_BACK);
    }
    if (opacity != 1.0f) {
      const Vec4 diffuse{v.diffuse[0], v.diffuse[1], v.diffuse[2], v.diffuse[3] * opacity};
      glUniform4fv(l.diffuse, 1, diffuse.data());
    } else {
      glUniform4fv(l.diffuse, 1, v.diffuse.data());
    }
    glUniform3fv(l.ambient, 1, v.ambient.data());
    glUniform3fv(l.specular, 1, v.specular.data());
    glUniform1f(l.power, v.specular_power);
    glUniform1i(l.has_texture, m.texture ? 1 : 0);
    glUniform1i(l.sphere_mode, m.sphere ? m.sphere_mode : 0);
    glUniform1i(l.has_toon, m.toon ? 1 : 0);
    const bool receives = ps.self_shadow && frame.self_shadow && (m.flags & model::kReceiveShadow);
    glUniform1i(l.self_shadow, receives ? scene.self_shadow.mode : 0);
    glUniform4fv(l.tex_mul, 1, v.texture_mul.data());
    glUniform4fv(l.tex_add, 1, v.texture_add.data());
    glUniform4fv(l.sph_mul, 1, v.sphere_mul.data());
    glUniform4fv(l.sph_add, 1, v.sphere_add.data());
    glUniform4fv(l.toon_mul, 1, v.toon_mul.data());
    glUniform4fv(l.toon_add, 1, v.toon_add.data());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m.texture);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, m.sphere);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, m.toon);
    draw_range(m);
  }
  if (frame.add_blend) glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  // 5. Edges: inverted hull, front faces culled.
  if (s.edges) {
    glUseProgram(r.prog_edge);
    glUniformMatrix4fv(r.edge_view, 1, GL_FALSE, view.data());
    glUniformMatrix4fv(r.edge_proj, 1, GL_FALSE, proj.data());
    glUniform2f(r.edge_viewport, float(s.width), float(s.height));
    glUniform1f(r.edge_pixels, r.edge_px);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);
    for (std::size_t i = 0; i < r.materials.size(); ++i) {
      const anim::MaterialValues& v = mats[i];
      const float edge_size = v.edge_size * frame.edge_scale;  // × 1 exactly: as stored
      if (!visible(i) || !(r.materials[i].flags & model::kDrawEdge) || !(edge_size > 0)) continue;
      glUniform1f(r.edge_size, edge_size);
      if (frame.edge_color)
        glUniform4f(r.edge_color, (*frame.edge_color)[0], (*frame.edge_color)[1], (*frame.edge_color)[2], v.edge_color[3]);
      else
        glUniform4fv(r.edge_color, 1, v.edge_color.data());
      draw_range(r.materials[i]);
    }
    glCullFace(GL_BACK);
  }
  glBindVertexArray(0);
}

Result<void> Renderer::draw(const ModelFrame& frame, const SceneFrame& scene) {
  Renderer* self = this;
  return draw_scene(std::span<Renderer* const>(&self, 1), std::span<const ModelFrame>(&frame, 1), scene);
}

// Whether `order` is empty or a permutation of 0..n − 1 (draw_scene's draw order).
static bool is_draw_order(std::span<const std::size_t> order, std::size_t n) {
  if (order.empty()) return true;
  if (order.size() != n) return false;
  std::vector<char> seen(n, 0);
  for (const std::size_t k : order) {
    if (k >= n || seen[k]) return false;
    seen[k] = 1;
  }
  return true;
}

Result<void> Renderer::draw_scene(std::span<Renderer* const> renderers, std::span<const ModelFrame> frames,
                                  const SceneFrame& scene, std::span<const std::size_t> order) {
  if (renderers.empty() || renderers.size() != frames.size() || !renderers[0])
    return make_error(ErrorCode::invalid_argument, "draw_scene needs one frame per renderer and at least one renderer");
  if (!is_draw_order(order, renderers.size()))
    return make_error(ErrorCode::invalid_argument, "draw_scene: the draw order must name every renderer once (" +
                                                       std::to_string(order.size()) + " indices for " +
                                                       std::to_string(renderers.size()) + " renderers)");
  Impl& t = *renderers[0]->impl_;  // the target: its framebuffer, shadow map and settings
  if (!t.settings.framebuffer)
    return make_error(ErrorCode::invalid_argument, "the first renderer was created without a framebuffer");
  auto uploaded = upload_frames(renderers, frames, "draw_scene");
  if (!uploaded) return std::unexpected(uploaded.error());
  const std::vector<std::span<const anim::MaterialValues>>& mats = *uploaded;

  const RenderSettings& s = t.settings;
  const float aspect = float(s.width) / float(s.height);
  PassState ps;
  ps.proj = projection_matrix(scene.camera, aspect);
  ps.view = scene.camera.view;
  ps.light_dir = normalized(scene.light.direction);
  ps.to_light = {-ps.light_dir[0], -ps.light_dir[1], -ps.light_dir[2]};
  ps.self_shadow = s.self_shadow && t.tex_shadow && scene.self_shadow.mode != 0;
  ps.light_vp = ps.self_shadow ? shadow_matrix(scene) : Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  ps.tex_shadow = t.tex_shadow;
  ps.map_vp = ps.light_vp;
  if (ps.self_shadow && s.shadow_fit) fit_shadow_map(renderers, frames, s, ps);
  glFrontFace(GL_CW);  // MMD's front faces are clockwise on screen (Direct3D)
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_STENCIL_TEST);

  // 1. Self-shadow map: every model's depth in the one map.
  if (ps.self_shadow) {
    const int size = std::clamp(s.shadow_map_size, 16, 8192);
    glBindFramebuffer(GL_FRAMEBUFFER, t.fbo_shadow);
    glViewport(0, 0, size, size);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    for (std::size_t k = 0; k < renderers.size(); ++k)
      if (frames[k].visible && frames[k].self_shadow) shadow_pass(*renderers[k]->impl_, mats[k], ps);
  }

  // 2. Clear.
  glBindFramebuffer(GL_FRAMEBUFFER, t.fbo_msaa);
  glViewport(0, 0, s.width, s.height);
  glClearColor(s.background[0], s.background[1], s.background[2], 1.0f);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (!scene.backgrounds.empty()) {
    if (!t.background) t.background = std::make_unique<detail::BackgroundPass>();
    if (auto e = t.background->draw(scene.backgrounds, s.width, s.height); !e) return e;
  }

  // 3–5. Every model in the draw order, one depth buffer.
  for (std::size_t n = 0; n < renderers.size(); ++n) {
    const std::size_t k = order.empty() ? n : order[n];
    if (frames[k].visible) color_pass(*renderers[k]->impl_, mats[k], frames[k], scene, ps);
  }

  // 6. Resolve MSAA (the anti-aliasing filter, when chosen, runs in read()).
  glBindFramebuffer(GL_READ_FRAMEBUFFER, t.fbo_msaa);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t.fbo_resolve);
  glBlitFramebuffer(0, 0, s.width, s.height, 0, 0, s.width, s.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return {};
}

void Renderer::read(Image& out) {
  Impl& r = *impl_;
  if (!r.settings.framebuffer) return;  // nothing of its own to read
  const int w = r.settings.width, h = r.settings.height;
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  out.width = w;
  out.height = h;
  out.rgba.resize(row * static_cast<std::size_t>(h));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, r.fbo_resolve);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out.rgba.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  // OpenGL's rows start at the bottom: flip in place.
  std::vector<std::uint8_t>& px = out.rgba;
  for (int y = 0; y < h / 2; ++y)
    std::swap_ranges(px.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row),
                     px.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y + 1) * row),
                     px.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(h - 1 - y) * row));
  if (r.settings.fxaa) detail::fxaa(out, r.fxaa);
}

// Mask and depth (renderer.hpp draw_ids): the shadow map's vertex shader with the camera's
// view-projection and the edges' flat fragment shader, so no shader of its own.
Result<void> Renderer::draw_ids(std::span<Renderer* const> renderers, std::span<const ModelFrame> frames,
                                const SceneFrame& scene, std::vector<std::uint8_t>* mask, std::vector<float>* depth) {
  if (renderers.empty() || renderers.size() != frames.size() || !renderers[0])
    return make_error(ErrorCode::invalid_argument, "draw_ids needs one frame per renderer and at least one renderer");
  if (renderers.size() > 255) return make_error(ErrorCode::invalid_argument, "draw_ids: more than 255 models");
  Impl& t = *renderers[0]->impl_;
  if (!t.settings.framebuffer)
    return make_error(ErrorCode::invalid_argument, "the first renderer was created without a framebuffer");
  const RenderSettings& s = t.settings;
  IdBuffer& ib = t.ids;
  if (!ib.fbo) {
    auto p = gl::make_program(shaders::kDepthVs, shaders::kFlatFs, "id");
    if (!p) return std::unexpected(p.error());
    ib.prog = *p;
    ib.vp = glGetUniformLocation(ib.prog, "u_light_vp");
    ib.color = glGetUniformLocation(ib.prog, "u_color");
    glGenFramebuffers(1, &ib.fbo);
    glGenRenderbuffers(1, &ib.rb_color);
    glGenRenderbuffers(1, &ib.rb_depth);
    glBindFramebuffer(GL_FRAMEBUFFER, ib.fbo);
    glBindRenderbuffer(GL_RENDERBUFFER, ib.rb_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, s.width, s.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ib.rb_color);
    glBindRenderbuffer(GL_RENDERBUFFER, ib.rb_depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, s.width, s.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ib.rb_depth);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) return make_error(ErrorCode::unsupported, "the driver refuses the id (mask / depth) framebuffer");
  }
  auto uploaded = upload_frames(renderers, frames, "draw_ids");
  if (!uploaded) return std::unexpected(uploaded.error());
  const std::vector<std::span<const anim::MaterialValues>>& mats = *uploaded;
  const Mat4 proj = projection_matrix(scene.camera, float(s.width) / float(s.height));
  const Mat4 vp = gl::mul(proj, scene.camera.view);
  glBindFramebuffer(GL_FRAMEBUFFER, ib.fbo);
  glViewport(0, 0, s.width, s.height);
  glFrontFace(GL_CW);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  glClearColor(0, 0, 0, 0);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glUseProgram(ib.prog);
  glUniformMatrix4fv(ib.vp, 1, GL_FALSE, vp.data());
  for (std::size_t k = 0; k < renderers.size(); ++k) {
    if (!frames[k].visible || !(frames[k].opacity > 0.0f)) continue;  // hidden this frame: not in the mask
    Impl& r = *renderers[k]->impl_;
    glUniform4f(ib.color, float(k + 1) / 255.0f, 0, 0, 1);
    glBindVertexArray(r.vao);
    for (std::size_t i = 0; i < r.materials.size(); ++i) {
      if (!material_visible(r, mats[k], i)) continue;
      if (r.materials[i].flags & model::kDoubleSided) glDisable(GL_CULL_FACE);
      else {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
      }
      draw_range(r.materials[i]);
    }
    glBindVertexArray(0);
  }
  const int w = s.width, h = s.height;
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  // Rows come bottom first: row y of the result is GL row h − 1 − y.
  if (mask) {
    std::vector<std::uint8_t> rgba(n * 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    mask->resize(n);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        (*mask)[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] =
            rgba[(static_cast<std::size_t>(h - 1 - y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 4];
  }
  if (depth) {
    std::vector<float> d(n);
    glReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_FLOAT, d.data());
    depth->resize(n);
    // Window depth d → NDC z = 2d − 1 → view z, inverting projection_matrix: perspective
    // z = 2fn / ((f + n) − z_ndc (f − n)); orthographic z = (z_ndc (f − n) + (f + n)) / 2.
    const double f = kFar, nr = kNear;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const float dv = d[static_cast<std::size_t>(h - 1 - y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
        float z = std::numeric_limits<float>::infinity();
        if (dv < 1.0f) {
          const double ndc = 2.0 * double(dv) - 1.0;
          z = scene.camera.perspective ? float(2 * f * nr / ((f + nr) - ndc * (f - nr))) : float((ndc * (f - nr) + (f + nr)) / 2);
        }
        (*depth)[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)] = z;
      }
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return {};
}

}  // namespace mmdkit::render
