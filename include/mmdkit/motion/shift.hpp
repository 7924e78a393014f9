// mmdkit — `shift`: move every key of a motion by a number of frames (docs/MOTION.md "shift").
#pragma once

#include <cstdint>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// How to shift.
struct ShiftOptions {
  std::int64_t by = 0;  ///< frames (30 fps) added to every key's frame; negative moves earlier
  /// A negative shift that would push keys before frame 0: false = refuse (invalid_argument
  /// naming the first such key); true = clamp: the motion is first trimmed to [−by, last frame]
  /// (motion::trim, so the value at −by is keyed) and then shifted, i.e. what was before frame
  /// −by is dropped and the output starts at frame 0 with the value the input had at −by.
  bool clamp = false;
};

/// Every key (bone, morph, camera, light, self-shadow, property) moved by `by` frames; values,
/// curves and file order unchanged. Errors: invalid_argument for a key that would land before
/// frame 0 (without clamp) or beyond 2^32 − 1 (section, record and frame named); trim's errors
/// with clamp.
Result<vmd::Motion> shift(const vmd::Motion& motion, const ShiftOptions& options);

}  // namespace mmdkit::motion
