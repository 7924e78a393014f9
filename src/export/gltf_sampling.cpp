// mmdkit — glTF animation samples from the evaluation pipeline (gltf_sampling.hpp).
#include "mmdkit/export/gltf_sampling.hpp"

#include <cmath>
#include <numbers>

#include "mmdkit/anim/character.hpp"
#include "core/try.hpp"

namespace mmdkit::exporter {

namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

// The camera's orientation: R = Ry(−ry) · Rx(−rx) · Rz(−rz) (anim/camera.hpp).
Quat camera_rotation(const Vec3& r) {
  const Quat qx = quat_from_axis_angle({1, 0, 0}, -r[0]);
  const Quat qy = quat_from_axis_angle({0, 1, 0}, -r[1]);
  const Quat qz = quat_from_axis_angle({0, 0, 1}, -r[2]);
  return quat_multiply(qy, quat_multiply(qx, qz));
}

}  // namespace

Result<GltfAnimation> sample_animation(anim::Character& character, const GltfSampling& s) {
  const double last = s.last_frame < 0 ? static_cast<double>(character.data().last_frame()) : s.last_frame;
  if (!std::isfinite(s.first_frame) || s.first_frame < 0 || !std::isfinite(last) || last < s.first_frame)
    return make_error(ErrorCode::invalid_argument, "glTF sampling: the frame range must be finite, >= 0 and not reversed");
  if (!(s.fps > 0) || !std::isfinite(s.fps))
    return make_error(ErrorCode::invalid_argument, "glTF sampling: fps must be > 0");
  const double step = 30.0 / s.fps;
  const double n = std::floor((last - s.first_frame) / step + 1e-9) + 1;
  if (n > 1e6) return make_error(ErrorCode::invalid_argument, "glTF sampling: more than 1000000 samples");
  const auto ns = static_cast<std::size_t>(n);
  const auto& parents = character.data().skeleton().parents();
  const std::size_t nb = parents.size();
  const std::size_t nm = character.data().morph_names().size();
  GltfAnimation an;
  an.fps = s.fps;
  an.sample_count = ns;
  an.translations.resize(ns * nb);
  an.rotations.resize(ns * nb);
  if (s.morphs) an.morph_weights.resize(ns * nm);
  if (s.camera) {
    an.camera_positions.resize(ns);
    an.camera_rotations.resize(ns);
    an.camera_fov.resize(ns);
  }
  for (std::size_t i = 0; i < ns; ++i) {
    const double frame = s.first_frame + static_cast<double>(i) * step;
    if (i && s.progress) s.progress(i, ns);
    if (auto r = s.evaluate ? s.evaluate(frame) : character.evaluate(frame); !r) return std::unexpected(r.error());
    const auto rot = character.pose().model_rotations();
    const auto pos = character.pose().model_positions();
    for (std::size_t b = 0; b < nb; ++b) {
      const std::int32_t p = parents[b];
      if (p < 0) {
        an.rotations[i * nb + b] = rot[b];
        an.translations[i * nb + b] = pos[b];
      } else {
        const Quat inv = quat_conjugate(rot[static_cast<std::size_t>(p)]);
        an.rotations[i * nb + b] = quat_multiply(inv, rot[b]);
        an.translations[i * nb + b] = quat_rotate(inv, sub(pos[b], pos[static_cast<std::size_t>(p)]));
      }
    }
    if (s.morphs) {
      const auto w = character.morph_weights();
      std::copy(w.begin(), w.end(), an.morph_weights.begin() + static_cast<std::ptrdiff_t>(i * nm));
    }
    if (s.camera) {
      const anim::CameraState& c = character.camera();
      an.camera_positions[i] = c.position;
      an.camera_rotations[i] = camera_rotation(c.rotation);
      an.camera_fov[i] = c.fov_degrees * std::numbers::pi_v<float> / 180.0f;
    }
  }
  return an;
}

}  // namespace mmdkit::exporter
