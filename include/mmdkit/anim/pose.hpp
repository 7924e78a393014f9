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
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/math.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::vmd {
struct Motion;
}
namespace mmdkit::vpd {
struct Pose;
}

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

/// The code evaluate* (bones, append, CCD IK, matrices) runs. Chosen once from the CPU: `avx` on
/// x86-64 CPUs that report AVX (the same operations in AVX encodings: three-operand forms, fewer
/// register copies; no FMA, nothing reordered), else `baseline`. Both give the same results bit
/// for bit (tests/anim/eval_reference_test.cpp runs both).
enum class EvalIsa : std::uint8_t { baseline = 0, avx = 1 };
/// The code in use.
EvalIsa eval_isa() noexcept;
/// Selects the code (tests and benchmarks compare them). Asking for `avx` on a CPU without it
/// selects `baseline`. Returns the code now in use. Process-wide; do not call while another thread
/// evaluates.
EvalIsa set_eval_isa(EvalIsa isa) noexcept;

/// Key rotation projected onto a fixed axis (PMX 0x400 / PMD twist): the rotation's angle about
/// its own axis, signed by the axis' direction relative to `axis`, applied about `axis`
/// (babylon-mmd MmdRuntimeBone; MMD does this when loading the motion). A zero axis gives identity.
Quat project_to_axis(const Quat& rotation, const Vec3& axis) noexcept;

/// One or several VMD motions bound to a skeleton, sampled per frame without allocation:
/// bone tracks (binding.hpp, keys merged; the later motion wins at equal frames) and IK on/off
/// from property keys (stepped: the last key at or before the frame holds; before the first key
/// the first key's states; IK bones a motion never mentions stay on). IK names are matched by
/// bytes: the model bone name's match bytes against the 20-byte VMD field up to its first NUL.
class MotionSampler {
 public:
  MotionSampler() = default;
  /// Binds `motions` (nulls skipped) to `skeleton`'s bones and IK solvers. Errors: from
  /// bind_motions.
  static Result<MotionSampler> create(const Skeleton& skeleton, std::span<const vmd::Motion* const> motions);

  /// Samples bone poses into `local` (size ≥ bone count; extra ignored) and IK states into
  /// `ik_enabled` (size ≥ solver count), with the sampler's own cursors. Never allocates.
  void sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled) noexcept;

  /// Per-user lookup caches, so that one sampler (immutable tracks) can be sampled by several
  /// users at once, each with its own Cursors (anim/character.hpp does this).
  struct Cursors {
    std::vector<std::uint32_t> bones;  ///< one per model bone
    std::vector<std::uint32_t> ik;     ///< one per IK solver
    /// One per model bone (sampler.hpp; fewer: the remaining bones are sampled without a cache).
    std::vector<BoneSegmentCache> segments;
  };
  /// Cursors sized for this sampler (allocates; once per user).
  Cursors make_cursors() const;
  /// As sample() above with the caller's cursors (made by make_cursors of this sampler; smaller
  /// cursor vectors sample fewer bones / solvers). Const: safe to call from several threads with
  /// different cursors. Never allocates.
  void sample(double frame, std::span<BonePose> local, std::span<std::uint8_t> ik_enabled,
              Cursors& cursors) const noexcept;

  const BoundMotion& bound() const noexcept { return bound_; }
  /// Last key frame over all bone, morph and property tracks (0 if none).
  std::uint32_t last_frame() const noexcept { return last_frame_; }

 private:
  struct IkKey {
    std::uint32_t frame;
    std::uint8_t enabled;
  };
  void sample_ik(double frame, std::span<std::uint8_t> ik_enabled, std::span<std::uint32_t> cursors) const noexcept;
  BoundMotion bound_;
  std::vector<std::uint32_t> cursors_;
  std::vector<BoneSegmentCache> segments_;
  std::vector<std::vector<IkKey>> ik_tracks_;  // per solver
  std::vector<std::uint32_t> ik_cursors_;
  std::uint32_t last_frame_ = 0;
};

/// Per-bone local poses from a VPD pose: bones matched by their FULL name bytes (a VPD line holds
/// the whole CP932 name, unlike the 15-byte VMD field, so a long name is not cut: two model bones
/// sharing their first 15 bytes are told apart; glmmd VpdData::toModelPose and three.js MMDLoader
/// match whole names too) against BoneDesc::name_bytes; translation and rotation (normalized) as
/// stored; unmatched bones at rest. A VPD bone without raw bytes is encoded from its text in the
/// pose's encoding (binding.hpp vpd_match_key); a later block naming the same bone wins.
/// `unmatched` (optional) receives the indices of VPD bones that matched no model bone; `named`
/// (optional) is set to one flag per model bone, 1 where the pose names it. Used by
/// anim::CharacterData (character.hpp), the one place poses are bound.
std::vector<BonePose> pose_from_vpd(const Skeleton& skeleton, const vpd::Pose& pose,
                                    std::vector<std::size_t>* unmatched = nullptr,
                                    std::vector<std::uint8_t>* named = nullptr);

/// Builds the 4×4 column-major matrix of a rigid transform (rotation then translation).
Mat4 rigid_matrix(const Quat& rotation, const Vec3& translation) noexcept;

}  // namespace mmdkit::anim
