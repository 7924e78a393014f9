// mmdkit — keyframe track sampling: the value of one bone or morph track at a fractional frame.
//
// Time is in frames at 30 per second, as a double (fractional frames are allowed; a double keeps
// sub-frame precision for any u32 frame number). A track is a list of keys sorted by frame with
// unique frames, built once by build_bone_track / build_morph_track (or bind_motions, see
// binding.hpp); sampling never allocates. Source of the rules: docs/formats/NOTES.md "Evaluation",
// babylon-mmd and saba (keyframe search, curves of the later key).
//
//   - Duplicate keys (same frame) occur in real files: keys are sorted stably by frame and the
//     LAST key read at a frame wins (docs/formats/NOTES.md "VMD (motion)").
//   - Before the first key the first key's value holds; at and after the last key, the last's.
//   - Between key a (frame fa) and key b (frame fb), x = (t − fa) / (fb − fa) in [0,1); bones:
//     each translation axis is lerped by bezier_weight of b's X/Y/Z curve, the rotation is
//     slerped (shortest arc) by b's rotation curve weight — the curves of the LATER key, as MMD
//     does. Morph weights are lerped linearly.
//   - Lookup: a per-track cursor (the index of the last segment used) is tried first, then the
//     next segment (sequential playback), then a binary search: O(1) when playing forward.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// Where a time falls in a track: between keys `first` and `second` at normalized time `x`.
/// When the time is before the first key, after the last, or exactly on a key, `first == second`
/// and x = 0.
struct Segment {
  std::size_t first = 0;
  std::size_t second = 0;
  float x = 0.0f;  ///< (t − frame[first]) / (frame[second] − frame[first]), in [0, 1)
};

namespace detail {
/// find_segment's search (out of line): before the first key, after the last, the next segment,
/// else a binary search.
template <class Key>
[[gnu::noinline]] Segment find_segment_search(std::span<const Key> keys, double frame, std::uint32_t& cursor) noexcept {
  const std::size_t n = keys.size();
  if (n == 0) return {};
  if (!(frame > static_cast<double>(keys[0].frame))) {
    cursor = 0;
    return {};
  }
  if (frame >= static_cast<double>(keys[n - 1].frame)) {
    cursor = static_cast<std::uint32_t>(n - 1);
    return {n - 1, n - 1, 0.0f};
  }
  // Here n >= 2 and frame[0] < frame < frame[n-1].
  auto contains = [&](std::size_t i) {
    return i + 1 < n && static_cast<double>(keys[i].frame) <= frame && frame < static_cast<double>(keys[i + 1].frame);
  };
  std::size_t i = cursor;
  if (!contains(i)) {
    if (contains(i + 1)) {
      i = i + 1;
    } else {
      auto it = std::upper_bound(keys.begin(), keys.end(), frame,
                                 [](double f, const Key& k) { return f < static_cast<double>(k.frame); });
      i = static_cast<std::size_t>(it - keys.begin()) - 1;
    }
  }
  cursor = static_cast<std::uint32_t>(i);
  const double fa = keys[i].frame, fb = keys[i + 1].frame;
  if (frame == fa) return {i, i, 0.0f};
  return {i, i + 1, static_cast<float>((frame - fa) / (fb - fa))};
}
}  // namespace detail

/// Finds the segment of `keys` (any type with a `frame` member, sorted by strictly increasing
/// frame) containing `frame`. `cursor` is the caller's per-track cache: any value is accepted
/// (out-of-range values are ignored), and it is updated to the segment found. A NaN frame counts
/// as before the first key. Precondition: keys is not empty (an empty span gives {0, 0, 0}).
/// Inline: the cursor's own segment (frames in order: nearly always) and a one-key track are
/// answered here, anything else by detail::find_segment_search — the same result either way.
template <class Key>
[[gnu::always_inline]] inline Segment find_segment(std::span<const Key> keys, double frame,
                                                   std::uint32_t& cursor) noexcept {
  const std::size_t n = keys.size(), i = cursor;
  if (i + 1 < n) {
    const double fa = keys[i].frame, fb = keys[i + 1].frame;
    if (fa <= frame && frame < fb) {  // (also when i = 0 and frame = fa: {0, 0, 0} as before the first key)
      if (frame == fa) return {i, i, 0.0f};
      return {i, i + 1, static_cast<float>((frame - fa) / (fb - fa))};
    }
  } else if (n == 1) {
    cursor = 0;
    return {};
  }
  return detail::find_segment_search(keys, frame, cursor);
}

/// One bone key prepared for sampling.
struct BoneTrackKey {
  std::uint32_t frame = 0;         ///< frame number (30 fps)
  Vec3 translation{};              ///< key translation, bone's parent space, MMD units (as stored)
  Quat rotation = kIdentityQuat;   ///< key rotation, normalized (all-zero stored → identity)
  vmd::Curve x, y, z, rotation_curve;  ///< curves that shape the segment ENDING at this key
};

/// One morph key prepared for sampling.
struct MorphTrackKey {
  std::uint32_t frame = 0;
  float weight = 0.0f;  ///< as stored (usually 0..1)
};

/// A bone's local pose from a motion: translation added to the bone's bind offset and rotation
/// composed with it by the caller, in the bone's parent space (no local axes for VMD).
struct BonePose {
  Vec3 translation{};             ///< MMD units
  Quat rotation = kIdentityQuat;  ///< unit quaternion
};

/// One key prepared: rotation normalized, curves decoded (vmd::decode_bone_interpolation).
BoneTrackKey prepare_bone_key(const vmd::BoneKey& key) noexcept;

/// Prepares one track from keys of a single name, in file order (any order, duplicates allowed):
/// stable sort by frame, the last key of each frame kept, rotations normalized, curves decoded
/// with vmd::decode_bone_interpolation (curve c from row c: never the physics-toggle bytes 2, 3).
std::vector<BoneTrackKey> build_bone_track(std::span<const vmd::BoneKey> keys);
/// Same for morph keys.
std::vector<MorphTrackKey> build_morph_track(std::span<const vmd::MorphKey> keys);

/// Sorts `keys` stably by frame and removes all but the last key of each frame, in place.
/// Works for BoneTrackKey and MorphTrackKey (and any type with `frame`).
template <class Key>
void sort_and_dedupe(std::vector<Key>& keys) {
  std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.frame < b.frame; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i + 1 < keys.size() && keys[i + 1].frame == keys[i].frame) continue;  // a later one wins
    if (out != i) keys[out] = keys[i];
    ++out;
  }
  keys.resize(out);
}

/// The bone pose of a track at `frame` (see the rules above). An empty track gives the identity
/// pose (zero translation, identity rotation).
BonePose sample_bone(std::span<const BoneTrackKey> keys, double frame, std::uint32_t& cursor) noexcept;

/// What sampling one segment of a bone track computes independently of the time — the slerp's
/// normalised end rotations (the later one on the shorter arc), its angle and that angle's sine,
/// or, when the two keys' rotations are equal, the renormalised rotation — kept by the caller
/// between calls so that consecutive frames of one segment repeat only the time-dependent work.
/// One per track, starting default-constructed (empty); a cache is refilled whenever it was filled
/// for another segment or another track (it remembers the segment's first key by address).
struct BoneSegmentCache {
  const BoneTrackKey* key = nullptr;  ///< first key of the cached segment; nullptr = empty
  bool equal = false;                 ///< the two rotations are bitwise equal: `qa` is the result
  bool trig = false;                  ///< angle large enough for sines (else the lerp weights)
  Quat qa = kIdentityQuat, qb = kIdentityQuat;
  double theta = 0.0, sine = 0.0;
  /// The segment's pose does not depend on the time (equal translations, bitwise equal rotations):
  /// `hold` is the pose at every time strictly between the frames `hold_from` and `hold_to` of its
  /// two keys, returned without a search while the track's cursor stays on `key` (at `hold_from`
  /// itself the key's stored values apply, as without the cache).
  bool holds = false;
  double hold_from = 0.0, hold_to = 0.0;
  BonePose hold{};
};

/// sample_bone with a segment cache: the same result bit for bit (the same operations of
/// quat_slerp / quat_normalize, the frame-independent ones done once per segment).
BonePose sample_bone(std::span<const BoneTrackKey> keys, double frame, std::uint32_t& cursor,
                     BoneSegmentCache& cache) noexcept;

/// The morph weight of a track at `frame`, linear between keys. An empty track gives 0.
float sample_morph(std::span<const MorphTrackKey> keys, double frame, std::uint32_t& cursor) noexcept;

}  // namespace mmdkit::anim
