// mmdkit — `reduce`: fewer keys with fitted curves, within stated tolerances on every whole frame
// (docs/MOTION.md "reduce").
//
// Bone tracks: walking from a kept key i, the next kept key is the farthest input key j (at most
// kMaxReduceSpan frames on) such that one segment i → j, with the four curves (X, Y, Z,
// rotation) fitted to the input's values on the whole frames between them (motion::fit_curve:
// the target weight of a translation axis is (v − vᵢ) / (vⱼ − vᵢ), of the rotation the position of
// the input rotation along the slerp arc from qᵢ to qⱼ), keeps EVERY whole frame of (i, j) within
// the tolerances, checked with the evaluator's own sampler (anim::sample_bone) on the quantised
// curves:
//   - translation: Euclidean distance between the input's and the output's translation of the
//     bone (its parent space, MMD units) ≤ tol_units;
//   - rotation: the angle between the input's and the output's rotation ≤ tol_deg (degrees).
// Kept keys keep their values and, where nothing between was dropped, their curves; so the
// output equals the input at every kept key. Keys whose physics toggle differs from the kept key
// before them are never dropped (the toggle steps at keys).
// Morph tracks interpolate linearly (no curves in the file): keys are dropped where the straight
// line between the kept neighbours stays within tol_weight on every whole frame.
// Camera, light, self-shadow and property keys are kept as they are.
// The tolerances hold per track in its own space (a bone's local pose), not for world positions
// down a chain, where errors of the parents add up.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// Tolerances (each ≥ 0).
struct ReduceOptions {
  double tol_units = 0.01;   ///< bone translation, MMD units (0.01 ≈ 0.8 mm)
  double tol_deg = 0.1;      ///< bone rotation, degrees
  double tol_weight = 0.005; ///< morph weight
};

/// Longest segment reduce tries, in frames (longer input segments are kept as they are).
inline constexpr std::uint32_t kMaxReduceSpan = 900;

/// What reduce did, and the largest error it measured on every whole frame of every track's
/// range (between its first and last key; up to 10,000,000 frames per track), input vs output,
/// through anim::sample_bone / sample_morph.
struct ReduceReport {
  std::size_t bone_keys_in = 0, bone_keys_out = 0;
  std::size_t morph_keys_in = 0, morph_keys_out = 0;
  double max_translation_error = 0;   ///< MMD units
  double max_rotation_error_deg = 0;  ///< degrees
  double max_weight_error = 0;        ///< morph weight
};

/// The reduced motion (rules above): keys grouped by track, frames increasing, names and header
/// kept. Errors: invalid_argument (a negative or non-finite tolerance; a name index out of range).
Result<vmd::Motion> reduce(const vmd::Motion& motion, const ReduceOptions& options, ReduceReport* report = nullptr);

}  // namespace mmdkit::motion
