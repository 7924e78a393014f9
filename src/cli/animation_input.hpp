// mmdkit CLI — the model and motions that `sample` and `pose` evaluate: read, bound to the model
// once (one helper for both commands).
//
// Motion paths ending in .vpd (any case) are VPD poses, others VMD motions. VMD bone and morph
// tracks of all motions are merged per model bone / morph (anim/binding.hpp: the later motion
// wins at equal frames); the camera track is the first motion's that has camera keys. The motions
// themselves are not kept: only the bound tracks (MotionSampler, BoundMotion) stay in memory.
// Reading the standard input ("-") is refused: these commands need real files (the model's folder
// holds its textures, and several inputs cannot all be stdin).
#pragma once

#include <expected>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

/// What to load.
struct AnimationRequest {
  std::string model;                 ///< .pmx or .pmd (by content)
  std::vector<std::string> motions;  ///< .vmd files and .vpd poses, in command-line order
  /// Keep the model view with its geometry (model::load_file; `pose` skins it). False: only the
  /// skeleton and morph names are built and PMX geometry is skipped while reading (`sample`).
  bool geometry = false;
  /// A VPD pose must be the only motion argument (`sample`); false allows VMDs plus one VPD (`pose`).
  bool pose_alone = false;
  const char* command = "";  ///< "sample" or "pose", for messages
};

/// The loaded model and motions.
struct AnimationInput {
  std::optional<model::Model> view;  ///< set when AnimationRequest::geometry
  anim::Skeleton skeleton;
  std::vector<std::string> morph_names;             ///< the model's morphs (PMD: without the base morph)
  std::vector<std::vector<std::uint8_t>> morph_keys;  ///< their VMD binding keys, same order
  std::optional<vpd::Pose> pose;                    ///< the VPD pose, if one was given
  anim::MotionSampler sampler;                      ///< bone and IK tracks of the VMD motions
  anim::BoundMotion morphs;                         ///< morph tracks, per model morph
  std::vector<anim::CameraTrackKey> camera;         ///< camera track (empty if none)
};

/// Loads everything. Reader warnings are printed to `err` ("mmdkit: warning: FILE: ..."). On
/// failure the message is printed to `err` and the exit code is returned (1 bad input, 2 usage:
/// two VPDs, a VPD mixed with motions when `pose_alone`, "-" as a path).
std::expected<AnimationInput, int> load_animation(const AnimationRequest& request, std::ostream& err);

}  // namespace mmdkit::cli
