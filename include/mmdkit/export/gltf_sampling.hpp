// mmdkit — the animation of a glTF export sampled from the evaluation pipeline (anim::Character):
// exactly what mmdkit evaluates (Bezier keys, append, IK, bone morphs, physics when the
// caller evaluates through physics/character_physics.hpp: GltfSampling::evaluate), as per-sample node transforms for exporter::write_gltf.
#pragma once

#include <cstddef>
#include <functional>

#include "mmdkit/core/error.hpp"
#include "mmdkit/export/gltf.hpp"

namespace mmdkit::anim {
class Character;
}

namespace mmdkit::exporter {

/// Which samples to take.
struct GltfSampling {
  double first_frame = 0;   ///< 30-fps frame of sample 0 (finite, >= 0)
  double last_frame = -1;   ///< last frame included; < 0 = the character's last key frame
  double fps = 30;          ///< samples per second (> 0): sample i is frame first + i × 30 / fps
  bool morphs = true;       ///< fill morph_weights
  bool camera = false;      ///< fill the camera arrays from the character's camera track
  /// Called after each sample with (samples done, sample count); empty = none (progress bars).
  std::function<void(std::size_t done, std::size_t total)> progress;
  /// Evaluates the character at a frame; empty = Character::evaluate (no physics). With physics:
  /// physics::CharacterPhysics::evaluate of a run whose first frame is first_frame (whole frames,
  /// fps 30), so the simulation starts at the first sample.
  std::function<Result<void>(double frame)> evaluate;
};

/// Evaluates `character` (GltfSampling::evaluate, default Character::evaluate) at every sample, in
/// increasing frame order, and fills a
/// GltfAnimation: for each bone the transform relative to its parent's, computed from the final
/// model-space transforms (PoseWorkspace::model_rotations / model_positions), so that a glTF
/// reader composing them gets the pipeline's model transforms back (up to float rounding):
/// rotation = parent⁻¹ · rotation, translation = parent⁻¹ · (position − parent position) (MMD
/// space and units; write_gltf converts). Morph weights: Character::morph_weights. Camera: eye
/// position, orientation R = Ry(−ry)·Rx(−rx)·Rz(−rz) (anim/camera.hpp), field of view in radians.
/// Errors: invalid_argument for a bad range or fps, or more than 1,000,000 samples; evaluate's
/// errors.
Result<GltfAnimation> sample_animation(anim::Character& character, const GltfSampling& sampling);

}  // namespace mmdkit::exporter
