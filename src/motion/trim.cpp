// mmdkit — `trim` (motion/trim.hpp).
#include "mmdkit/motion/trim.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <span>
#include <vector>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/motion/curve.hpp"
#include "tracks.hpp"

namespace mmdkit::motion {

namespace {

constexpr double kRadToDeg = 180.0 / std::numbers::pi;

// One output key of a track: its frame and where it lies in the input track.
struct PlanKey {
  std::uint32_t frame = 0;
  std::int64_t orig = -1;  // index (in the sorted track) of an input key on this frame
  std::int64_t seg = -1;   // i: the segment from input key i to i+1 it ends; -1: none (first, or outside the keys)
  double x0 = 0, x1 = 0;   // normalized times of the previous output key and this one in segment seg
  bool whole = false;      // the output segment is the whole input segment (curves kept)
  bool lead = false;       // the first key inside an input segment: its curves shape nothing in the
                           // output but are the piece up to it, so that a merge after the half
                           // before it (which ends with the same key) keeps that piece
  std::uint32_t prev = 0;  // frame of the previous output key
};

Result<std::vector<PlanKey>> plan(std::span<const std::uint32_t> f, std::uint32_t a, std::uint32_t b, bool exact,
                                  std::size_t& budget) {
  std::set<std::uint32_t> frames{a, b};
  for (std::uint32_t x : f)
    if (x > a && x < b) frames.insert(x);
  if (exact) {
    for (std::size_t i = 0; i + 1 < f.size(); ++i) {
      const bool cut = (f[i] < a && a < f[i + 1]) || (f[i] < b && b < f[i + 1]);
      if (!cut) continue;
      const std::uint32_t lo = std::max(f[i], a), hi = std::min(f[i + 1], b);
      if (hi - lo > budget) return make_error(ErrorCode::limit_exceeded, "trim --exact would add more than " +
                                                                             std::to_string(kMaxExactKeys) + " keys");
      budget -= hi - lo;
      for (std::uint32_t x = lo; x <= hi && x >= lo; ++x) {
        frames.insert(x);
        if (x == hi) break;
      }
    }
  }
  std::vector<PlanKey> out;
  std::uint32_t prev = 0;
  bool have_prev = false;
  for (std::uint32_t q : frames) {
    PlanKey k;
    k.frame = q;
    auto it = std::lower_bound(f.begin(), f.end(), q);
    if (it != f.end() && *it == q) k.orig = it - f.begin();
    if (have_prev) {
      k.prev = prev;
      // Largest i with f[i] <= prev.
      auto jt = std::upper_bound(f.begin(), f.end(), prev);
      if (jt != f.begin()) {
        const std::size_t i = static_cast<std::size_t>(jt - f.begin()) - 1;
        if (i + 1 < f.size()) {
          const double fa = f[i], fb = f[i + 1];
          k.seg = static_cast<std::int64_t>(i);
          k.x0 = (prev - fa) / (fb - fa);
          k.x1 = (q - fa) / (fb - fa);
          k.whole = prev == f[i] && q == f[i + 1];
        }
      }
    }
    if (!have_prev && k.orig < 0) {
      // The first key, inside input segment i: the piece from the key before it (the whole frame
      // before it with `exact`, as the half before it would end).
      auto jt = std::upper_bound(f.begin(), f.end(), q);
      if (jt != f.begin() && jt != f.end()) {
        const std::size_t i = static_cast<std::size_t>(jt - f.begin()) - 1;
        const std::uint32_t p0 = exact ? std::max(f[i], q - 1) : f[i];
        const double fa = f[i], fb = f[i + 1];
        k.seg = static_cast<std::int64_t>(i);
        k.x0 = (p0 - fa) / (fb - fa);
        k.x1 = (q - fa) / (fb - fa);
        k.prev = p0;
        k.lead = true;
      }
    }
    out.push_back(k);
    prev = q;
    have_prev = true;
  }
  return out;
}

// The input key in force at `frame` for stepped tracks: the last at or before it, else the first.
std::size_t in_force(std::span<const std::uint32_t> f, std::uint32_t frame) {
  auto it = std::upper_bound(f.begin(), f.end(), frame);
  return it == f.begin() ? 0 : static_cast<std::size_t>(it - f.begin()) - 1;
}

template <class Key>
std::vector<std::uint32_t> frames_of(const std::vector<Key>& keys, const std::vector<std::size_t>& idx) {
  std::vector<std::uint32_t> f;
  f.reserve(idx.size());
  for (std::size_t i : idx) f.push_back(keys[i].frame);
  return f;
}

vmd::Curve q(const vmd::Curve& c, double x0, double x1, TrimReport& r) {
  const QuantizedCurve qc = quantize_curve(sub_curve(c, x0, x1));
  ++r.split_curves;
  r.max_curve_error = std::max(r.max_curve_error, qc.max_error);
  return qc.curve;
}

// Sample times over the cut output segments of a plan (quarter frames, at most 4096 per segment).
template <class F>
void for_cut_samples(const std::vector<PlanKey>& p, F&& fn) {
  for (const PlanKey& k : p) {
    if (k.seg < 0 || k.whole || k.lead) continue;
    const double span = static_cast<double>(k.frame) - k.prev;
    const double n = std::min(4.0 * span, 4096.0);
    for (double j = 0; j <= n; ++j) {
      const double t = k.prev + span * j / n;
      fn(t, std::floor(t) == t);
    }
  }
}

void note(double& any, double& whole, double e, bool is_whole) {
  any = std::max(any, e);
  if (is_whole) whole = std::max(whole, e);
}

Result<void> trim_bones(const vmd::Motion& in, vmd::Motion& out, const TrimOptions& o, TrimReport& r,
                        std::size_t& budget) {
  auto groups = detail::tracks_by_name(in.bone_keys, in.bone_names.size(), "bone keyframes");
  if (!groups) return std::unexpected(groups.error());
  for (const auto& idx : *groups) {
    if (idx.empty()) continue;
    std::vector<vmd::BoneKey> sorted;
    for (std::size_t i : idx) sorted.push_back(in.bone_keys[i]);
    const std::vector<std::uint32_t> f = frames_of(in.bone_keys, idx);
    const std::vector<anim::BoneTrackKey> track = anim::build_bone_track(sorted);
    auto p = plan(f, o.first, o.last, o.exact, budget);
    if (!p) return std::unexpected(p.error());
    std::vector<vmd::BoneKey> made;
    for (const PlanKey& k : *p) {
      vmd::BoneKey key;
      if (k.orig >= 0) {
        key = sorted[static_cast<std::size_t>(k.orig)];
      } else {
        std::uint32_t cursor = 0;
        const anim::BonePose bp = anim::sample_bone(track, k.frame, cursor);
        key.name = sorted[0].name;
        key.frame = k.frame;
        key.position = bp.translation;
        key.rotation = bp.rotation;
        const bool off = detail::is_physics_off(sorted[in_force(f, k.frame)].interpolation);
        key.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                           vmd::kLinearCurve, off);
      }
      if (k.seg >= 0 && !k.whole) {
        const vmd::BoneKey& shaping = sorted[static_cast<std::size_t>(k.seg) + 1];
        const vmd::BoneInterpolation c = vmd::decode_bone_interpolation(shaping.interpolation);
        const bool off = detail::is_physics_off(key.interpolation);
        key.interpolation = vmd::encode_bone_interpolation(q(c.x, k.x0, k.x1, r), q(c.y, k.x0, k.x1, r),
                                                           q(c.z, k.x0, k.x1, r), q(c.rotation, k.x0, k.x1, r), off);
      }
      made.push_back(key);
    }
    // Measure against the input over the cut segments.
    const std::vector<anim::BoneTrackKey> after = anim::build_bone_track(made);
    std::uint32_t c1 = 0, c2 = 0;
    for_cut_samples(*p, [&](double t, bool whole) {
      const anim::BonePose a = anim::sample_bone(track, t, c1), b = anim::sample_bone(after, t, c2);
      double d = 0;
      for (int i = 0; i < 3; ++i) d += (double(a.translation[i]) - double(b.translation[i])) * (double(a.translation[i]) - double(b.translation[i]));
      note(r.max_translation_error, r.max_translation_error_whole, std::sqrt(d), whole);
      note(r.max_rotation_error_deg, r.max_rotation_error_deg_whole,
           double(quat_angle_between(a.rotation, b.rotation)) * kRadToDeg, whole);
    });
    out.bone_keys.insert(out.bone_keys.end(), made.begin(), made.end());
  }
  return {};
}

Result<void> trim_morphs(const vmd::Motion& in, vmd::Motion& out, const TrimOptions& o, std::size_t& budget) {
  auto groups = detail::tracks_by_name(in.morph_keys, in.morph_names.size(), "morph keyframes");
  if (!groups) return std::unexpected(groups.error());
  for (const auto& idx : *groups) {
    if (idx.empty()) continue;
    std::vector<vmd::MorphKey> sorted;
    for (std::size_t i : idx) sorted.push_back(in.morph_keys[i]);
    const std::vector<std::uint32_t> f = frames_of(in.morph_keys, idx);
    const std::vector<anim::MorphTrackKey> track = anim::build_morph_track(sorted);
    auto p = plan(f, o.first, o.last, o.exact, budget);
    if (!p) return std::unexpected(p.error());
    for (const PlanKey& k : *p) {
      if (k.orig >= 0) {
        out.morph_keys.push_back(sorted[static_cast<std::size_t>(k.orig)]);
        continue;
      }
      std::uint32_t cursor = 0;
      out.morph_keys.push_back({sorted[0].name, k.frame, anim::sample_morph(track, k.frame, cursor)});
    }
  }
  return {};
}

Result<void> trim_camera(const vmd::Motion& in, vmd::Motion& out, const TrimOptions& o, TrimReport& r,
                         std::size_t& budget) {
  if (in.camera_keys.empty()) return {};
  const std::vector<std::size_t> idx = detail::sorted_unique(in.camera_keys);
  std::vector<vmd::CameraKey> sorted;
  for (std::size_t i : idx) sorted.push_back(in.camera_keys[i]);
  const std::vector<std::uint32_t> f = frames_of(in.camera_keys, idx);
  const std::vector<anim::CameraTrackKey> track = anim::build_camera_track(sorted);
  auto p = plan(f, o.first, o.last, o.exact, budget);
  if (!p) return std::unexpected(p.error());
  std::vector<vmd::CameraKey> made;
  for (const PlanKey& k : *p) {
    vmd::CameraKey key;
    if (k.orig >= 0) {
      key = sorted[static_cast<std::size_t>(k.orig)];
    } else {
      std::uint32_t cursor = 0;
      const anim::CameraState s = anim::sample_camera(track, k.frame, cursor);
      key.frame = k.frame;
      key.distance = s.distance;
      key.target = s.target;
      key.rotation = s.rotation;
      key.view_angle = static_cast<std::uint32_t>(std::lround(std::max(0.0f, s.fov_degrees)));
      r.max_view_angle_error_deg = std::max(r.max_view_angle_error_deg, std::abs(double(key.view_angle) - double(s.fov_degrees)));
      key.perspective = sorted[in_force(f, k.frame)].perspective;
      vmd::CameraInterpolation lin{vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                   vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve};
      key.interpolation = vmd::encode_camera_interpolation(lin);
    }
    if (k.seg >= 0 && !k.whole) {
      const vmd::CameraInterpolation c =
          vmd::decode_camera_interpolation(sorted[static_cast<std::size_t>(k.seg) + 1].interpolation);
      const vmd::CameraInterpolation n{q(c.x, k.x0, k.x1, r),        q(c.y, k.x0, k.x1, r),
                                       q(c.z, k.x0, k.x1, r),        q(c.rotation, k.x0, k.x1, r),
                                       q(c.distance, k.x0, k.x1, r), q(c.view_angle, k.x0, k.x1, r)};
      key.interpolation = vmd::encode_camera_interpolation(n);
    }
    made.push_back(key);
  }
  const std::vector<anim::CameraTrackKey> after = anim::build_camera_track(made);
  std::uint32_t c1 = 0, c2 = 0;
  for_cut_samples(*p, [&](double t, bool whole) {
    const anim::CameraState a = anim::sample_camera(track, t, c1), b = anim::sample_camera(after, t, c2);
    double d = std::abs(double(a.distance) - double(b.distance));
    double ang = 0;
    for (int i = 0; i < 3; ++i) {
      d = std::max(d, std::abs(double(a.target[i]) - double(b.target[i])));
      ang = std::max(ang, std::abs(double(a.rotation[i]) - double(b.rotation[i])) * kRadToDeg);
    }
    note(r.max_translation_error, r.max_translation_error_whole, d, whole);
    note(r.max_rotation_error_deg, r.max_rotation_error_deg_whole, ang, whole);
  });
  out.camera_keys = std::move(made);
  return {};
}

Result<void> trim_light(const vmd::Motion& in, vmd::Motion& out, const TrimOptions& o, std::size_t& budget) {
  if (in.light_keys.empty()) return {};
  const std::vector<std::size_t> idx = detail::sorted_unique(in.light_keys);
  std::vector<vmd::LightKey> sorted;
  for (std::size_t i : idx) sorted.push_back(in.light_keys[i]);
  const std::vector<std::uint32_t> f = frames_of(in.light_keys, idx);
  const std::vector<anim::LightTrackKey> track = anim::build_light_track(sorted);
  auto p = plan(f, o.first, o.last, o.exact, budget);
  if (!p) return std::unexpected(p.error());
  for (const PlanKey& k : *p) {
    if (k.orig >= 0) {
      out.light_keys.push_back(sorted[static_cast<std::size_t>(k.orig)]);
      continue;
    }
    std::uint32_t cursor = 0;
    const anim::LightState s = anim::sample_light(track, k.frame, cursor);
    out.light_keys.push_back({k.frame, s.color, s.direction});
  }
  return {};
}

// Stepped sections: the key in force copied onto first and last.
template <class Key>
Result<void> trim_stepped(const std::vector<Key>& in, std::vector<Key>& out, const TrimOptions& o,
                          std::size_t& budget) {
  if (in.empty()) return {};
  const std::vector<std::size_t> idx = detail::sorted_unique(in);
  const std::vector<std::uint32_t> f = frames_of(in, idx);
  auto p = plan(f, o.first, o.last, false, budget);
  if (!p) return std::unexpected(p.error());
  for (const PlanKey& k : *p) {
    Key key = in[idx[k.orig >= 0 ? static_cast<std::size_t>(k.orig) : in_force(f, k.frame)]];
    key.frame = k.frame;
    out.push_back(std::move(key));
  }
  return {};
}

std::size_t key_count(const vmd::Motion& m) {
  return m.bone_keys.size() + m.morph_keys.size() + m.camera_keys.size() + m.light_keys.size() +
         m.self_shadow_keys.size() + m.property_keys.size();
}

}  // namespace

Result<vmd::Motion> trim(const vmd::Motion& motion, const TrimOptions& o, TrimReport* report) {
  if (o.first > o.last)
    return make_error(ErrorCode::invalid_argument, "the first frame " + std::to_string(o.first) +
                                                       " is after the last frame " + std::to_string(o.last));
  TrimReport r;
  vmd::Motion out = detail::without_keys(motion);
  std::size_t budget = kMaxExactKeys;
  if (auto x = trim_bones(motion, out, o, r, budget); !x) return std::unexpected(x.error());
  if (auto x = trim_morphs(motion, out, o, budget); !x) return std::unexpected(x.error());
  if (auto x = trim_camera(motion, out, o, r, budget); !x) return std::unexpected(x.error());
  if (auto x = trim_light(motion, out, o, budget); !x) return std::unexpected(x.error());
  if (auto x = trim_stepped(motion.self_shadow_keys, out.self_shadow_keys, o, budget); !x)
    return std::unexpected(x.error());
  if (auto x = trim_stepped(motion.property_keys, out.property_keys, o, budget); !x) return std::unexpected(x.error());
  r.keys_in = key_count(motion);
  r.keys_out = key_count(out);
  if (report) *report = r;
  return out;
}

}  // namespace mmdkit::motion
