// MMD self-shadow sampling: step (self_shadow.hpp).
#include "mmdkit/anim/self_shadow.hpp"

#include "mmdkit/anim/sampler.hpp"

namespace mmdkit::anim {

std::vector<SelfShadowTrackKey> build_self_shadow_track(std::span<const vmd::SelfShadowKey> keys) {
  std::vector<SelfShadowTrackKey> out;
  out.reserve(keys.size());
  for (const vmd::SelfShadowKey& k : keys) out.push_back({k.frame, SelfShadowState{k.mode, k.distance}});
  sort_and_dedupe(out);
  return out;
}

SelfShadowState sample_self_shadow(std::span<const SelfShadowTrackKey> keys, double frame,
                                   std::uint32_t& cursor) noexcept {
  if (keys.empty()) return {};
  return keys[find_segment(keys, frame, cursor).first].value;
}

}  // namespace mmdkit::anim
