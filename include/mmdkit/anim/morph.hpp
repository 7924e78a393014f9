// mmdkit — morph evaluation: morph weights → vertex / UV offsets, per-bone morph offsets, material
// values and impulses, runtime style (ozz-like).
//
// MorphData is built once from the format-neutral model view and never changes. Each frame,
// apply_morphs() reads one weight per model morph (VMD morph tracks bound with anim/binding.hpp
// and sampled with sample_morphs, or a VPD pose: morph_weights_from_vpd) and writes into a
// MorphWorkspace sized once: nothing is allocated per frame. Only the vertices, bones and materials
// a morph touches are written; the workspace keeps lists of what it touched and resets exactly
// those at the start of the next frame (sparse application).
//
// Units and spaces: vertex offsets in MMD units, model space; UV offsets in texture units (V down);
// bone morph translation in MMD units in the bone's parent space (added to the key translation),
// rotation composed before the key rotation (anim/pose.hpp BoneMorphOffset); material values as in
// model::Material (linear 0..1 colours). Rules and their sources: docs/EVALUATION-MORPH-SKIN.md.
//
//   weights   a morph's effective weight is the sum of its own weight and of what groups and
//             flips give it; weights are used as given (not clamped; negative allowed, as MMD).
//   group     each child gets weight × its factor (babylon-mmd MmdMorphControllerBase, nanoem);
//             nested groups / flips expand too (the PMX view drops them, other front ends may
//             not), up to kMaxMorphDepth levels; a morph already being expanded on the current
//             path is skipped (loops are cut, never followed).
//   flip      (PMX 2.1) with n children and weight w > 0: child k = clamp(floor((n + 1)·w) − 1,
//             0, n − 1) is applied with ITS OWN factor as weight (not scaled by w); w ≤ 0 applies
//             nothing (nanoem Model::predeformMorph, the only open runtime implementing it;
//             MMD itself ignores PMX 2.1 morphs).
//   vertex    offset × weight added to the vertex (then skinned: skinning.hpp);
//   uv / additional uv 1–4: offset × weight added (UV: x, y used; additional UV: x, y, z, w);
//   bone      translation × weight added; rotation slerp(identity, q, weight) composed onto the
//             bone's morph rotation in morph order (acc = acc · slerp(I, q, w));
//   material  per material and field: all multiply factors first (factor f at weight w gives
//             1 + (f − 1)·w, multiplied together over morphs), then all add terms (sum of a·w):
//             value = base × Π mul + Σ add (saba MMDMaterialMorph / mmd_tools: multiplies before
//             adds, independent of morph order). Target −1 = every material. Fields: diffuse
//             RGBA, specular RGB, specular power, ambient RGB, edge colour RGBA, edge size, and
//             the texture / sphere / toon tints, given as separate multiply and add factors
//             (base 1 and 0) for a shader: colour × mul + add;
//   impulse   (PMX 2.1) recorded, not applied: one ImpulseEvent per offset with velocity and
//             torque × weight, for a physics engine.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}
namespace mmdkit::vpd {
struct Pose;
}

namespace mmdkit::anim {

using mmdkit::Vec4;

/// Deepest group / flip nesting expanded (the top morph is level 0).
inline constexpr std::size_t kMaxMorphDepth = 8;

/// A material's morphable values (model::Material fields), after morphs.
struct MaterialValues {
  Vec4 diffuse{};          ///< RGBA
  Vec3 specular{};
  float specular_power = 0;
  Vec3 ambient{};
  Vec4 edge_color{};
  float edge_size = 0;
  Vec4 texture_mul{1, 1, 1, 1}, texture_add{};  ///< texture colour × mul + add
  Vec4 sphere_mul{1, 1, 1, 1}, sphere_add{};
  Vec4 toon_mul{1, 1, 1, 1}, toon_add{};
};

/// One impulse (PMX 2.1) to hand to physics this frame.
struct ImpulseEvent {
  std::int32_t rigid_body = -1;  ///< rigid body index
  bool local = false;            ///< velocity / torque in the body's local frame
  Vec3 velocity{};               ///< MMD units / s, already × weight
  Vec3 torque{};                 ///< rad / s, already × weight
};

class MorphWorkspace;

/// Immutable morph data of a model.
class MorphData {
 public:
  MorphData() = default;
  /// Copies what evaluation needs from the view (whose indices are all valid).
  /// Errors: limit_exceeded (section "morphs") above 2^31 − 1 offsets in total.
  static Result<MorphData> create(const model::Model& model);

  std::size_t morph_count() const noexcept { return morphs_.size(); }
  std::size_t vertex_count() const noexcept { return vertex_count_; }
  std::size_t bone_count() const noexcept { return bone_count_; }
  std::size_t material_count() const noexcept { return base_materials_.size(); }
  std::size_t additional_uv_count() const noexcept { return additional_uv_count_; }
  /// True when some morph has bone offsets or impulses (PMX bone / impulse morphs, also reached
  /// through a group or flip morph): morph weights then change bone transforms or physics, not
  /// only vertices, UVs and materials (Character::set_morphs).
  bool moves_bones_or_bodies() const noexcept { return !bone_.empty() || !impulse_.empty(); }
  /// The materials without morphs.
  std::span<const MaterialValues> base_materials() const noexcept { return base_materials_; }
  /// Identity of the build: every create() gives a new non-zero id (copies keep it: they hold the
  /// same morphs). A MorphWorkspace remembers the id it was sized for; apply_morphs refuses
  /// another. 0 for a default-constructed MorphData.
  std::uint64_t id() const noexcept { return id_; }

 private:
  friend struct MorphApplier;
  friend class MorphWorkspace;
  friend Result<void> apply_morphs(const MorphData&, std::span<const float>, MorphWorkspace&);
  struct Morph {
    std::uint8_t type = 1;  // model::MorphType
    std::uint32_t begin = 0, end = 0;  // range in the array of its type
  };
  struct Child {
    std::uint32_t morph;
    float factor;
  };
  struct VertexOff {
    std::uint32_t vertex;
    Vec3 offset;
  };
  struct UvOff {
    std::uint32_t vertex;
    Vec4 offset;
  };
  struct BoneOff {
    std::uint32_t bone;
    Vec3 translation;
    Quat rotation;
  };
  struct MaterialOff {
    std::int32_t material;
    std::uint8_t operation;  // 0 multiply, 1 add
    MaterialValues v;        // texture/sphere/toon tints in the *_mul fields
  };
  struct ImpulseOff {
    std::int32_t rigid_body;
    bool local;
    Vec3 velocity, torque;
  };
  std::uint64_t id_ = 0;
  std::size_t vertex_count_ = 0, bone_count_ = 0, additional_uv_count_ = 0;
  std::vector<Morph> morphs_;
  std::vector<Child> children_;
  std::vector<VertexOff> vertex_;
  std::vector<UvOff> uv_;
  std::vector<BoneOff> bone_;
  std::vector<MaterialOff> material_;
  std::vector<ImpulseOff> impulse_;
  std::vector<MaterialValues> base_materials_;
  std::size_t max_impulse_events_ = 0;
};

/// Outputs of one frame of morphs, sized once for a MorphData (reset allocates; apply_morphs does
/// not).
class MorphWorkspace {
 public:
  MorphWorkspace() = default;
  explicit MorphWorkspace(const MorphData& data) { reset(data); }
  void reset(const MorphData& data);
  /// MorphData::id() of the data the workspace was sized for (0 = never reset).
  std::uint64_t data_id() const noexcept { return data_id_; }

  /// Per vertex: position offset (MMD units, model space); zero where no morph applies. Feed to
  /// skin() as `morph_offsets`.
  std::span<const Vec3> vertex_offsets() const noexcept { return vertex_; }
  /// Per vertex: UV offset (x, y used).
  std::span<const Vec4> uv_offsets() const noexcept { return uv_; }
  /// Per vertex and additional UV k: offset at [v * additional_uv_count + k].
  std::span<const Vec4> additional_uv_offsets() const noexcept { return auv_; }
  /// Per bone: morph translation and rotation for PoseInput::morph (identity where none).
  std::span<const BoneMorphOffset> bone_offsets() const noexcept { return bone_; }
  /// Per material: values after morphs.
  std::span<const MaterialValues> materials() const noexcept { return materials_; }
  /// Impulses of this frame (morph order).
  std::span<const ImpulseEvent> impulses() const noexcept {
    return std::span<const ImpulseEvent>(impulses_.data(), impulse_count_);
  }
  /// Vertices whose position offset may be non-zero this frame (each listed once).
  std::span<const std::uint32_t> touched_vertices() const noexcept { return touched_v_; }
  /// Vertices whose UV or additional UV offset may be non-zero this frame.
  std::span<const std::uint32_t> touched_uv_vertices() const noexcept { return touched_uv_; }
  /// Bones with a morph offset this frame; materials changed this frame.
  std::span<const std::uint32_t> touched_bones() const noexcept { return touched_b_; }
  std::span<const std::uint32_t> touched_materials() const noexcept { return touched_m_; }

 private:
  friend struct MorphApplier;
  friend Result<void> apply_morphs(const MorphData&, std::span<const float>, MorphWorkspace&);
  friend Result<void> validate(const MorphData&, const MorphWorkspace&);
  std::vector<Vec3> vertex_;
  std::vector<Vec4> uv_, auv_;
  std::vector<BoneMorphOffset> bone_;
  std::vector<MaterialValues> materials_;
  std::vector<MaterialValues> mul_, add_;  // per material accumulators
  std::vector<ImpulseEvent> impulses_;
  std::size_t impulse_count_ = 0;
  std::vector<std::uint32_t> touched_v_, touched_uv_, touched_b_, touched_m_;
  std::vector<std::uint8_t> mark_v_, mark_uv_, mark_b_, mark_m_;
  std::size_t auv_count_ = 0;
  std::uint64_t data_id_ = 0;
  bool ready_ = false;
};

/// Checks that `ws` was sized for `data` (as validate() of pose.hpp does for a PoseWorkspace:
/// misuse is an error, not stale output). Errors: invalid_argument (section "morph workspace")
/// when the workspace was never reset, was reset for another MorphData (even one of the same
/// sizes: MorphData::id() differs), or its buffers do not match the data. Never allocates unless
/// it fails.
Result<void> validate(const MorphData& data, const MorphWorkspace& ws);

/// Applies one frame: resets what the previous frame touched, then applies every morph with a
/// non-zero weight (weights[m] for model morph m; a shorter span means 0 for the rest). Errors:
/// validate()'s when the workspace was not built for `data` (nothing is written then). Never
/// allocates on success. Cost: O(touched + offsets of the active morphs).
Result<void> apply_morphs(const MorphData& data, std::span<const float> weights, MorphWorkspace& ws);

/// Per-morph weights of a VPD pose (MikuMikuMoving morph blocks): matched by their FULL CP932
/// name bytes (not cut: see pose_from_vpd in vpd_binding.hpp) against `morph_names`, one per model morph
/// (the morph's name encoded in CP932); the last block wins, unmatched morphs weigh 0. A block
/// without raw bytes is encoded from its text in the pose's encoding (binding.hpp vpd_match_key).
/// `unmatched` (optional) receives the indices of VPD morph blocks that matched no model morph;
/// `named` (optional) is set to one flag per model morph, 1 where the pose names it.
std::vector<float> morph_weights_from_vpd(std::span<const std::vector<std::uint8_t>> morph_names,
                                          const vpd::Pose& pose, std::vector<std::size_t>* unmatched = nullptr,
                                          std::vector<std::uint8_t>* named = nullptr);

}  // namespace mmdkit::anim
