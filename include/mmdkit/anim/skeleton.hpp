// mmdkit — the runtime skeleton: a model's bones prepared once for evaluation (ozz style).
//
// A Skeleton is built once from a format-neutral bone list (BoneDesc, filled from a PMX or PMD
// model) and never changes afterwards. It holds what evaluation needs in flat arrays: parents, bind
// offsets, append (付与) sources, fixed axes, IK solvers with their links and limits, and the
// evaluation SCHEDULE — the order in which MMD transforms bones and solves IK. Evaluation itself
// (pose.hpp) runs over caller-owned buffers and never allocates.
//
// Space and units: MMD's left-handed, Y-up model space (model faces −Z), MMD units, radians,
// quaternions x, y, z, w (docs/CONVENTIONS.md). Rules and their sources: docs/EVALUATION-BONES.md.
//
// Evaluation order (docs/formats/NOTES.md "Evaluation"; babylon-mmd MmdModel._update):
//  - PMX (OrderRule::pmx): bones sorted stably by (after-physics flag, deform layer, index); the
//    bones without the after-physics flag form the stage before physics, the others the stage after.
//    Each bone in that order: local transform → model transform (append applied); if the bone is an
//    IK bone, its chain is solved right after it (then the bones already evaluated below the chain
//    links are evaluated again so that they follow).
//  - PMD (OrderRule::pmd): every bone in parent-first order (stable by index), then the IK chains in
//    file order, then the bones that follow others (type 5 / 9, given as append rotations) and their
//    descendants once more, so they see the solved chains. (babylon-mmd instead puts IK bones last
//    and updates their children before them: a known fault, see peers/README.md.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::anim {

/// "No bone" in every bone index field.
inline constexpr std::int32_t kNoBone = -1;

/// Largest CCD iteration count used (babylon-mmd caps at 256 too; real models use 1..255).
inline constexpr std::uint32_t kMaxIkIterations = 256;

/// Which order rules apply (see the file comment).
enum class OrderRule : std::uint8_t { pmx, pmd };

/// One IK link as the model gives it.
struct IkLinkDesc {
  std::int32_t bone = kNoBone;  ///< link bone index; links go from the effector's parent upward
  bool has_limits = false;      ///< per-axis Euler limits present
  Vec3 lower{};                 ///< radians, per axis, Euler angles in the link's parent space
  Vec3 upper{};                 ///< radians (lower/upper are swapped per axis where reversed)
};

/// One bone, format-neutral: everything evaluation needs, nothing about drawing.
struct BoneDesc {
  std::string name;                 ///< UTF-8 (for output and lookup only)
  /// The name's CP932 bytes (PMD: as stored up to the NUL; PMX: encoded). VMD tracks match their
  /// first 15 bytes (binding.hpp), VMD IK switches their first 20, VPD bones all of them. Empty =
  /// matches nothing.
  std::vector<std::uint8_t> name_bytes;
  Vec3 position{};                  ///< bind-pose head, model space, MMD units
  std::int32_t parent = kNoBone;    ///< parent bone index
  std::int32_t deform_layer = 0;    ///< PMX transform layer (lower first); PMD: 0
  bool after_physics = false;       ///< PMX flag 0x1000: transformed after physics

  // Append (付与): this bone adds `append_ratio` of the source bone's rotation and/or translation.
  std::int32_t append_source = kNoBone;
  float append_ratio = 0.0f;        ///< may be negative (mirrors); 1 = full
  bool append_rotation = false;     ///< PMX 0x100 (PMD type 5 / 9 follow bones)
  bool append_translation = false;  ///< PMX 0x200
  bool append_local = false;        ///< PMX 0x80: use the source's model-space transform (see pose.hpp)

  // Fixed axis (PMX 0x400, PMD type 8 twist bones): key rotations are projected onto this axis.
  bool has_fixed_axis = false;
  Vec3 fixed_axis{};                ///< direction in the parent space (need not be unit length)

  // IK (PMX 0x20, PMD IK chains): this bone is the goal; `ik_effector` is moved onto it.
  std::int32_t ik_effector = kNoBone;  ///< kNoBone = not an IK bone
  std::uint32_t ik_iterations = 0;     ///< CCD loop count (capped at kMaxIkIterations)
  float ik_unit_angle = 0.0f;          ///< radians: max rotation of link i per step is unit × (i + 1)
  std::vector<IkLinkDesc> ik_links;
  /// PMD: position of this IK chain in the file's IK list (solve order); -1 = by bone order.
  std::int32_t ik_file_order = -1;
};

/// The input of build_skeleton.
struct SkeletonDesc {
  OrderRule rule = OrderRule::pmx;
  std::vector<BoneDesc> bones;
};

/// Per-axis solve mode of an IK link (babylon-mmd IkChain, from saba): links whose limits allow
/// one axis only rotate about that axis in the first half of the iterations.
enum class IkSolveAxis : std::uint8_t { none, fixed, x, y, z };
/// Euler decomposition used for a link's limits: the first order whose middle angle's limits lie
/// inside (−90°, 90°) — YXZ if X's do, else ZYX if Y's do, else XZY (babylon-mmd).
enum class IkEulerOrder : std::uint8_t { yxz, zyx, xzy };

/// Constants for limiting a single-axis link (IkSolveAxis x, y or z) on half angles, so that the
/// solver needs no trigonometric call per iteration (src/anim/ik.cpp). lo, hi = the axis's lower
/// and upper limits (radians, −π ≤ lo ≤ hi ≤ π, float π).
struct IkAxisLimit {
  float lo_half_sin = 0.0f, lo_half_cos = 1.0f;  ///< sin, cos of lo / 2
  float hi_half_sin = 0.0f, hi_half_cos = 1.0f;  ///< sin, cos of hi / 2
  float lo_sin = 0.0f, lo_cos = 1.0f;            ///< sin, cos of lo
  float hi_sin = 0.0f, hi_cos = 1.0f;            ///< sin, cos of hi
  /// An angle below lo is reflected (2·lo − angle) only when angle ≥ 2·lo − hi: sin of half that
  /// bound, or −2 when the bound is ≤ −π (always).
  float reflect_lo_half_sin = -2.0f;
  /// An angle above hi is reflected (2·hi − angle) only when angle ≤ 2·hi − lo: sin of half that
  /// bound, or 2 when the bound is ≥ π (always).
  float reflect_hi_half_sin = 2.0f;
};

/// One IK link prepared for solving.
struct IkLink {
  std::uint32_t bone = 0;
  bool has_limits = false;
  Vec3 lower{};  ///< radians, min ≤ max per axis
  Vec3 upper{};
  IkSolveAxis axis = IkSolveAxis::none;
  IkEulerOrder order = IkEulerOrder::xzy;
  std::uint32_t path_index = 0;  ///< position of the link in its solver's path (bones re-evaluated after it turns)
  /// The per-iteration cap of this link, unit angle × (index in the chain + 1) in radians, as the
  /// sine and cosine of its half (float `std::sin(0.5f * cap)`, `std::cos(0.5f * cap)`; a cap ≥ π
  /// never limits and has cosine −2). Used when `cap_half_valid` (cap > 0; otherwise the solver
  /// takes min(cap, angle) with atan2 as written).
  float cap_half_sin = 0.0f, cap_half_cos = 1.0f;
  bool cap_half_valid = false;
  /// Single-axis limits within [−π, π] (`axis` x, y or z, has_limits): limited on half angles with
  /// `axis_limit`; other limited links go through the Euler decomposition.
  bool axis_limit_valid = false;
  IkAxisLimit axis_limit;
};

/// One IK solver prepared for solving.
struct IkSolver {
  std::uint32_t bone = 0;      ///< the IK bone (goal position)
  std::uint32_t effector = 0;  ///< moved onto the goal
  std::uint32_t iterations = 0;
  float unit_angle = 0.0f;     ///< radians
  std::uint32_t link_begin = 0, link_end = 0;    ///< range in Skeleton::ik_links()
  std::uint32_t path_begin = 0, path_end = 0;    ///< bones from the top link down to the effector (parent-first)
  std::uint32_t refresh_begin = 0, refresh_end = 0;  ///< bones evaluated again after the solve
  /// The path has at most kIkLocalPath bones and none with an append transform: solved on local
  /// copies of the path's transforms (src/anim/ik.cpp), and it may be solved with others (IkGroup).
  bool local_path = false;
  /// When the solve starts, the path (links, effector, the bones between) is already as the start
  /// of a solve would evaluate it: every path bone's step runs earlier in the before-physics plan,
  /// and no step between that and the solve writes the bone, its parent or its append source (so
  /// the links' IK rotations are still the prepass's identity). The solve then skips resetting
  /// and re-evaluating the path: the same values, not computed twice (mark_prepared_paths).
  bool path_prepared = false;
};

/// Longest path (bones) of a chain solved on local copies (IkSolver::local_path).
inline constexpr std::uint32_t kIkLocalPath = 32;
/// Most chains, and most path bones in all, of one IkGroup.
inline constexpr std::uint32_t kIkGroupChains = 8, kIkGroupPath = 64;

/// IK chains solved together, interleaved (each with its own state and early exit, so that the CPU
/// overlaps their dependent arithmetic), with the same floats as solving them one after another.
/// build_skeleton gathers chains into a group only when that is provably the same: every member
/// has a local path (IkSolver::local_path); no member writes a bone another member reads (links,
/// path, effector, refresh list; reads add the IK bone, and the parents and append sources of the
/// bones it writes); and every bone step scheduled between two members neither reads a bone a
/// member writes nor writes a bone a member reads (it is run before the group).
struct IkGroup {
  std::uint32_t solvers[kIkGroupChains] = {};  ///< indices into Skeleton::solvers(), in schedule order
  std::uint32_t count = 0;                     ///< 2..kIkGroupChains
};

/// One step of the evaluation schedule.
struct ScheduleStep {
  /// ik_group appears only in the run plans (Skeleton::plan_before_physics), never in the schedule.
  enum Kind : std::uint8_t { bone, ik, ik_group } kind = bone;
  std::uint32_t index = 0;  ///< bone index, IK solver index or IK group index (Skeleton::ik_groups)
};

/// The immutable runtime skeleton.
class Skeleton {
 public:
  Skeleton() = default;

  std::size_t bone_count() const noexcept { return parent_.size(); }
  std::size_t ik_count() const noexcept { return solvers_.size(); }

  std::span<const std::int32_t> parents() const noexcept { return parent_; }
  /// Bind head position, model space.
  std::span<const Vec3> bind_positions() const noexcept { return bind_; }
  /// Bind offset from the parent's head (= position − parent position; the position for roots).
  std::span<const Vec3> bind_offsets() const noexcept { return offset_; }
  std::span<const std::string> names() const noexcept { return names_; }
  /// Per bone: the VMD track match key (name bytes cut to 15, mmdkit::binding_key).
  std::span<const std::vector<std::uint8_t>> match_keys() const noexcept { return keys_; }
  const BoneDesc& desc(std::size_t bone) const noexcept { return desc_[bone]; }
  /// IK solver of a bone (index into solvers()), −1 if it is not an IK bone.
  std::int32_t ik_of_bone(std::size_t bone) const noexcept { return ik_of_bone_[bone]; }
  std::span<const IkSolver> solvers() const noexcept { return solvers_; }
  std::span<const IkLink> ik_links() const noexcept { return links_; }
  /// Bone lists referenced by IkSolver path / refresh ranges.
  std::span<const std::uint32_t> ik_bone_lists() const noexcept { return lists_; }
  /// Steps before physics, then after physics.
  std::span<const ScheduleStep> schedule_before_physics() const noexcept { return before_; }
  std::span<const ScheduleStep> schedule_after_physics() const noexcept { return after_; }
  /// What evaluation runs for each stage: the schedule with independent IK chains gathered into
  /// ik_group steps (IkGroup; bone steps between them moved before the group). Same results.
  std::span<const ScheduleStep> plan_before_physics() const noexcept { return plan_before_; }
  std::span<const ScheduleStep> plan_after_physics() const noexcept { return plan_after_; }
  /// The IK groups of the plans (empty when no two chains can be solved together).
  std::span<const IkGroup> ik_groups() const noexcept { return groups_; }
  /// The bones in evaluation order (both stages, each bone once).
  std::span<const std::uint32_t> order() const noexcept { return order_; }
  OrderRule rule() const noexcept { return rule_; }
  /// Identity of the build: every build_skeleton call gives a new non-zero id (copies keep it:
  /// they hold the same bones). A PoseWorkspace remembers the id of the skeleton it was sized for
  /// and evaluation refuses another one (pose.hpp). 0 for a default-constructed skeleton.
  std::uint64_t id() const noexcept { return id_; }
  /// Index of the bone with this UTF-8 name, −1 if none (first match).
  std::int32_t find(std::string_view name) const noexcept;

 private:
  friend Result<Skeleton> build_skeleton(SkeletonDesc desc);
  friend struct SkeletonBuilder;  // internal (skeleton.cpp): the steps of build_skeleton
  OrderRule rule_ = OrderRule::pmx;
  std::uint64_t id_ = 0;
  std::vector<BoneDesc> desc_;
  std::vector<std::int32_t> parent_;
  std::vector<Vec3> bind_, offset_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::uint8_t>> keys_;
  std::vector<std::int32_t> ik_of_bone_;
  std::vector<IkSolver> solvers_;
  std::vector<IkLink> links_;
  std::vector<std::uint32_t> lists_;
  std::vector<ScheduleStep> before_, after_;
  std::vector<ScheduleStep> plan_before_, plan_after_;
  std::vector<IkGroup> groups_;
  std::vector<std::uint32_t> order_;
};

/// Builds the skeleton. Checks: every bone index (parent, append source, IK effector, IK link) is
/// −1 or in range — an out-of-range or self append source / parent is an error (invalid_value,
/// section "bones", record = bone index); parent chains must not loop (invalid_value); a NaN or
/// infinite bind position, fixed axis, IK unit angle or IK link limit is an error (invalid_value;
/// a non-finite append ratio counts as 0). IK bones
/// whose effector is missing, and links that are not ancestors of the effector, are kept as MMD
/// does (they simply do not move the effector). Cost: O(bones × depth).
Result<Skeleton> build_skeleton(SkeletonDesc desc);

/// The SkeletonDesc of the format-neutral model view (model/model.hpp). This is the only way from
/// a PMD or PMX file to a skeleton: the view converts the PMD rules once (model/from_pmd.cpp,
/// docs/MODEL.md: knee limits, IK unit angle × 4, type 5 / 9 follow bones as append rotations,
/// type 8 twist bones as normalised fixed axes), and a geometry-free view (model::LoadOptions
/// geometry = false) gives the same skeleton as the full one. The PMD order rule applies when
/// Model::transform_order is pmd (the view's PMD stage layers are not needed), PMX otherwise.
/// Name bytes: the name encoded to CP932 (the binding key when it cannot be).
Result<SkeletonDesc> skeleton_desc_from_model(const model::Model& model);

/// build_skeleton(skeleton_desc_from_model(model)).
Result<Skeleton> build_skeleton(const model::Model& model);

}  // namespace mmdkit::anim
