// mmdkit — draws one MMD model the way MMD's default shader does, offscreen, into RGBA images.
//
// What is drawn, in order (formulas with their sources: docs/RENDER.md):
//   1. shadow map (self-shadow, when enabled and the frame's self-shadow mode is not 0): depth of
//      the materials with the "draw shadow map" flag, seen from the light;
//   2. ground shadow: materials with the "ground shadow" flag flattened onto the plane y = 0 along
//      the light direction, in the light colour;
//   3. materials in file order: colour = saturate(diffuse·light + ambient), × texture, sphere map
//      (multiply / add / sub-texture), × toon ramp sampled by N·L (or the shadowed toon colour
//      where the self-shadow map says so), + Blinn-Phong specular; alpha blended, depth write on,
//      back faces culled unless double-sided; a material whose diffuse alpha is 0 is not drawn;
//      a model whose Model::shading is accessory (DirectX .x, model/accessory.hpp) is shaded
//      with MMD's accessory shader instead: no toon, saturate(diffuse·(light − 0.3) + emissive +
//      vertex colour·diffuse·saturate(N·L)) × texture × sphere, + specular × 0.1 (docs/RENDER.md
//      "Accessories");
//   4. edges: materials with the "draw edge" flag as an inverted hull (front faces culled), pushed
//      out along the view-space normal by edge size × vertex edge scale × edge_pixels pixels.
// Spaces: MMD's left-handed Y-up world in MMD units (docs/CONVENTIONS.md); the model's vertices
// are given in world space (a posed model is in world space). Cameras: anim::CameraState (view
// matrix as anim/camera.hpp builds it; vertical field of view in degrees). Lights:
// anim::LightState. Textures are read once at creation (texture.hpp rules).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/anim/morph.hpp"
#include "mmdkit/anim/self_shadow.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::render {

/// Output and look of a renderer (fixed at creation).
struct RenderSettings {
  int width = 1280;             ///< pixels, 1..16384
  int height = 720;             ///< pixels, 1..16384
  /// MSAA samples (1 = off); clamped to the driver's GL_MAX_SAMPLES (llvmpipe: 4).
  int msaa = 4;
  std::array<float, 3> background{1.0f, 1.0f, 1.0f};  ///< RGB 0..1 (MMD's default is white)
  bool edges = true;            ///< draw edges (outlines)
  bool ground_shadow = true;    ///< draw the ground shadow
  /// The ground shadow at alpha 0.5 instead of 1 (MMD's translucent ground shadow, as nanoem
  /// draws it: the light colour at half alpha). false draws exactly as before.
  bool translucent_ground_shadow = false;
  bool self_shadow = true;      ///< use the self-shadow map (mode from the frame)
  /// Pixels of outline per unit of edge size × vertex edge scale. 0 = MMD-like automatic value:
  /// height × 0.001 / (2·tan 15°) ≈ height / 536 (nanoem's constant-width edge at the default
  /// 30° view angle; docs/RENDER.md "Edges").
  float edge_pixels = 0;
  int shadow_map_size = 2048;   ///< self-shadow map, pixels per side (nanoem and MMD: 2048)
  /// false: the self-shadow map covers MMD's whole box (±1/distance around the look-at point,
  /// docs/RENDER.md "Self-shadow"). true: each frame it covers only the part of that box where the
  /// models' vertices lie (light space, snapped to a power-of-two fraction of the box and to whole
  /// texels so it does not shimmer); the shadows land where they did, with finer texels from a
  /// smaller map. The comparison and mode 2's factor use MMD's box coordinates either way.
  bool shadow_fit = false;
  /// A post-process anti-aliasing filter (FXAA-like, docs/RENDER.md "Anti-aliasing") applied by
  /// read() to the read-back picture (on the CPU); the picture itself is then drawn with one
  /// sample per pixel (msaa is ignored).
  bool fxaa = false;
  /// Folder with MMD's shared toon01.bmp .. toon10.bmp; empty = the model's folder, then the
  /// generated approximations (toon.hpp).
  std::filesystem::path toon_dir;
  /// false: no framebuffer or shadow map of its own; the renderer is only drawn into the picture of
  /// another through draw_scene (accessories and further models of a scene; saves their memory).
  bool framebuffer = true;
};

/// The anti-aliasing and self-shadow map choices of `mmdkit render` and mmdkit.Renderer, applied to
/// `settings` (msaa, fxaa, shadow_map_size, shadow_fit); docs/RENDER.md "Anti-aliasing".
/// `aa`: "fxaa", "msaa" or "none"; empty = not given. `msaa`: samples (1..64), 0 = not given.
/// `shadow_map`: pixels per side of a map covering MMD's whole box (16..8192, the look before the
/// fitted map), 0 = not given: a fitted map of max(width, height) / 4 rounded up to a power of
/// two, 256..2048.
///   nothing given           → fxaa, one sample, fitted shadow map (the default look);
///   msaa N alone            → N samples, no filter (N = 1: no anti-aliasing), as before --aa;
///   aa "msaa" [msaa N]      → N samples (default 4); aa "fxaa" / "none" → one sample.
/// Errors: invalid_argument for an unknown `aa`, samples outside 1..64, a map size outside
/// 16..8192, or "fxaa" / "none" with more than one sample.
Result<void> choose_quality(RenderSettings& settings, std::string_view aa, int msaa, int shadow_map);

/// One frame of the model: its posed geometry and material values. Spans may be empty where noted.
struct ModelFrame {
  std::span<const Vec3> positions;  ///< per vertex, world space, MMD units (required)
  std::span<const Vec3> normals;    ///< per vertex, world space, unit (required)
  /// Per vertex UV offsets (x, y used; UV morphs, anim::MorphWorkspace::uv_offsets); empty = none.
  std::span<const Vec4> uv_offsets;
  /// Per vertex × additional UV offsets (additional UV morphs); empty = none.
  std::span<const Vec4> additional_uv_offsets;
  /// Per material values after material morphs (anim::MorphWorkspace::materials); empty = as stored.
  std::span<const anim::MaterialValues> materials;
  /// false: not drawn this frame (no shadow, no colour; the spans are not read). A scene's
  /// accessory hidden by its keys, a model hidden by its motions' property keys (MMD's 表示).
  bool visible = true;
  /// 0..1, multiplies every material's diffuse alpha (an accessory's opacity, MMD's 不透明度); a
  /// material whose alpha becomes 0 is not drawn. 1 draws exactly as before.
  float opacity = 1.0f;
  /// Materials blended additively (source × alpha added to the picture: MMD's accessory 加算
  /// setting, a project model's 加算合成) instead of over; ground shadow and edges as usual.
  bool add_blend = false;
  /// false: the model neither casts into nor receives the self-shadow map (MMD's self-shadow per
  /// model; nanoem Model::draw / drawColor). true draws exactly as before.
  bool self_shadow = true;
  /// false: no ground shadow (an accessory's 影 off). true: the materials' ground-shadow flags decide.
  bool ground_shadow = true;
  /// Multiplies every material's edge size (MMD's edge width per model, a project's setting); 0:
  /// no edges. 1 draws exactly as before.
  float edge_scale = 1.0f;
  /// Replaces every material's edge colour (RGB 0..1; the material's edge alpha is kept): a
  /// scene's edge colour for a model whose materials store none (PMD). Unset: as stored.
  std::optional<std::array<float, 3>> edge_color;
};

/// A picture drawn behind everything (a scene's background image or video frame,
/// docs/RENDER.md "Background pictures"): stretched over `rect`, bilinear, opaque.
struct BackgroundLayer {
  const Image* image = nullptr;  ///< RGBA8, top row first, 1..16384 pixels a side (alpha ignored)
  /// left, top, width, height in output pixels from the picture's top-left corner (may reach
  /// outside the picture: the part inside is drawn).
  std::array<float, 4> rect{};
};

/// The scene around the model at one frame.
struct SceneFrame {
  anim::CameraState camera;          ///< position and view must be filled (anim::update_camera_view)
  anim::LightState light;            ///< colour as stored (0..1), direction the light travels
  anim::SelfShadowState self_shadow; ///< mode 0 = off, 1 / 2 = MMD's modes; stored distance
  /// Drawn in order over the background colour, before the models; empty = the colour alone.
  std::vector<BackgroundLayer> backgrounds;
};

/// A model uploaded to the GPU, with its textures, and the offscreen framebuffer.
class Renderer {
 public:
  /// Uploads `model` (faces, static vertex data, materials, textures resolved in `folder`, the
  /// model file's folder). Missing or unreadable textures become white; each file is reported
  /// once in `warnings` (code texture_missing or invalid_value, naming the model and the folder).
  /// Errors: invalid_argument for a size outside 1..16384 or larger than the driver allows,
  /// unsupported when a framebuffer cannot be created. The context must be current.
  static Result<Renderer> create(Context& context, const model::Model& model, const std::filesystem::path& folder,
                                 const RenderSettings& settings, std::vector<Warning>& warnings);

  Renderer(Renderer&&) noexcept;
  Renderer& operator=(Renderer&&) noexcept;
  ~Renderer();

  /// Draws one frame into the offscreen framebuffer. Errors: invalid_argument when the spans'
  /// sizes do not match the model.
  Result<void> draw(const ModelFrame& model, const SceneFrame& scene);

  /// Several models in one picture (a scene, docs/SCENE.md): one camera and light, one depth
  /// buffer and one self-shadow map holding every model. renderers[k] draws frames[k]; the picture,
  /// shadow map and settings (size, background, shadow) are those of renderers[0] (read() it);
  /// the others may be created with RenderSettings::framebuffer = false and should share the
  /// look settings. Order: every model's depth into the shadow map, clear, then every model in
  /// order (ground shadow, materials, edges). draw(frame, scene) = draw_scene of one renderer.
  /// `order` (optional): the indices of the renderers in the order their colour passes run (a
  /// permutation of 0..size − 1; empty: 0, 1, ...), MMD's draw order of models and accessories.
  /// Errors: invalid_argument when the spans' sizes differ or are empty, `order` is not such a
  /// permutation, the first renderer has no framebuffer, or a frame does not match its model
  /// (Error::record = its index).
  static Result<void> draw_scene(std::span<Renderer* const> renderers, std::span<const ModelFrame> frames,
                                 const SceneFrame& scene, std::span<const std::size_t> order = {});

  /// The geometry of the last draw_scene drawn once more, without MSAA, into an id buffer of
  /// renderers[0] (created on first use): the faces of every drawn material of renderers[k] as
  /// id k + 1, depth-tested; no edges, no ground shadow, no blending. `mask` (optional) receives
  /// per pixel the id of the nearest face (0 = none), `depth` (optional) its view-space depth in
  /// MMD units (distance along the camera's viewing axis; +infinity = none); both top row first,
  /// width × height. `frames` and `scene` must be those of the last draw_scene. Errors: as
  /// draw_scene's; invalid_argument for more than 255 renderers; unsupported when the driver
  /// refuses the id framebuffer.
  static Result<void> draw_ids(std::span<Renderer* const> renderers, std::span<const ModelFrame> frames,
                               const SceneFrame& scene, std::vector<std::uint8_t>* mask, std::vector<float>* depth);

  /// Reads the last frame drawn (MSAA resolved) into `out`, top row first; `out` is resized on
  /// first use and then reused (no allocation per frame). A renderer without a framebuffer leaves
  /// `out` as it is.
  void read(Image& out);

  const RenderSettings& settings() const noexcept;
  /// The edge width in pixels per unit used (edge_pixels or its automatic value).
  float edge_pixels() const noexcept;

  struct Impl;  ///< private (src/render/renderer.cpp)

 private:
  explicit Renderer(std::unique_ptr<Impl> impl) noexcept;
  /// Uploads every renderer's frame (draw_scene, draw_ids); the material values to draw with.
  static Result<std::vector<std::span<const anim::MaterialValues>>> upload_frames(
      std::span<Renderer* const> renderers, std::span<const ModelFrame> frames, const char* who);
  std::unique_ptr<Impl> impl_;
};

/// The projection MMD uses for `camera` at the aspect ratio width / height: perspective with the
/// vertical view angle, near plane 0.5, far plane 100000 (MMD units); orthographic cameras
/// (perspective off) see a view of height 2·|distance|·tan(angle / 2). Maps MMD's left-handed
/// view space to OpenGL clip space (column-major). For projecting points in tools and tests.
Mat4 projection_matrix(const anim::CameraState& camera, float aspect) noexcept;

}  // namespace mmdkit::render
