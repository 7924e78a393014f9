// mmdkit — motion layer internals: keys grouped per track, sorted and deduplicated the way the
// evaluator reads them (anim/sampler.hpp: stable sort by frame, the last key of a frame wins).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion::detail {

/// Indices into `keys` sorted stably by frame, only the last key of each frame kept.
template <class Key>
std::vector<std::size_t> sorted_unique(const std::vector<Key>& keys, const std::vector<std::size_t>& subset) {
  std::vector<std::size_t> idx = subset;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return keys[a].frame < keys[b].frame; });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (i + 1 < idx.size() && keys[idx[i + 1]].frame == keys[idx[i]].frame) continue;
    out.push_back(idx[i]);
  }
  return out;
}

template <class Key>
std::vector<std::size_t> sorted_unique(const std::vector<Key>& keys) {
  std::vector<std::size_t> all(keys.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return sorted_unique(keys, all);
}

/// Per name index (0 .. names − 1): the track's key indices, sorted and deduplicated.
/// Errors: invalid_argument (section `section`, record = key index) for a name index out of range.
template <class Key>
Result<std::vector<std::vector<std::size_t>>> tracks_by_name(const std::vector<Key>& keys, std::size_t names,
                                                             const char* section) {
  std::vector<std::vector<std::size_t>> groups(names);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].name >= names) {
      return make_error(ErrorCode::invalid_argument,
                        "name index " + std::to_string(keys[i].name) + " out of range (" + std::to_string(names) +
                            " names)",
                        section, static_cast<std::int64_t>(i));
    }
    groups[keys[i].name].push_back(i);
  }
  for (auto& g : groups) g = sorted_unique(keys, g);
  return groups;
}

/// Bytes 2-3 of a bone interpolation block say "physics off" (vmd.hpp BoneInterpolation).
inline bool is_physics_off(const std::array<std::uint8_t, 64>& raw) { return raw[2] == 0x63 && raw[3] == 0x0F; }

/// `m` without its keys (every section emptied): its header and name tables, for an operation that
/// writes the keys anew (trim, resample).
inline vmd::Motion without_keys(const vmd::Motion& m) {
  vmd::Motion out = m;
  out.bone_keys.clear();
  out.morph_keys.clear();
  out.camera_keys.clear();
  out.light_keys.clear();
  out.self_shadow_keys.clear();
  out.property_keys.clear();
  return out;
}

}  // namespace mmdkit::motion::detail
