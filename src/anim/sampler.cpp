// Bone and morph track sampling (sampler.hpp).
#include "mmdkit/anim/sampler.hpp"

#include "mmdkit/anim/bezier.hpp"

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

BonePose sample_bone(std::span<const BoneTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  if (keys.empty()) return {};
  const Segment s = find_segment(keys, frame, cursor);
  const BoneTrackKey& a = keys[s.first];
  if (s.first == s.second) return {a.translation, a.rotation};
  const BoneTrackKey& b = keys[s.second];
  const vmd::Curve* axis[3] = {&b.x, &b.y, &b.z};
  BonePose p;
  for (std::size_t i = 0; i < 3; ++i) {
    const float w = bezier_weight(*axis[i], s.x);
    p.translation[i] = a.translation[i] + (b.translation[i] - a.translation[i]) * w;
  }
  p.rotation = quat_slerp(a.rotation, b.rotation, bezier_weight(b.rotation_curve, s.x));
  return p;
}

float sample_morph(std::span<const MorphTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  if (keys.empty()) return 0.0f;
  const Segment s = find_segment(keys, frame, cursor);
  const float a = keys[s.first].weight;
  if (s.first == s.second) return a;
  return a + (keys[s.second].weight - a) * s.x;
}

}  // namespace mmdkit::anim
