// mmdkit — interpolation curves for motion editing: the part of a curve between two times
// (de Casteljau split, re-normalized), quantisation onto MMD's 0..127 grid, and the fit of a
// curve to sampled blend weights (docs/MOTION.md "Curves").
//
// A VMD curve (vmd::Curve) is a cubic Bezier on the unit square from (0,0) to (1,1) with the
// control points (x1/127, y1/127), (x2/127, y2/127); between two keys MMD solves x(s) = x for the
// normalized time x and blends by y(s) (anim/bezier.hpp). Every function here measures what it
// returns against that evaluation (anim::bezier_weight), so a reported error is the error the
// evaluator will see.
#pragma once

#include <span>

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// A curve with real control points on the unit square (not yet on the 0..127 grid). Coordinates
/// may lie outside [0, 1] only where the exact sub-curve of a split does (quantisation clamps).
struct ExactCurve {
  double x1 = 20.0 / 127, y1 = 20.0 / 127, x2 = 107.0 / 127, y2 = 107.0 / 127;
};

/// The weight of an exact curve at normalized time x (clamped to [0, 1]): x(s) = x solved in
/// double precision by Newton's method kept inside a bisection bracket (to |Δs| ≤ 1e-16, or an
/// exact zero of x(s) − x), then y(s).
double curve_weight(const ExactCurve& c, double x) noexcept;

/// The exact curve of the part of `curve` between normalized times x0 < x1 (both in [0, 1]),
/// re-normalized so that it runs from (0,0) to (1,1) again: the parameters s0, s1 with
/// x(s) = x0, x1 are solved, the cubic is cut there (de Casteljau), and the piece is mapped
/// affinely in x and y onto the unit square. Evaluating the piece at x' gives
/// (W(x0 + x'(x1 − x0)) − W(x0)) / (W(x1) − W(x0)), with W the weight of `curve`: a segment whose
/// end values are the original's values at x0 and x1 then moves exactly as the original did. When
/// W(x1) = W(x0) (a flat stretch: the values at both ends are equal) the result is the linear
/// curve. Preconditions: 0 ≤ x0 < x1 ≤ 1 (else the linear curve is returned).
ExactCurve sub_curve(const vmd::Curve& curve, double x0, double x1) noexcept;

/// A curve on MMD's grid and its largest weight error against the curve it stands for.
struct QuantizedCurve {
  vmd::Curve curve;
  /// max |anim::bezier_weight(curve, x) − target(x)| over the 129 times x = k/128 (weight units,
  /// 0..1; a value error is this times the change of the value across the segment).
  double max_error = 0;
};

/// The grid curve closest to `exact`: each coordinate × 127 rounded down or up and clamped to
/// 0..127 (16 candidates), the one with the smallest max_error against curve_weight(exact, ·)
/// chosen. Each coordinate is within 1/127 of the exact one (0.5/127 unless clamped or the other
/// rounding fitted better). There is no a-priori bound on the weight error: where the curve is
/// steep (dy/dx large) a control-x error of 0.5/127 moves the weight by up to dy/dx × 0.5/127, so the
/// error is measured and returned (docs/MOTION.md "Curves": the figures on real motions).
QuantizedCurve quantize_curve(const ExactCurve& exact) noexcept;

/// The grid curve whose weight best matches sampled weights: minimizes
/// max_i |anim::bezier_weight(curve, xs[i]) − ws[i]| by integer coordinate descent (steps 32, 16,
/// ..., 1 on x1, y1, x2, y2, control x kept in 0..127 so the curve stays monotone in time), started
/// from the best of linear and four common eases. xs in [0, 1], ws usually in [0, 1] (any value is
/// accepted). The search stops as soon as max_error ≤ good_enough (0: the best it finds). Returns
/// the curve and its max_error over the samples (0 for no samples).
QuantizedCurve fit_curve(std::span<const double> xs, std::span<const double> ws, double good_enough = 0) noexcept;

}  // namespace mmdkit::motion
