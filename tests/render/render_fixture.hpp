// Test helpers of the render layer: one GL context per test process, small models built in code,
// and the projection of MMD's default camera computed independently of the renderer.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/renderer.hpp"

namespace mmdkit::render::test {

/// The process' context (created on first use); fails the test with the reason when none.
inline Context* context() {
  static std::optional<Result<Context>> ctx;
  if (!ctx) ctx = Context::create();
  if (!*ctx) {
    ADD_FAILURE() << "no OpenGL context: " << (*ctx).error().to_string();
    return nullptr;
  }
  return &**ctx;
}

/// A vertex facing the camera (normal −Z), BDEF1 on bone 0.
inline model::Vertex vertex(float x, float y, float z, float u, float v, model::Vec3 n = {0, 0, -1}) {
  model::Vertex vx;
  vx.position = {x, y, z};
  vx.normal = n;
  vx.uv = {u, v};
  vx.bones = {0, -1, -1, -1};
  vx.weights = {1, 0, 0, 0};
  return vx;
}

/// Appends an axis-aligned quad in the plane z, from (x0, y0) to (x1, y1), facing −Z (towards MMD's
/// default camera), UV (0,0) at the top left; one material over it (returned for editing).
inline model::Material& add_quad(model::Model& m, float x0, float y0, float x1, float y1, float z) {
  const auto base = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.push_back(vertex(x0, y1, z, 0, 0));  // top left
  m.vertices.push_back(vertex(x1, y1, z, 1, 0));  // top right
  m.vertices.push_back(vertex(x1, y0, z, 1, 1));  // bottom right
  m.vertices.push_back(vertex(x0, y0, z, 0, 1));  // bottom left
  model::Material mat;
  mat.first_index = static_cast<std::uint32_t>(m.faces.size());
  mat.index_count = 6;
  // Clockwise on screen seen from −Z (MMD's front faces).
  for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.faces.push_back(base + i);
  mat.diffuse = {1, 1, 1, 1};
  mat.flags = 0;
  m.materials.push_back(mat);
  return m.materials.back();
}

/// A model with one bone and no geometry.
inline model::Model empty_model() {
  model::Model m;
  m.name = "test";
  model::Bone b;
  b.name = "センター";
  m.bones.push_back(b);
  m.bone_order = {0};
  return m;
}

/// MMD's default scene (camera, light; self-shadow off).
inline SceneFrame default_scene() {
  SceneFrame s;
  anim::update_camera_view(s.camera);
  s.self_shadow.mode = 0;
  return s;
}

/// Pixel (x right, y down; continuous, pixel centres at .5) where MMD's default camera (eye
/// (0, 10, −45), looking +Z, vertical view angle 30°) shows world point p: the pinhole formula,
/// written here independently of the renderer.
inline std::array<double, 2> default_camera_pixel(double x, double y, double z, int w, int h) {
  const double f = 1.0 / std::tan(15.0 * 3.14159265358979 / 180.0);
  const double depth = z + 45.0;
  const double aspect = double(w) / double(h);
  const double nx = f / aspect * x / depth, ny = f * (y - 10.0) / depth;
  return {(nx + 1) * 0.5 * w, (1 - ny) * 0.5 * h};
}

/// Renders `m` (bind pose) with `settings` and `scene`; textures from `folder`; `look` gives the
/// frame's other fields (visible, opacity, add_blend, edge_scale; its spans are replaced).
inline Image render(const model::Model& m, const RenderSettings& settings, const SceneFrame& scene,
                    const std::filesystem::path& folder = {}, std::vector<Warning>* warnings = nullptr,
                    const ModelFrame& look = {}) {
  Image img;
  Context* ctx = context();
  if (!ctx) return img;
  std::vector<Warning> w;
  auto r = Renderer::create(*ctx, m, folder, settings, w);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    return img;
  }
  std::vector<Vec3> pos, nrm;
  for (const auto& v : m.vertices) {
    pos.push_back(v.position);
    nrm.push_back(v.normal);
  }
  ModelFrame f = look;
  f.positions = pos;
  f.normals = nrm;
  if (auto d = r->draw(f, scene); !d) ADD_FAILURE() << d.error().to_string();
  r->read(img);
  if (warnings) *warnings = w;
  return img;
}

/// Small settings: no MSAA (exact pixel colours), no edges or shadows unless a test turns them on.
inline RenderSettings small(int w = 128, int h = 96) {
  RenderSettings s;
  s.width = w;
  s.height = h;
  s.msaa = 1;
  s.edges = false;
  s.ground_shadow = false;
  s.self_shadow = false;
  return s;
}

inline std::array<int, 3> rgb(const Image& img, int x, int y) {
  const std::uint8_t* p = img.at(x, y);
  return {p[0], p[1], p[2]};
}

inline int to255(double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

}  // namespace mmdkit::render::test
