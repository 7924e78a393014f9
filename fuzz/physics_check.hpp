// mmdkit fuzzing — the physics property (fuzz target fuzz_physics, replayed by tests/regress): any
// bytes that load as a PMD or PMX model build a physics world (physics::World::add_model) and step
// a few animated frames without a crash, and physics puts no NaN or infinity into an output that
// the same frames evaluated without physics have finite (bone model transforms), nor into a rigid
// body's transform; every warning names its section and says why.
#pragma once

#include <string>

#include "mmdkit/core/bytes.hpp"

namespace mmdkit::fuzz {

/// Frames stepped per input (frame 0 = reset with a short warm-up, then step_frame).
inline constexpr int kPhysicsFuzzFrames = 8;

/// Empty when the property holds (also when the bytes are not a model: the readers' own targets
/// check their errors), else a description of the finding.
std::string check_physics(ByteSpan input);

}  // namespace mmdkit::fuzz
