// mmdkit — MMD's keyframe interpolation curve (a cubic Bezier on the unit square).
//
// A VMD curve runs from (0,0) to (1,1) with control points (x1/127, y1/127) and (x2/127, y2/127)
// (docs/formats/NOTES.md "Bone interpolation block", "Evaluation"). Between two keys, with x the normalized
// time in [0,1], MMD solves x(s) = x for the curve parameter s and uses y(s) as the blend weight.
// Since every control x lies in [0,1], x(s) is monotone on [0,1] and the solution is unique.
#pragma once

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// Tolerance of the solve: |x(s) − x| ≤ kBezierTolerance at the returned parameter (unless the
/// bracket shrank below 1e-15 or 64 iterations ran, which only happens where x'(s) is 0 inside
/// the curve, e.g. control x (1, 0): there y(x) has an infinite slope and a float x only fixes s
/// to about 1e-5). Far tighter than the 1e-6 docs/formats/NOTES.md asks; Newton makes it cheap.
inline constexpr double kBezierTolerance = 1e-14;

/// Blend weight y(s) where x(s) = x, for control points (x1, y1), (x2, y2) on the unit square.
/// - x is clamped to [0, 1]; a NaN x gives 0 (the earlier key's value).
/// - Control coordinates are clamped to [0, 1]; a NaN control coordinate counts as 0.
/// - When x1 = y1 and x2 = y2 the curve is the line y = x and x is returned exactly.
/// - Solve: Newton's method inside a shrinking bisection bracket, in double precision, at most
///   64 iterations (each either a Newton step that stays inside the bracket or a bisection), so
///   it always terminates. The result is in [min(0,y1,y2), max(1,y1,y2)] ⊆ [0, 1].
/// saba hangs on NaN here and nanoem uses the nearest of 128 samples; this solves exactly.
float bezier_weight(float x1, float y1, float x2, float y2, float x) noexcept;

/// Same for a VMD curve on MMD's 0..127 grid (bytes above 127 are clamped to 127).
float bezier_weight(const vmd::Curve& curve, float x) noexcept;

}  // namespace mmdkit::anim
