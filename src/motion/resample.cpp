// mmdkit — `resample` (motion/resample.hpp).
#include "mmdkit/motion/resample.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "tracks.hpp"

namespace mmdkit::motion {

namespace {

struct Clock {
  double fps;
  std::uint32_t every;
  std::size_t budget = kMaxResampleKeys;

  // Output frames for a track whose input keys run from f0 to f1.
  Result<std::vector<std::uint32_t>> frames(std::uint32_t f0, std::uint32_t f1) {
    const double g0 = std::round(f0 * 30.0 / fps), g1 = std::round(f1 * 30.0 / fps);
    if (g1 > 4294967295.0) return make_error(ErrorCode::limit_exceeded, "a resampled frame is beyond 4294967295");
    const double n = std::floor((g1 - g0) / every) + 2;
    if (n > static_cast<double>(budget))
      return make_error(ErrorCode::limit_exceeded, "resample would write more than " + std::to_string(kMaxResampleKeys) + " keys");
    std::vector<std::uint32_t> out;
    for (double g = g0; g < g1; g += every) out.push_back(static_cast<std::uint32_t>(g));
    out.push_back(static_cast<std::uint32_t>(g1));
    budget -= out.size();
    return out;
  }
  double source(std::uint32_t g) const { return g * fps / 30.0; }
  std::uint32_t retime(std::uint32_t f) const { return static_cast<std::uint32_t>(std::min(4294967295.0, std::round(f * 30.0 / fps))); }
};

std::size_t in_force(const std::vector<std::uint32_t>& f, double t) {
  auto it = std::upper_bound(f.begin(), f.end(), t, [](double v, std::uint32_t x) { return v < x; });
  return it == f.begin() ? 0 : static_cast<std::size_t>(it - f.begin()) - 1;
}

template <class Key>
void retime_stepped(const std::vector<Key>& in, std::vector<Key>& out, const Clock& c) {
  std::map<std::uint32_t, Key> by_frame;  // later in time (and later in file order) wins
  for (std::size_t i : detail::sorted_unique(in)) {
    Key k = in[i];
    k.frame = c.retime(k.frame);
    by_frame[k.frame] = k;
  }
  for (auto& [f, k] : by_frame) out.push_back(k);
}

}  // namespace

Result<vmd::Motion> resample(const vmd::Motion& m, const ResampleOptions& o) {
  if (!(std::isfinite(o.fps) && o.fps > 0))
    return make_error(ErrorCode::invalid_argument, "the frame rate must be a finite number > 0");
  if (o.every == 0) return make_error(ErrorCode::invalid_argument, "--every must be at least 1");
  Clock c{o.fps, o.every};
  vmd::Motion out = detail::without_keys(m);

  auto bones = detail::tracks_by_name(m.bone_keys, m.bone_names.size(), "bone keyframes");
  if (!bones) return std::unexpected(bones.error());
  for (const auto& idx : *bones) {
    if (idx.empty()) continue;
    std::vector<vmd::BoneKey> sorted;
    std::vector<std::uint32_t> f;
    for (std::size_t i : idx) {
      sorted.push_back(m.bone_keys[i]);
      f.push_back(m.bone_keys[i].frame);
    }
    const auto track = anim::build_bone_track(sorted);
    auto gs = c.frames(f.front(), f.back());
    if (!gs) return std::unexpected(gs.error());
    std::uint32_t cursor = 0;
    for (std::uint32_t g : *gs) {
      const double t = c.source(g);
      const anim::BonePose p = anim::sample_bone(track, t, cursor);
      vmd::BoneKey k;
      k.name = sorted[0].name;
      k.frame = g;
      k.position = p.translation;
      k.rotation = p.rotation;
      const bool off = detail::is_physics_off(sorted[in_force(f, t)].interpolation);
      k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                       vmd::kLinearCurve, off);
      out.bone_keys.push_back(k);
    }
  }
  auto morphs = detail::tracks_by_name(m.morph_keys, m.morph_names.size(), "morph keyframes");
  if (!morphs) return std::unexpected(morphs.error());
  for (const auto& idx : *morphs) {
    if (idx.empty()) continue;
    std::vector<vmd::MorphKey> sorted;
    for (std::size_t i : idx) sorted.push_back(m.morph_keys[i]);
    const auto track = anim::build_morph_track(sorted);
    auto gs = c.frames(sorted.front().frame, sorted.back().frame);
    if (!gs) return std::unexpected(gs.error());
    std::uint32_t cursor = 0;
    for (std::uint32_t g : *gs) out.morph_keys.push_back({sorted[0].name, g, anim::sample_morph(track, c.source(g), cursor)});
  }
  if (!m.camera_keys.empty()) {
    std::vector<vmd::CameraKey> sorted;
    std::vector<std::uint32_t> f;
    for (std::size_t i : detail::sorted_unique(m.camera_keys)) {
      sorted.push_back(m.camera_keys[i]);
      f.push_back(m.camera_keys[i].frame);
    }
    const auto track = anim::build_camera_track(sorted);
    auto gs = c.frames(f.front(), f.back());
    if (!gs) return std::unexpected(gs.error());
    const vmd::CameraInterpolation lin{vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                       vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve};
    std::uint32_t cursor = 0;
    for (std::uint32_t g : *gs) {
      const double t = c.source(g);
      const anim::CameraState s = anim::sample_camera(track, t, cursor);
      vmd::CameraKey k;
      k.frame = g;
      k.distance = s.distance;
      k.target = s.target;
      k.rotation = s.rotation;
      k.view_angle = static_cast<std::uint32_t>(std::lround(std::max(0.0f, s.fov_degrees)));
      k.perspective = sorted[in_force(f, t)].perspective;
      k.interpolation = vmd::encode_camera_interpolation(lin);
      out.camera_keys.push_back(k);
    }
  }
  if (!m.light_keys.empty()) {
    std::vector<vmd::LightKey> sorted;
    for (std::size_t i : detail::sorted_unique(m.light_keys)) sorted.push_back(m.light_keys[i]);
    const auto track = anim::build_light_track(sorted);
    auto gs = c.frames(sorted.front().frame, sorted.back().frame);
    if (!gs) return std::unexpected(gs.error());
    std::uint32_t cursor = 0;
    for (std::uint32_t g : *gs) {
      const anim::LightState s = anim::sample_light(track, c.source(g), cursor);
      out.light_keys.push_back({g, s.color, s.direction});
    }
  }
  retime_stepped(m.self_shadow_keys, out.self_shadow_keys, c);
  retime_stepped(m.property_keys, out.property_keys, c);
  return out;
}

}  // namespace mmdkit::motion
