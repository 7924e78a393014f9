// Bone and morph track sampling (sampler.hpp), and VMD motions sampled per frame
// (motion_sampler.hpp).
#include "mmdkit/anim/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "mmdkit/anim/bezier.hpp"
#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "core/try.hpp"

namespace mmdkit::anim {

BoneTrackKey prepare_bone_key(const vmd::BoneKey& k) noexcept {
  const vmd::BoneInterpolation ip = vmd::decode_bone_interpolation(k.interpolation);
  BoneTrackKey out;
  out.frame = k.frame;
  out.translation = k.position;
  out.rotation = quat_normalize(k.rotation);
  out.x = ip.x;
  out.y = ip.y;
  out.z = ip.z;
  out.rotation_curve = ip.rotation;
  return out;
}

std::vector<BoneTrackKey> build_bone_track(std::span<const vmd::BoneKey> keys) {
  std::vector<BoneTrackKey> out;
  out.reserve(keys.size());
  for (const vmd::BoneKey& k : keys) out.push_back(prepare_bone_key(k));
  sort_and_dedupe(out);
  return out;
}

std::vector<MorphTrackKey> build_morph_track(std::span<const vmd::MorphKey> keys) {
  std::vector<MorphTrackKey> out;
  out.reserve(keys.size());
  for (const vmd::MorphKey& k : keys) out.push_back({k.frame, k.weight});
  sort_and_dedupe(out);
  return out;
}

namespace {

double dbl(float v) noexcept { return static_cast<double>(v); }
// quat_slerp's (core/math.cpp) dot product in double.
double dot4(const Quat& a, const Quat& b) noexcept {
  return dbl(a[0]) * dbl(b[0]) + dbl(a[1]) * dbl(b[1]) + dbl(a[2]) * dbl(b[2]) + dbl(a[3]) * dbl(b[3]);
}

// quat_slerp(a, b, t) split at the time: fill() does what does not depend on t, slerp() the rest,
// with the same operations in the same order.
void fill(BoneSegmentCache& c, const BoneTrackKey& a, const BoneTrackKey& b) noexcept {
  c.key = &a;
  c.holds = false;
  c.equal = std::memcmp(a.rotation.data(), b.rotation.data(), sizeof(Quat)) == 0;
  if (c.equal) {  // see sample_bone_impl: the slerp of equal rotations is their renormalisation
    c.qa = quat_normalize(quat_normalize(a.rotation));
    return;
  }
  c.qa = quat_normalize(a.rotation);
  c.qb = quat_normalize(b.rotation);
  double cosine = dot4(c.qa, c.qb);
  if (cosine < 0) {  // shortest arc: −b is the same rotation
    for (float& v : c.qb) v = -v;
    cosine = -cosine;
  }
  c.trig = cosine < 1.0 - 1e-6;
  if (c.trig) {
    c.theta = std::acos(cosine);
    c.sine = std::sin(c.theta);
  }
}

Quat slerp(const BoneSegmentCache& c, float t) noexcept {
  if (std::isnan(t)) return c.qa;
  const double td = dbl(t);
  double s0 = 1.0 - td, s1 = td;
  if (c.trig) {
    s0 = std::sin((1.0 - td) * c.theta) / c.sine;
    s1 = std::sin(td * c.theta) / c.sine;
  }
  Quat r;
  for (std::size_t i = 0; i < 4; ++i) r[i] = static_cast<float>(s0 * dbl(c.qa[i]) + s1 * dbl(c.qb[i]));
  return quat_normalize(r);
}

[[gnu::always_inline]] inline BonePose sample_bone_impl(std::span<const BoneTrackKey> keys, double frame,
                                                        std::uint32_t& cursor, BoneSegmentCache* cache) noexcept {
  // A held segment (see BoneSegmentCache::holds): the cursor still on its first key and the time
  // strictly inside it, where find_segment would give that segment and the pose below is `hold`.
  if (cache && cache->holds && cursor < keys.size() && cache->key == &keys[cursor] && cache->hold_from < frame &&
      frame < cache->hold_to)
    return cache->hold;
  if (keys.empty()) return {};
  const Segment s = find_segment(keys, frame, cursor);
  const BoneTrackKey& a = keys[s.first];
  if (s.first == s.second) return {a.translation, a.rotation};
  const BoneTrackKey& b = keys[s.second];
  // The same values as lerping and slerping every component by its curve's weight, with less work
  // (most bones have constant translations, many keys repeat a rotation, and the four curves are
  // often the same): a weight is computed only when it is used, and once per distinct curve.
  //   - Equal finite translations: a + 0·w = a + 0 for any weight (bezier_weight is finite).
  //   - Bitwise equal rotations: slerp(a, a, t) = normalize(normalize(a)) for t in [0, 1] (the
  //     nlerp branch; the double sum (1 − t)·q + t·q rounds back to the float q).
  const vmd::Curve* curve[4] = {&b.x, &b.y, &b.z, &b.rotation_curve};
  float weight[4];
  auto weight_of = [&](std::size_t i) {
    for (std::size_t j = 0; j < i; ++j)
      if (weight[j] >= 0.0f && *curve[j] == *curve[i]) return weight[i] = weight[j];
    return weight[i] = bezier_weight(*curve[i], s.x);
  };
  BonePose p;
  bool moves = false;  // a translation axis changes over the segment
  for (std::size_t i = 0; i < 3; ++i) {
    weight[i] = -1.0f;  // not computed
    const float d = b.translation[i] - a.translation[i];
    moves |= d != 0.0f;
    p.translation[i] = d == 0.0f ? a.translation[i] + 0.0f : a.translation[i] + d * weight_of(i);
  }
  if (cache) {
    if (cache->key != &a) fill(*cache, a, b);
    p.rotation = cache->equal ? cache->qa : slerp(*cache, weight_of(3));
    if (cache->equal && !moves) {  // no weight was used: the same pose at every time inside (a, b)
      cache->holds = true;
      cache->hold_from = static_cast<double>(a.frame);
      cache->hold_to = static_cast<double>(b.frame);
      cache->hold = p;
    }
  } else if (std::memcmp(a.rotation.data(), b.rotation.data(), sizeof(Quat)) == 0) {
    p.rotation = quat_normalize(quat_normalize(a.rotation));
  } else {
    p.rotation = quat_slerp(a.rotation, b.rotation, weight_of(3));
  }
  return p;
}

}  // namespace

BonePose sample_bone(std::span<const BoneTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  return sample_bone_impl(keys, frame, cursor, nullptr);
}

BonePose sample_bone(std::span<const BoneTrackKey> keys, double frame, std::uint32_t& cursor,
                     BoneSegmentCache& cache) noexcept {
  return sample_bone_impl(keys, frame, cursor, &cache);
}

// binding.hpp: here, so that sample_bone_impl inlines into the loop over the bones.
void sample_bones(const BoundMotion& motion, double frame, std::span<BonePose> out, std::span<std::uint32_t> cursors,
                  std::span<BoneSegmentCache> caches) noexcept {
  const std::size_t n = std::min({out.size(), cursors.size(), motion.bone_tracks.size()});
  const std::size_t nc = std::min(n, caches.size());
  const BoneTrackKey* keys = motion.bone_keys.data();
  const KeyRange* tracks = motion.bone_tracks.data();
  for (std::size_t i = 0; i < nc; ++i) {
    const KeyRange r = tracks[i];
    out[i] = sample_bone_impl(std::span<const BoneTrackKey>(keys + r.begin, r.end - r.begin), frame, cursors[i],
                              &caches[i]);
  }
  for (std::size_t i = nc; i < n; ++i) out[i] = sample_bone(motion.bone_track(i), frame, cursors[i]);
}

namespace {
[[gnu::always_inline]] inline float sample_morph_impl(std::span<const MorphTrackKey> keys, double frame,
                                                      std::uint32_t& cursor) noexcept {
  if (keys.empty()) return 0.0f;
  const Segment s = find_segment(keys, frame, cursor);
  const float a = keys[s.first].weight;
  if (s.first == s.second) return a;
  return a + (keys[s.second].weight - a) * s.x;
}
}  // namespace

float sample_morph(std::span<const MorphTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  return sample_morph_impl(keys, frame, cursor);
}

// binding.hpp: here, so that the per-morph sampling inlines into the loop.
void sample_morphs(const BoundMotion& motion, double frame, std::span<float> out,
                   std::span<std::uint32_t> cursors) noexcept {
  const std::size_t n = std::min({out.size(), cursors.size(), motion.morph_tracks.size()});
  const MorphTrackKey* keys = motion.morph_keys.data();
  const KeyRange* tracks = motion.morph_tracks.data();
  for (std::size_t i = 0; i < n; ++i) {
    const KeyRange r = tracks[i];
    out[i] = sample_morph_impl(std::span<const MorphTrackKey>(keys + r.begin, r.end - r.begin), frame, cursors[i]);
  }
}

// --- motion sampling (motion_sampler.hpp) ----------------------------------------------------

Result<MotionSampler> MotionSampler::create(const Skeleton& skeleton, std::span<const vmd::Motion* const> motions) {
  MotionSampler m;
  MMDKIT_TRY_ASSIGN(auto bound, bind_motions(motions, skeleton.match_keys(), {}));
  m.bound_ = std::move(bound);
  m.cursors_.assign(skeleton.bone_count(), 0);
  m.segments_.assign(skeleton.bone_count(), BoneSegmentCache{});
  m.ik_tracks_.resize(skeleton.ik_count());
  m.ik_cursors_.assign(skeleton.ik_count(), 0);
  for (const BoneTrackKey& k : m.bound_.bone_keys) m.last_frame_ = std::max(m.last_frame_, k.frame);
  // IK names: the IK bone's name bytes cut to 20 against the VMD field up to its NUL.
  std::vector<std::vector<std::uint8_t>> ik_keys(skeleton.ik_count());
  for (std::size_t k = 0; k < skeleton.ik_count(); ++k) {
    const auto& nb = skeleton.desc(skeleton.solvers()[k].bone).name_bytes;
    ik_keys[k].assign(nb.begin(), nb.begin() + static_cast<std::ptrdiff_t>(std::min(nb.size(), vmd::kIkNameSize)));
  }
  for (const vmd::Motion* mo : motions) {
    if (!mo) continue;
    for (const vmd::PropertyKey& pk : mo->property_keys) {
      m.last_frame_ = std::max(m.last_frame_, pk.frame);
      m.visible_track_.push_back({pk.frame, static_cast<std::uint8_t>(pk.visible != 0)});
      for (const vmd::IkState& st : pk.ik) {
        ByteSpan raw = until_nul(st.name.raw);
        std::vector<std::uint8_t> key(raw.begin(), raw.end());
        if (raw.empty() && !st.name.text.empty())
          if (auto e = encode_text(st.name.text, mo->encoding)) key = std::move(*e);
        if (key.empty()) continue;
        for (std::size_t k = 0; k < ik_keys.size(); ++k)
          if (ik_keys[k] == key) m.ik_tracks_[k].push_back({pk.frame, static_cast<std::uint8_t>(st.enabled != 0)});
      }
    }
  }
  for (auto& t : m.ik_tracks_) sort_and_dedupe(t);
  sort_and_dedupe(m.visible_track_);
  return m;
}

bool MotionSampler::visible(double frame) const noexcept {
  if (visible_track_.empty()) return true;
  // the last key at or before the frame; before the first key, the first key
  auto after = std::upper_bound(visible_track_.begin(), visible_track_.end(), frame,
                                [](double f, const IkKey& k) { return f < static_cast<double>(k.frame); });
  return (after == visible_track_.begin() ? *after : *(after - 1)).enabled != 0;
}

void MotionSampler::sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled) noexcept {
  sample_bones(bound_, frame, local, cursors_, segments_);
  sample_ik(frame, ik_enabled, ik_cursors_);
}

MotionSampler::Cursors MotionSampler::make_cursors() const {
  return Cursors{std::vector<std::uint32_t>(cursors_.size(), 0), std::vector<std::uint32_t>(ik_cursors_.size(), 0),
                 std::vector<BoneSegmentCache>(cursors_.size())};
}

void MotionSampler::sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled,
                           Cursors& cursors) const noexcept {
  sample_bones(bound_, frame, local, cursors.bones, cursors.segments);
  sample_ik(frame, ik_enabled, cursors.ik);
}

void MotionSampler::sample_ik(double frame, std::span<std::uint8_t> ik_enabled,
                              std::span<std::uint32_t> cursors) const noexcept {
  const std::size_t n = std::min({ik_enabled.size(), ik_tracks_.size(), cursors.size()});
  for (std::size_t k = 0; k < n; ++k) {
    const auto& t = ik_tracks_[k];
    if (t.empty()) {
      ik_enabled[k] = 1;
      continue;
    }
    const Segment seg = find_segment(std::span<const IkKey>(t), frame, cursors[k]);
    ik_enabled[k] = t[seg.first].enabled;
  }
}

}  // namespace mmdkit::anim
