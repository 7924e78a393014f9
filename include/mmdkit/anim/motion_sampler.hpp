// mmdkit — VMD motions bound to a skeleton and sampled per frame (bone local poses and IK
// on/off) for anim/pose.hpp's PoseInput, without allocation per frame (src/anim/sampler.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::vmd {
struct Motion;
}

namespace mmdkit::anim {

/// One or several VMD motions bound to a skeleton, sampled per frame without allocation:
/// bone tracks (binding.hpp, keys merged; the later motion wins at equal frames) and IK on/off
/// from property keys (stepped: the last key at or before the frame holds; before the first key
/// the first key's states; IK bones a motion never mentions stay on). IK names are matched by
/// bytes: the model bone name's match bytes against the 20-byte VMD field up to its first NUL.
class MotionSampler {
 public:
  MotionSampler() = default;
  /// Binds `motions` (nulls skipped) to `skeleton`'s bones and IK solvers. Errors: from
  /// bind_motions.
  static Result<MotionSampler> create(const Skeleton& skeleton, std::span<const vmd::Motion* const> motions);

  /// Samples bone poses into `local` (size ≥ bone count; extra ignored) and IK states into
  /// `ik_enabled` (size ≥ solver count), with the sampler's own cursors. Never allocates.
  void sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled) noexcept;

  /// Per-user lookup caches, so that one sampler (immutable tracks) can be sampled by several
  /// users at once, each with its own Cursors (anim/character.hpp does this).
  struct Cursors {
    std::vector<std::uint32_t> bones;  ///< one per model bone
    std::vector<std::uint32_t> ik;     ///< one per IK solver
    /// One per model bone (sampler.hpp; fewer: the remaining bones are sampled without a cache).
    std::vector<BoneSegmentCache> segments;
  };
  /// Cursors sized for this sampler (allocates; once per user).
  Cursors make_cursors() const;
  /// As sample() above with the caller's cursors (made by make_cursors of this sampler; smaller
  /// cursor vectors sample fewer bones / solvers). Const: safe to call from several threads with
  /// different cursors. Never allocates.
  void sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled,
              Cursors& cursors) const noexcept;

  /// Whether the model is shown at `frame` (MMD frames, 30 fps): MMD's 表示 of the motions'
  /// property keys (vmd::PropertyKey::visible), stepped as the IK states — the last key at or before
  /// the frame holds, before the first key the first key's state, no property key: shown; the keys
  /// of several motions merged, the later motion winning at equal frames. MMD draws nothing of a
  /// hidden model (nanoem Model::isVisible gates every pass, emapp/src/Model.cc).
  bool visible(double frame) const noexcept;

  const BoundMotion& bound() const noexcept { return bound_; }
  /// Last key frame over all bone, morph and property tracks (0 if none).
  std::uint32_t last_frame() const noexcept { return last_frame_; }

 private:
  struct IkKey {
    std::uint32_t frame;
    std::uint8_t enabled;
  };
  void sample_ik(double frame, std::span<std::uint8_t> ik_enabled, std::span<std::uint32_t> cursors) const noexcept;
  BoundMotion bound_;
  std::vector<std::uint32_t> cursors_;
  std::vector<BoneSegmentCache> segments_;
  std::vector<std::vector<IkKey>> ik_tracks_;  // per solver
  std::vector<IkKey> visible_track_;           // property keys' 表示 (IkKey::enabled = shown)
  std::vector<std::uint32_t> ik_cursors_;
  std::uint32_t last_frame_ = 0;
};

}  // namespace mmdkit::anim
