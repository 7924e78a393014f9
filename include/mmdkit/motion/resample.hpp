// mmdkit — `resample`: bake a motion onto regular keys, optionally re-timing it from another
// frame rate (docs/MOTION.md "resample").
//
// A VMD has no frame-rate field: MMD always plays its frames at 30 per second
// (docs/CONVENTIONS.md, docs/formats/NOTES.md "VMD (motion)"); a "60 fps VMD" does not exist, a
// motion keyed at 60 per second simply plays twice as slow. So resampling means:
//   - `fps`: the rate the input's frame numbers were counted at (default 30 = MMD's). Output frame
//     g (at 30 fps) takes the input's value at input frame g · fps / 30. A motion captured at
//     60 fps and written with frame numbers at 60 per second is brought to MMD's speed with
//     fps = 60.
//   - `every`: bone, morph, camera and light tracks get a key on every `every`-th output frame
//     from their first to their last (the last always keyed), with the value the input has there
//     (the evaluator's samplers) and linear curves. every = 1 keys every frame: the output then
//     evaluates exactly as the input on every whole frame (fps = 30), with linear motion between
//     whole frames; `reduce` turns dense keys back into few keys with curves.
//   - self-shadow and property keys step: they are re-timed (frame · 30 / fps, rounded to the
//     nearest frame; of keys landing on one frame the last in time wins), not baked.
// A track's output range: from round(first · 30 / fps) to round(last · 30 / fps).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// How to resample.
struct ResampleOptions {
  double fps = 30;           ///< rate of the input's frame numbers, frames per second, > 0
  std::uint32_t every = 1;   ///< key spacing in output frames (30 fps), ≥ 1
};

/// Keys resample adds at most (limit_exceeded beyond).
inline constexpr std::size_t kMaxResampleKeys = 50'000'000;

/// The motion baked (rules above). Names and header kept. Errors: invalid_argument (fps not a
/// finite number > 0, every = 0, a name index out of range); limit_exceeded (more than
/// kMaxResampleKeys keys, or a frame beyond 2^32 − 1).
Result<vmd::Motion> resample(const vmd::Motion& motion, const ResampleOptions& options);

}  // namespace mmdkit::motion
