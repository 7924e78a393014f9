// MMD light sampling: linear between keys (light.hpp).
#include "mmdkit/anim/light.hpp"

#include "mmdkit/anim/sampler.hpp"

namespace mmdkit::anim {

std::vector<LightTrackKey> build_light_track(std::span<const vmd::LightKey> keys) {
  std::vector<LightTrackKey> out;
  out.reserve(keys.size());
  for (const vmd::LightKey& k : keys) out.push_back({k.frame, LightState{k.color, k.direction}});
  sort_and_dedupe(out);
  return out;
}

LightState sample_light(std::span<const LightTrackKey> keys, double frame, std::uint32_t& cursor) noexcept {
  if (keys.empty()) return {};
  const Segment s = find_segment(keys, frame, cursor);
  const LightState& a = keys[s.first].value;
  if (s.first == s.second) return a;
  const LightState& b = keys[s.second].value;
  LightState out;
  for (std::size_t i = 0; i < 3; ++i) {
    out.color[i] = a.color[i] + (b.color[i] - a.color[i]) * s.x;
    out.direction[i] = a.direction[i] + (b.direction[i] - a.direction[i]) * s.x;
  }
  return out;
}

}  // namespace mmdkit::anim
