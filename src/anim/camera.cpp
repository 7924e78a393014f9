// MMD camera sampling and view matrix (camera.hpp). GLM stays in this file.
#include "mmdkit/anim/camera.hpp"

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "mmdkit/anim/bezier.hpp"
#include "mmdkit/anim/sampler.hpp"

namespace mmdkit::anim {

std::vector<CameraTrackKey> build_camera_track(std::span<const vmd::CameraKey> keys) {
  std::vector<CameraTrackKey> out;
  out.reserve(keys.size());
  for (const vmd::CameraKey& k : keys) {
    CameraTrackKey c;
    c.frame = k.frame;
    c.target = k.target;
    c.rotation = k.rotation;
    c.distance = k.distance;
    c.fov_degrees = static_cast<float>(k.view_angle);
    c.perspective = k.perspective == 0;
    c.curves = vmd::decode_camera_interpolation(k.interpolation);
    out.push_back(c);
  }
  sort_and_dedupe(out);
  return out;
}

namespace {
// R = Ry(−ry) · Rx(−rx) · Rz(−rz), column vectors (camera.hpp).
glm::dmat3 camera_rotation(const Vec3& r) {
  const double ax = -static_cast<double>(r[0]), ay = -static_cast<double>(r[1]), az = -static_cast<double>(r[2]);
  const double cx = std::cos(ax), sx = std::sin(ax), cy = std::cos(ay), sy = std::sin(ay), cz = std::cos(az),
               sz = std::sin(az);
  // glm matrices are column-major: glm::dmat3(col0, col1, col2).
  const glm::dmat3 rx(glm::dvec3(1, 0, 0), glm::dvec3(0, cx, sx), glm::dvec3(0, -sx, cx));
  const glm::dmat3 ry(glm::dvec3(cy, 0, -sy), glm::dvec3(0, 1, 0), glm::dvec3(sy, 0, cy));
  const glm::dmat3 rz(glm::dvec3(cz, sz, 0), glm::dvec3(-sz, cz, 0), glm::dvec3(0, 0, 1));
  return ry * rx * rz;
}
}  // namespace

void update_camera_view(CameraState& s) noexcept {
  const glm::dmat3 r = camera_rotation(s.rotation);
  const glm::dvec3 target(s.target[0], s.target[1], s.target[2]);
  const glm::dvec3 eye = target + r * glm::dvec3(0, 0, s.distance);
  const glm::dvec3 forward = r * glm::dvec3(0, 0, 1);
  const glm::dvec3 up = r * glm::dvec3(0, 1, 0);
  s.position = {static_cast<float>(eye.x), static_cast<float>(eye.y), static_cast<float>(eye.z)};
  const glm::dmat4 view = glm::lookAtLH(eye, eye + forward, up);
  for (int c = 0; c < 4; ++c)
    for (int rr = 0; rr < 4; ++rr) s.view[static_cast<std::size_t>(4 * c + rr)] = static_cast<float>(view[c][rr]);
}

CameraState sample_camera(std::span<const CameraTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  CameraState s;
  if (!keys.empty()) {
    const Segment seg = find_segment(keys, frame, cursor);
    const CameraTrackKey& a = keys[seg.first];
    s.target = a.target;
    s.rotation = a.rotation;
    s.distance = a.distance;
    s.fov_degrees = a.fov_degrees;
    s.perspective = a.perspective;
    const CameraTrackKey& b = keys[seg.second];
    // Keys one frame apart are a cut: a's values hold until b (docs/formats/NOTES.md "Camera semantics").
    if (seg.first != seg.second && b.frame - a.frame > 1) {
      auto lerp = [](float va, float vb, float w) { return va + (vb - va) * w; };
      const vmd::Curve* axis[3] = {&b.curves.x, &b.curves.y, &b.curves.z};
      for (std::size_t i = 0; i < 3; ++i) s.target[i] = lerp(a.target[i], b.target[i], bezier_weight(*axis[i], seg.x));
      const float wr = bezier_weight(b.curves.rotation, seg.x);
      for (std::size_t i = 0; i < 3; ++i) s.rotation[i] = lerp(a.rotation[i], b.rotation[i], wr);
      s.distance = lerp(a.distance, b.distance, bezier_weight(b.curves.distance, seg.x));
      s.fov_degrees = lerp(a.fov_degrees, b.fov_degrees, bezier_weight(b.curves.view_angle, seg.x));
    }
  }
  update_camera_view(s);
  return s;
}

}  // namespace mmdkit::anim
