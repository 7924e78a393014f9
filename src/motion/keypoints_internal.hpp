// mmdkit motion — internal pieces of the keypoint conversion shared by its files.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::motion::kp {

/// The layout's joints on the model (MMD space): at rest when the spans are empty, else posed
/// by the model-space rotations and head positions given (one per bone). NaN where the model
/// has no such point.
std::vector<std::array<double, 3>> layout_on_model(const model::Model& m, KeypointLayout layout,
                                                    std::span<const Quat> rotations, std::span<const Vec3> positions);

/// Missing joints (NaN, or confidence below `min_confidence`) take their last valid position
/// (before the first valid one: the first). Returns the number of values filled in; `never`
/// receives the joints without any valid position. positions: F × J × 3 doubles.
std::size_t hold_missing(std::vector<double>& positions, std::size_t frames, std::size_t joints,
                         std::span<const float> confidence, float min_confidence, std::vector<std::size_t>& never);

/// One-Euro filter over every joint coordinate in time (F × J × 3, in place) at `fps`.
void one_euro(std::vector<double>& positions, std::size_t frames, std::size_t joints, const OneEuro& settings, double fps);

}  // namespace mmdkit::motion::kp
