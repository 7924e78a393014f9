// mmdkit — `reduce` (motion/reduce.hpp).
#include "mmdkit/motion/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <vector>

#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/motion/curve.hpp"
#include "tracks.hpp"

namespace mmdkit::motion {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
constexpr std::uint64_t kMaxMeasured = 10'000'000;

double dist(const Vec3& a, const Vec3& b) {
  double s = 0;
  for (int i = 0; i < 3; ++i) s += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
  return std::sqrt(s);
}

double qdot(const Quat& a, const Quat& b) {
  return double(a[0]) * double(b[0]) + double(a[1]) * double(b[1]) + double(a[2]) * double(b[2]) + double(a[3]) * double(b[3]);
}

// Position of rotation q along the slerp arc from a to b (unit quaternions), as a weight.
double arc_weight(const Quat& a, Quat b, Quat q) {
  if (qdot(a, b) < 0)
    for (float& v : b) v = -v;
  if (qdot(a, q) < 0)
    for (float& v : q) v = -v;
  const double c = std::clamp(qdot(a, b), -1.0, 1.0);
  const double omega = std::acos(c);
  if (omega < 1e-9) return 0;
  double e[4], n = 0;
  for (int i = 0; i < 4; ++i) {
    e[i] = double(b[i]) - double(a[i]) * c;
    n += e[i] * e[i];
  }
  n = std::sqrt(n);
  double qe = 0;
  for (int i = 0; i < 4; ++i) qe += double(q[i]) * e[i] / n;
  return std::atan2(qe, qdot(a, q)) / omega;
}

struct BoneFit {
  vmd::Curve x, y, z, r;
};

// Fits one segment a → b over samples s[1 .. n−1] (s[0] = a's frame, s[n] = b's): the curves when
// every whole frame stays within the tolerances, else nullopt.
std::optional<BoneFit> fit_segment(const anim::BoneTrackKey& a, const anim::BoneTrackKey& b,
                                   std::span<const anim::BonePose> s, const ReduceOptions& o) {
  const std::size_t n = s.size() - 1;
  const double span = static_cast<double>(b.frame) - a.frame;
  std::vector<double> xs, ws;
  xs.reserve(n);
  ws.reserve(n);
  for (std::size_t k = 1; k < n; ++k) xs.push_back(static_cast<double>(static_cast<float>(k / span)));
  const double tol_rad = o.tol_deg * kDeg;
  BoneFit fit{vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve};
  vmd::Curve* axis_curve[3] = {&fit.x, &fit.y, &fit.z};
  for (int c = 0; c < 3; ++c) {
    const double d = double(b.translation[c]) - double(a.translation[c]);
    if (d == 0) continue;  // the output is constant on this axis; the check below measures it
    ws.clear();
    for (std::size_t k = 1; k < n; ++k) ws.push_back((double(s[k].translation[c]) - double(a.translation[c])) / d);
    const double good = 0.5 * o.tol_units / (std::sqrt(3.0) * std::abs(d));
    const QuantizedCurve q = fit_curve(xs, ws, good);
    if (q.max_error * std::abs(d) > o.tol_units) return std::nullopt;
    *axis_curve[c] = q.curve;
  }
  if (std::memcmp(a.rotation.data(), b.rotation.data(), sizeof(Quat)) != 0) {
    const double omega = std::acos(std::clamp(std::abs(qdot(a.rotation, b.rotation)), 0.0, 1.0));
    if (omega > 1e-7) {
      ws.clear();
      for (std::size_t k = 1; k < n; ++k) ws.push_back(arc_weight(a.rotation, b.rotation, s[k].rotation));
      // Rotation angle = 2 × the arc angle in quaternion space.
      const double good = 0.5 * tol_rad / (2 * omega);
      const QuantizedCurve q = fit_curve(xs, ws, good);
      if (q.max_error * 2 * omega > tol_rad) return std::nullopt;
      fit.r = q.curve;
    }
  }
  // The check, with the evaluator's sampler on the two-key segment.
  anim::BoneTrackKey seg[2] = {a, b};
  seg[1].x = fit.x;
  seg[1].y = fit.y;
  seg[1].z = fit.z;
  seg[1].rotation_curve = fit.r;
  std::uint32_t cursor = 0;
  for (std::size_t k = 1; k < n; ++k) {
    const anim::BonePose p = anim::sample_bone(seg, static_cast<double>(a.frame) + static_cast<double>(k), cursor);
    if (dist(p.translation, s[k].translation) > o.tol_units) return std::nullopt;
    if (double(quat_angle_between(p.rotation, s[k].rotation)) > tol_rad) return std::nullopt;
  }
  return fit;
}

void reduce_bone_track(const std::vector<vmd::BoneKey>& sorted, const ReduceOptions& o, std::vector<vmd::BoneKey>& out) {
  const std::size_t n = sorted.size();
  const std::vector<anim::BoneTrackKey> track = anim::build_bone_track(sorted);
  const std::uint64_t range = static_cast<std::uint64_t>(sorted.back().frame) - sorted.front().frame;
  if (n <= 2 || range > kMaxMeasured) {
    out.insert(out.end(), sorted.begin(), sorted.end());
    return;
  }
  // The input on every whole frame of the track.
  std::vector<anim::BonePose> s(range + 1);
  std::uint32_t cursor = 0;
  for (std::uint64_t t = 0; t <= range; ++t) s[t] = anim::sample_bone(track, double(sorted.front().frame) + double(t), cursor);
  const std::uint32_t f0 = sorted.front().frame;
  out.push_back(sorted[0]);
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t best = i + 1;
    std::optional<BoneFit> best_fit;
    const bool toggle = detail::is_physics_off(sorted[i].interpolation);
    for (std::size_t j = i + 2; j < n; ++j) {
      if (sorted[j].frame - sorted[i].frame > kMaxReduceSpan) break;
      if (detail::is_physics_off(sorted[j - 1].interpolation) != toggle) break;  // a toggle step is kept
      auto f = fit_segment(track[i], track[j],
                           std::span<const anim::BonePose>(s.data() + (sorted[i].frame - f0), sorted[j].frame - sorted[i].frame + 1), o);
      if (!f) break;
      best = j;
      best_fit = f;
    }
    vmd::BoneKey k = sorted[best];
    if (best_fit)
      k.interpolation = vmd::encode_bone_interpolation(best_fit->x, best_fit->y, best_fit->z, best_fit->r,
                                                       detail::is_physics_off(k.interpolation));
    out.push_back(k);
    i = best;
  }
}

void reduce_morph_track(const std::vector<vmd::MorphKey>& sorted, const ReduceOptions& o, std::vector<vmd::MorphKey>& out) {
  const std::size_t n = sorted.size();
  const std::vector<anim::MorphTrackKey> track = anim::build_morph_track(sorted);
  const std::uint64_t range = static_cast<std::uint64_t>(sorted.back().frame) - sorted.front().frame;
  if (n <= 2 || range > kMaxMeasured) {
    out.insert(out.end(), sorted.begin(), sorted.end());
    return;
  }
  std::vector<float> s(range + 1);
  std::uint32_t cursor = 0;
  const std::uint32_t f0 = sorted.front().frame;
  for (std::uint64_t t = 0; t <= range; ++t) s[t] = anim::sample_morph(track, double(f0) + double(t), cursor);
  out.push_back(sorted[0]);
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t best = i + 1;
    for (std::size_t j = i + 2; j < n; ++j) {
      if (sorted[j].frame - sorted[i].frame > kMaxReduceSpan) break;
      const anim::MorphTrackKey seg[2] = {track[i], track[j]};
      std::uint32_t c = 0;
      bool ok = true;
      for (std::uint32_t t = sorted[i].frame + 1; t < sorted[j].frame && ok; ++t)
        ok = std::abs(double(anim::sample_morph(seg, t, c)) - double(s[t - f0])) <= o.tol_weight;
      if (!ok) break;
      best = j;
    }
    out.push_back(sorted[best]);
    i = best;
  }
}

}  // namespace

Result<vmd::Motion> reduce(const vmd::Motion& m, const ReduceOptions& o, ReduceReport* report) {
  for (double t : {o.tol_units, o.tol_deg, o.tol_weight})
    if (!(std::isfinite(t) && t >= 0))
      return make_error(ErrorCode::invalid_argument, "tolerances must be finite numbers >= 0");
  auto bones = detail::tracks_by_name(m.bone_keys, m.bone_names.size(), "bone keyframes");
  if (!bones) return std::unexpected(bones.error());
  auto morphs = detail::tracks_by_name(m.morph_keys, m.morph_names.size(), "morph keyframes");
  if (!morphs) return std::unexpected(morphs.error());
  ReduceReport r;
  r.bone_keys_in = m.bone_keys.size();
  r.morph_keys_in = m.morph_keys.size();
  vmd::Motion out = m;
  out.bone_keys.clear();
  out.morph_keys.clear();
  for (const auto& idx : *bones) {
    if (idx.empty()) continue;
    std::vector<vmd::BoneKey> sorted;
    for (std::size_t i : idx) sorted.push_back(m.bone_keys[i]);
    const std::size_t first = out.bone_keys.size();
    reduce_bone_track(sorted, o, out.bone_keys);
    // Measure input vs output on every whole frame of the track.
    const auto a = anim::build_bone_track(sorted);
    const auto b = anim::build_bone_track(std::span<const vmd::BoneKey>(out.bone_keys.data() + first, out.bone_keys.size() - first));
    const std::uint64_t range = static_cast<std::uint64_t>(sorted.back().frame) - sorted.front().frame;
    std::uint32_t ca = 0, cb = 0;
    for (std::uint64_t t = 0; t <= std::min(range, kMaxMeasured); ++t) {
      const double fr = double(sorted.front().frame) + double(t);
      const anim::BonePose pa = anim::sample_bone(a, fr, ca), pb = anim::sample_bone(b, fr, cb);
      r.max_translation_error = std::max(r.max_translation_error, dist(pa.translation, pb.translation));
      r.max_rotation_error_deg =
          std::max(r.max_rotation_error_deg, double(quat_angle_between(pa.rotation, pb.rotation)) / kDeg);
    }
  }
  for (const auto& idx : *morphs) {
    if (idx.empty()) continue;
    std::vector<vmd::MorphKey> sorted;
    for (std::size_t i : idx) sorted.push_back(m.morph_keys[i]);
    const std::size_t first = out.morph_keys.size();
    reduce_morph_track(sorted, o, out.morph_keys);
    const auto a = anim::build_morph_track(sorted);
    const auto b = anim::build_morph_track(std::span<const vmd::MorphKey>(out.morph_keys.data() + first, out.morph_keys.size() - first));
    const std::uint64_t range = static_cast<std::uint64_t>(sorted.back().frame) - sorted.front().frame;
    std::uint32_t ca = 0, cb = 0;
    for (std::uint64_t t = 0; t <= std::min(range, kMaxMeasured); ++t) {
      const double fr = double(sorted.front().frame) + double(t);
      r.max_weight_error = std::max(r.max_weight_error, std::abs(double(anim::sample_morph(a, fr, ca)) - double(anim::sample_morph(b, fr, cb))));
    }
  }
  r.bone_keys_out = out.bone_keys.size();
  r.morph_keys_out = out.morph_keys.size();
  if (report) *report = r;
  return out;
}

}  // namespace mmdkit::motion
