// mmdkit — a render session of a whole scene (scene/scene.hpp): one Renderer per character
// (models in order, then the stage) and per visible accessory, drawn into one picture
// (Renderer::draw_scene: one camera and light, one depth buffer, one self-shadow map) in MMD's
// draw order: the accessories before SceneDescription::accessories_after_models, the characters,
// the other accessories; each model's self_shadow and add_blend, each accessory's ground shadow
// at the frame (Scene::accessory_shadow) go into its ModelFrame. This is the
// set-up and per-frame drawing `mmdkit render` uses, shared with the Python module's
// mmdkit.Renderer so that both give the same pixels for the same inputs.
//
// Per frame the caller evaluates the scene (Scene::evaluate, or physics::ScenePhysics), then
// draw() skins every character (anim::Character::skin), maps its vertices to the world by its
// placement, moves the accessories' stored vertices by their world transforms (drawn rigidly), and
// draws with the scene's camera, light and self-shadow. read() gives the picture; read_depth() and
// read_mask() draw the same geometry once more without MSAA into an id buffer (faces only: no
// edges, no ground shadow) and read its depth or the index of the item seen at each pixel.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/renderer.hpp"

namespace mmdkit {
class ThreadPool;
}
namespace mmdkit::scene {
class Scene;
}

namespace mmdkit::render {

/// A scene's renderers and the buffers of its frames (see the file comment). Move-only; the scene
/// it was created for must outlive it and not be moved.
class SceneRenderer {
 public:
  /// Uploads every character and visible accessory of `scene` (loaded with geometry) with
  /// `settings` (the first item owns the picture; the others have no framebuffer of their own).
  /// Textures are resolved in each file's folder; Renderer::create's warnings are appended to
  /// `warnings` with Warning::file = the item's file. Errors: Renderer::create's, with
  /// Error::file = the item's file; invalid_argument for a scene with nothing to draw or more than
  /// 255 items (the mask's limit).
  static Result<SceneRenderer> create(Context& context, const scene::Scene& scene, const RenderSettings& settings,
                                      std::vector<Warning>& warnings);

  SceneRenderer(SceneRenderer&&) noexcept;
  SceneRenderer& operator=(SceneRenderer&&) noexcept;
  ~SceneRenderer();

  /// Draws the frame the scene was last evaluated at (file comment). `pool` (optional) skins in
  /// parallel. Errors: Character::skin's and Renderer::draw_scene's.
  Result<void> draw(scene::Scene& scene, ThreadPool* pool = nullptr);
  /// draw() in two steps, for callers that time them apart (`render`'s summary counts skinning
  /// as evaluation): prepare() skins and places (errors: Character::skin's), draw_prepared()
  /// draws what prepare() gave (errors: Renderer::draw_scene's).
  Result<void> prepare(scene::Scene& scene, ThreadPool* pool = nullptr);
  Result<void> draw_prepared();

  /// The last picture drawn (Renderer::read: RGBA8, top row first).
  void read(Image& out);

  /// Depth of the last frame drawn: per pixel (top row first, width × height) the view-space
  /// depth in MMD units, i.e. the distance along the camera's viewing axis from the eye to the
  /// nearest face of any item (not the Euclidean distance; orthographic cameras: from the eye
  /// plane); +infinity where no face is (background). Faces of every drawn material count,
  /// translucent ones too; edges and the ground shadow do not. Precision: the 32-bit float depth
  /// buffer over MMD's near 0.5 / far 100000 planes, about depth² × 1.2e-7 units (≈ 3e-4 at 50).
  /// Errors: unsupported when the driver refuses the id framebuffer.
  Result<void> read_depth(std::vector<float>& out);

  /// Which item each pixel shows (top row first, width × height): 0 = background, k = item k − 1
  /// (items: characters in scene order — models, then the stage — then the visible
  /// accessories). Same geometry and rules as read_depth (no anti-aliasing: one item per pixel).
  Result<void> read_mask(std::vector<std::uint8_t>& out);

  /// Number of items drawn (characters + visible accessories).
  std::size_t item_count() const noexcept;
  /// The file of item k (for messages).
  const std::filesystem::path& item_file(std::size_t k) const noexcept;
  const RenderSettings& settings() const noexcept;

  struct Impl;  ///< private (src/render/scene_renderer.cpp)

 private:
  explicit SceneRenderer(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmdkit::render
