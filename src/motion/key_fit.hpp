// mmdkit motion — keys from wanted model-space transforms (internal; used by bvh_to_vmd and
// keypoints_to_vmd). Each keyed bone wants a model-space rotation (and optionally a position), or
// is an IK bone placed at a goal (its effector's position by default), or has fixed translation
// keys. The keys are evaluated through anim::Character (IK off) and corrected until the evaluated
// transforms are the wanted ones (docs/BVH.md "Fitting"): append bones, fixed axes, bind offsets
// and the evaluation order are MMD's own, never re-implemented here.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "motion/dmath.hpp"

namespace mmdkit::motion::key_fit {

enum class Target : std::uint8_t {
  rotation,           ///< want_rot (model space); with `position`, want_pos too
  fixed_translation,  ///< key_pos as given (rotation identity)
  ik,                 ///< an IK bone: rotation identity, position at want_pos (has_goal) or its effector
};

struct Keyed {
  std::size_t bone = 0;
  Target target = Target::rotation;
  bool position = false;  ///< rotation target that also wants want_pos
  bool has_goal = false;  ///< IK bone with goals in want_pos (frames with a NaN goal: where its effector is)
  bool rotate_ik = false; ///< IK bone that also wants want_rot (a BVH of the model's own skeleton)
};

/// F frames × K keyed bones, frame-major (frame f, bone k at f·K + k).
struct Problem {
  std::shared_ptr<const model::Model> model;
  std::vector<Keyed> keyed;
  std::size_t frames = 0;
  std::uint32_t first_frame = 0;  ///< VMD frame of problem frame 0
  std::vector<dm::Q> want_rot;
  std::vector<dm::V> want_pos;
  std::vector<dm::Q> key_rot;  ///< initial keys (identity is fine), refined in place
  std::vector<dm::V> key_pos;
  /// Property key at first_frame switching every IK solver off (no leg IK in the output).
  bool ik_off = false;
  int max_passes = 12;
};

/// Keyed bone index per model bone (-1 = not keyed).
std::vector<std::int32_t> keyed_index(const Problem& p);

/// Fills key_rot from want_rot relative to the nearest keyed ancestor (a good start).
void initial_keys(Problem& p);

/// Fits the keys and returns the motion (one key per keyed bone per frame, linear curves).
/// `worst_deg` / `worst_units` (optional): the largest remaining error of the last pass.
Result<vmd::Motion> solve(Problem& p, double* worst_deg = nullptr, double* worst_units = nullptr);

/// Drops keys that linear interpolation between their kept neighbours reproduces within
/// `tol_deg` degrees and `tol_units` units (per track; the first and last key stay). Returns the
/// number of keys dropped. tol 0 drops only exact repeats of a constant track.
std::size_t reduce_linear_keys(vmd::Motion& motion, double tol_deg, double tol_units);

}  // namespace mmdkit::motion::key_fit
