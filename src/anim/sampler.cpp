// Bone and morph track sampling (sampler.hpp).
#include "mmdkit/anim/sampler.hpp"

#include "mmdkit/anim/bezier.hpp"

namespace mmdkit::anim {

vmd::BoneInterpolation decode_bone_curves(const std::array<std::uint8_t, 64>& raw) noexcept {
  // Curve c (X, Y, Z, rotation) is read from row c at bytes 16c, 16c+4, 16c+8, 16c+12 = x1, y1,
  // x2, y2: row c is row 0 shifted left by c bytes, so these are row 0's bytes c, c+4, c+8, c+12
  // of a canonical block, and never bytes 2, 3 (the physics toggle). FORMAT-NOTES "Bone
  // interpolation block"; checked on corpus VMDs with edited curves (mlib_go サンプルモーション_0046:
  // row 1 = 64 20 20 20 0 …, Y curve (64, 0, 64, 127)).
  vmd::BoneInterpolation b;
  vmd::Curve* c[4] = {&b.x, &b.y, &b.z, &b.rotation};
  for (std::size_t i = 0; i < 4; ++i) *c[i] = vmd::Curve{raw[16 * i], raw[16 * i + 4], raw[16 * i + 8], raw[16 * i + 12]};
  b.toggle_bytes = {raw[2], raw[3]};
  return b;
}

BoneTrackKey prepare_bone_key(const vmd::BoneKey& k) noexcept {
  const vmd::BoneInterpolation ip = decode_bone_curves(k.interpolation);
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
