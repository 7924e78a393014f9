// mmdkit — `trim`: keep the frames first..last of a motion (docs/MOTION.md "trim").
//
// Frames are VMD frames (30 per second) and keep their numbers (trim 100-200 gives keys on 100..200;
// `shift` moves them). Every track with keys — bone, morph, camera, light, self-shadow, property
// (visibility + IK switches) — gets:
//   - a key at `first` and a key at `last` holding the value the track has there (an original key
//     on that frame is kept as it is), and
//   - its original keys strictly between them, unchanged,
// and loses every other key. So the motion evaluates as before on every frame of [first, last]:
//   - bone keys (curves of the LATER key shape a segment, anim/sampler.hpp): where a cut falls
//     inside a segment, the new key there gets the sub-curve of the segment's curve
//     (motion::sub_curve: de Casteljau split, re-normalized) and the key after the cut its other
//     part, each quantised to the 0..127 grid (motion::quantize_curve; TrimReport gives the
//     largest weight error and the value change it causes). The rotation is slerped, and
//     slerp(qa, slerp(qa, qb, wA), w) = slerp(qa, qb, wA·w): the sub-curve reproduces rotations too.
//     The physics toggle of a new key is the state the track has at that frame.
//   - camera keys: the same with its six curves (a camera segment one frame long is a cut in MMD,
//     anim/camera.hpp: a split that leaves one is exact on whole frames, not between them); the
//     view angle is an integer in the file: a value between keys is rounded (reported).
//   - morph and light keys interpolate linearly: the split is exact.
//   - self-shadow and property keys step: the key at `first` / `last` copies the key in force.
// With `exact`, the cut segments are also keyed on each of their whole frames inside the range
// (the values sampled there, sub-curves between them): every whole frame then evaluates as the
// original to float rounding, whatever the curve quantisation does between whole frames.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// What to keep.
struct TrimOptions {
  std::uint32_t first = 0;  ///< first frame kept (30 fps)
  std::uint32_t last = 0;   ///< last frame kept, ≥ first
  /// Key every whole frame of the segments a cut falls in (see the file comment).
  bool exact = false;
};

/// What trim did and how far the result departs from the input inside [first, last].
struct TrimReport {
  std::size_t keys_in = 0;    ///< keys of all sections in the input
  std::size_t keys_out = 0;   ///< keys of all sections in the output
  std::size_t split_curves = 0;  ///< sub-curves quantised onto the grid
  /// Largest weight error of those (motion::QuantizedCurve::max_error; 0..1).
  double max_curve_error = 0;
  /// Largest change inside [first, last], sampled at quarter frames over the cut segments (the
  /// only place values can change), through the evaluator's samplers: bone and camera-target /
  /// distance translations (MMD units), bone rotations (degrees, the angle between the two
  /// rotations) and camera angles (degrees), camera view angle (degrees, the integer rounding).
  double max_translation_error = 0;
  double max_rotation_error_deg = 0;
  double max_view_angle_error_deg = 0;
  /// The same over whole frames only (0 with `exact`, up to float rounding).
  double max_translation_error_whole = 0;
  double max_rotation_error_deg_whole = 0;
};

/// Keys at most this many are added by `exact` (limit_exceeded beyond): a cut segment spanning
/// millions of frames would otherwise turn into millions of keys.
inline constexpr std::size_t kMaxExactKeys = 10'000'000;

/// The motion cut to [first, last] (rules in the file comment). Names, model name, signature,
/// encoding and section counts are kept; `trailing` bytes are kept. Output keys are grouped by
/// track in the input's track order, frames increasing. Errors: invalid_argument (first > last;
/// a key's name index out of range, naming its section and record); limit_exceeded (exact).
Result<vmd::Motion> trim(const vmd::Motion& motion, const TrimOptions& options, TrimReport* report = nullptr);

}  // namespace mmdkit::motion
