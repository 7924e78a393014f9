// mmdkit — posing a skeleton: bone local transforms → model-space transforms, with MMD's append
// (付与) and CCD IK, over caller-owned buffers (no allocation per frame after set-up).
//
// Pipeline of one frame (docs/EVALUATION-BONES.md gives every rule with its source):
//   1. inputs: per-bone local pose from a motion (MotionSampler over anim/binding.hpp, or a VPD
//      pose), optional per-bone morph offsets (eval-skin's bone morphs), IK on/off per solver;
//   2. evaluate_before_physics: every bone of the stage before physics, in the skeleton's schedule:
//        animated rotation  Ra = morph_rotation · fixed_axis(key_rotation)
//        animated offset    ta = key_translation + morph_translation
//        append (付与)      R = Ra · slerp(identity, source, ratio), t = ta + ratio · source_t
//                           (source = the source's own append result if it has one, else its
//                           animated value, times its IK rotation; "local" append: the source's
//                           model-space rotation and model-space displacement)
//        local              rotation = IK_rotation · R, translation = bind offset + t
//        model              M = M_parent · local
//      IK bones solve their chain right after themselves (CCD, see ik section of the docs);
//   3. (physics reads/writes model transforms of physics bones: set_model_transform);
//   4. evaluate_after_physics: the after-physics bones the same way, then skinning matrices.
// evaluate() = 2 + 4 without physics.
//
// Space: MMD's left-handed Y-up model space, MMD units; matrices 4×4 column-major with the
// translation at elements 12..14 (docs/CONVENTIONS.md), rigid (rotation + translation, no scale).
//
// Beside it: the code evaluate* runs (anim/eval_isa.hpp), a motion sampled per frame
// (anim/motion_sampler.hpp), a VPD pose bound to a skeleton (anim/vpd_binding.hpp), and the
// per-bone transform helpers (anim/bone_math.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"

namespace mmdkit::anim {

/// A bone morph's contribution to one bone, already weighted and summed over morphs by the caller
/// (eval-skin): translation is ADDED to the key translation (parent space, MMD units), rotation is
/// COMPOSED before the key rotation (morph · key, as babylon-mmd and MMD do). Identity = no morph.
struct BoneMorphOffset {
  Vec3 translation{};
  Quat rotation = kIdentityQuat;
};

/// What one frame's evaluation reads. Spans may be shorter than the bone / solver count: the
/// missing entries count as rest pose, no morph, IK on.
struct PoseInput {
  std::span<const BonePose> local;           ///< per bone: key translation + rotation (parent space)
  std::span<const BoneMorphOffset> morph;    ///< per bone; empty = no bone morphs
  std::span<const std::uint8_t> ik_enabled;  ///< per IK solver (Skeleton::solvers()); 0 = off
};

/// Buffers of one evaluation: created once for a skeleton (allocates), reused for every frame.
/// Outputs are valid after evaluate / evaluate_after_physics (model transforms of before-physics
/// bones already after evaluate_before_physics).
class PoseWorkspace {
 public:
  PoseWorkspace() = default;
  explicit PoseWorkspace(const Skeleton& skeleton) { reset(skeleton); }
  /// Sizes every buffer for `skeleton` (allocates; call once).
  void reset(const Skeleton& skeleton);
  std::size_t bone_count() const noexcept { return model_rot_.size(); }
  /// Skeleton::id() of the skeleton the workspace was sized for (0 = never reset).
  std::uint64_t skeleton_id() const noexcept { return skeleton_id_; }

  /// Model-space matrices (column-major, translation at 12..14), one per bone.
  std::span<const Mat4> model_matrices() const noexcept { return model_mat_; }
  /// Model-space rotation of each bone (unit quaternion).
  std::span<const Quat> model_rotations() const noexcept { return model_rot_; }
  /// Model-space position of each bone's head (MMD units).
  std::span<const Vec3> model_positions() const noexcept { return model_pos_; }
  /// Skinning matrices = model matrix × inverse bind matrix (the bind pose has no rotation, so the
  /// inverse bind is a translation by −bind position). Vertex' = S · vertex (model space).
  /// Not updated while set_skinning_matrices(false) (they keep their last values).
  std::span<const Mat4> skinning_matrices() const noexcept { return skin_mat_; }
  /// false: evaluate_after_physics fills the model matrices only, not skinning_matrices() (a
  /// caller that reads bone transforms and skins nothing, as `mmdkit sample`: a third of that
  /// stage's work). On by default; model matrices and every other output are the same either way.
  void set_skinning_matrices(bool on) noexcept { skinning_ = on; }
  /// Whether evaluate_after_physics fills skinning_matrices() (set_skinning_matrices).
  bool skinning_matrices_on() const noexcept { return skinning_; }
  /// Final local rotation (IK · append · morph · key) and translation (bind offset + ...) per bone.
  std::span<const Quat> local_rotations() const noexcept { return local_rot_; }
  std::span<const Vec3> local_translations() const noexcept { return local_pos_; }
  /// The IK rotation of each bone (identity for bones no enabled IK moved), parent space.
  std::span<const Quat> ik_rotations() const noexcept { return ik_rot_; }

  /// Physics hook: overwrite one bone's model transform between evaluate_before_physics and
  /// evaluate_after_physics (its model matrix is rebuilt; out-of-range bones are ignored).
  void set_model_transform(std::size_t bone, const Quat& rotation, const Vec3& position) noexcept;

 private:
  friend struct PoseEvaluator;
  std::vector<Quat> anim_rot_;    // animated rotation (morph · fixed-axis key)
  std::vector<Vec3> anim_pos_;    // animated offset (key + morph)
  std::vector<Quat> append_rot_;  // rotation after append (= anim_rot_ without append rotation)
  std::vector<Vec3> append_pos_;  // offset after append
  std::vector<Quat> ik_rot_;
  std::vector<Quat> local_rot_;
  std::vector<Vec3> local_pos_;
  std::vector<Quat> model_rot_;
  std::vector<Vec3> model_pos_;
  std::vector<Mat4> model_mat_;
  std::vector<Mat4> skin_mat_;
  std::vector<std::uint8_t> stage_;  // per bone: 0 before physics, 1 after
  std::uint64_t skeleton_id_ = 0;
  bool skinning_ = true;
};

/// Checks that `ws` was sized for `skeleton` (ozz's SamplingJob::Validate() idea: a job refuses
/// buffers that do not fit instead of writing stale or partial output). Errors: invalid_argument
/// (section "pose workspace") when the workspace was never reset, was reset for another skeleton
/// (even one with the same bone count: Skeleton::id() differs), or its buffers do not match the
/// bone count. Never allocates unless it fails.
Result<void> validate(const Skeleton& skeleton, const PoseWorkspace& ws);

/// Stage before physics: resets every model transform to identity (as babylon-mmd does each
/// frame, so a bone sorted before its parent sees an identity parent), then runs the
/// before-physics schedule. Errors: validate()'s, when the workspace was not built for this
/// skeleton (nothing is written then). Never allocates on success.
Result<void> evaluate_before_physics(const Skeleton& skeleton, const PoseInput& input, PoseWorkspace& ws);

/// Stage after physics: runs the after-physics schedule, then fills model matrices of all bones
/// and the skinning matrices (unless PoseWorkspace::set_skinning_matrices(false)). Errors and
/// allocation as evaluate_before_physics.
Result<void> evaluate_after_physics(const Skeleton& skeleton, const PoseInput& input, PoseWorkspace& ws);

/// Both stages without physics. Errors and allocation as evaluate_before_physics.
Result<void> evaluate(const Skeleton& skeleton, const PoseInput& input, PoseWorkspace& ws);

/// Most frames evaluate_frames* takes in one pass (more are taken in passes of this many).
inline constexpr std::uint32_t kMaxFrameBatch = 4;

/// Several poses of one skeleton at once — typically consecutive frames of a motion, each with
/// its own input and workspace: the results are those of evaluate_before_physics(skeleton,
/// inputs[i], *workspaces[i]) for every i, bit for bit, in less time on one thread. The IK chains
/// of all the poses are solved interleaved (a CCD turn waits on the previous turn's square roots
/// and divisions; the other poses' turns fill those waits, and equal-shaped chains of different
/// poses turn in lockstep on 8-lane vectors, docs/EVALUATION-BONES.md "Frames together"); each
/// chain runs its own operations in its own order. The workspaces must be distinct. Errors:
/// invalid_argument when the spans differ in length or a workspace appears twice; validate()'s
/// for the first workspace that fails; nothing is written then. Never allocates on success.
Result<void> evaluate_frames_before_physics(const Skeleton& skeleton, std::span<const PoseInput> inputs,
                                            std::span<PoseWorkspace* const> workspaces);
/// evaluate_after_physics for several poses at once, as evaluate_frames_before_physics.
Result<void> evaluate_frames_after_physics(const Skeleton& skeleton, std::span<const PoseInput> inputs,
                                           std::span<PoseWorkspace* const> workspaces);
/// Both stages for several poses without physics: evaluate(skeleton, inputs[i], *workspaces[i])
/// for every i, as evaluate_frames_before_physics.
Result<void> evaluate_frames(const Skeleton& skeleton, std::span<const PoseInput> inputs,
                             std::span<PoseWorkspace* const> workspaces);

}  // namespace mmdkit::anim
