// mmdkit — the evaluation pipeline of one model: a character (a model with its motions and poses
// bound) evaluated frame by frame. Every user of evaluation (CLI `pose`, `sample`, render, bake,
// glTF export, the Python module, a scene of several characters) goes through this type, so that
// the same inputs give the same numbers everywhere (docs/EVALUATION.md "Pipeline").
//
// Two parts, ozz style:
//  - CharacterData: immutable, built once, shared (std::shared_ptr<const CharacterData>) by any
//    number of Character instances on any number of threads: the model view (with or without
//    geometry), the runtime skeleton, morph data, skinning data (with geometry), the motions'
//    bone / IK / morph tracks bound to the model, the camera / light / self-shadow tracks, an
//    optional VPD pose, and the binding report (tracks that matched nothing).
//  - Character: one instance's mutable state: sampling cursors, per-frame buffers, the pose,
//    morph and skinning workspaces. All allocation happens in the constructor;
//    evaluate() and skin() never allocate. One Character is used by one thread at a time.
//
// One frame, evaluate(frame) (frames at 30 fps, fractional allowed):
//   1. sample: VMD bone tracks → local poses, property keys → IK on / off, morph tracks → weights
//      (anim/binding.hpp: all motions merged per bone / morph, the later motion wins at equal
//      frames);
//   2. the VPD pose, if any, replaces the bones and morph weights it names (at every frame);
//      IK switched off everywhere when set_ik(false);
//   3. morphs (anim/morph.hpp): vertex / UV offsets, bone morph offsets, material values;
//   4. bones before physics (anim/pose.hpp: append, IK, with the bone morph offsets);
//   5. (physics: between the two bone stages, run by the physics layer over
//      evaluate_before_physics / evaluate_after_physics: physics/character_physics.hpp for one
//      character, physics/scene_physics.hpp for a scene; evaluate() runs none);
//   6. bones after physics, model and skinning matrices;
//   7. camera, light and self-shadow at the frame (from the first motion that has keys of each).
// skin() (optional, needs geometry) then gives posed vertex positions and normals.
//
// Spaces and units: as the layers it runs (docs/CONVENTIONS.md): MMD's left-handed Y-up model
// space, MMD units, radians, quaternions x, y, z, w, matrices column-major with the translation
// at 12..14.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/light.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/anim/morph.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/anim/self_shadow.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/anim/skinning.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}
namespace mmdkit::vmd {
struct Motion;
}
namespace mmdkit::vpd {
struct Pose;
}

namespace mmdkit::anim {

/// What a character is animated by: VMD motions (merged per bone / morph; the later motion wins
/// at equal frames) and at most one VPD pose applied over them at every frame. Pointers are read
/// during CharacterData::create only (the data keeps what it bound, not the motions).
struct MotionInputs {
  std::vector<const vmd::Motion*> motions;  ///< null entries are skipped (they keep their number)
  const vpd::Pose* pose = nullptr;          ///< optional
  /// The input number BindingReport gives the pose; SIZE_MAX (default) = motions.size(). A loader
  /// reading files in command-line order leaves a null in `motions` at the pose's place and
  /// puts that index here, so that report numbers are file numbers.
  std::size_t pose_input = static_cast<std::size_t>(-1);
};

/// The tracks of the inputs that drive nothing in the model (MMD ignores them silently; users
/// want to know: a motion made for another model, a renamed bone).
struct BindingReport {
  struct Track {
    /// Index of the input: the index in MotionInputs::motions for a VMD, MotionInputs::pose_input
    /// for the VPD pose.
    std::size_t input = 0;
    bool morph = false;  ///< false: a bone track (VMD) or bone block (VPD)
    std::string name;    ///< UTF-8 as decoded from the input
  };
  std::size_t unmatched_bones = 0;   ///< VMD bone tracks + VPD bone blocks matching no bone
  /// VMD morph tracks + VPD morph blocks matching no morph. A track naming a PMD model's base morph
  /// (model::Model::pmd_base_morph_key, usually "base": not a morph of the view) is not counted nor
  /// listed: MMD ignores a key of it, and motions made with PMD models carry one.
  std::size_t unmatched_morphs = 0;
  std::vector<Track> unmatched;      ///< all of them, input by input, bones before morphs
  /// Model bones / morphs that the inputs drive (a VMD bone or morph key, or a VPD entry). Both 0
  /// with inputs given: the inputs move nothing of the model (a camera motion, a motion for
  /// another model), every frame is its rest pose.
  std::size_t keyed_bones = 0, keyed_morphs = 0;
};

/// The lines that tell a user about unmatched tracks (empty when everything matched), without a
/// prefix or newline: one per input and kind, in input order, bones before morphs, the input named
/// once at the start (`inputs[Track::input]`; "of the motions" and no name when there is none),
/// then up to `names` track names, e.g. "a.vmd: 5 bone tracks of the motion match no bone of the
/// model and are ignored: 'グルーブ', '腰', ...". The one wording of the CLI's sample / pose /
/// export / render / bake / convert and of the Python module's dataset.
std::vector<std::string> unmatched_messages(const BindingReport& report, std::span<const std::string> inputs,
                                            std::size_t names = 5);

/// Immutable evaluation data of one model and its inputs. Build with create(); share freely.
class CharacterData {
 public:
  /// Binds `inputs` to `model` (a view with or without geometry: model::LoadOptions::geometry)
  /// and prepares everything evaluation needs. Errors: build_skeleton's (invalid_value naming the
  /// bone), MorphData / SkinningData creation's (limit_exceeded), bind_motions' (invalid_argument),
  /// invalid_value (section "vertices" / "morphs", with the record) for a NaN or infinite vertex
  /// or morph offset of a view with geometry (it would reach every posed vertex).
  static Result<std::shared_ptr<const CharacterData>> create(std::shared_ptr<const model::Model> model,
                                                             const MotionInputs& inputs);

  const model::Model& model() const noexcept { return *model_; }
  const std::shared_ptr<const model::Model>& model_ptr() const noexcept { return model_; }
  /// The model view has vertices and faces (skin() works).
  bool has_geometry() const noexcept;
  const Skeleton& skeleton() const noexcept { return skeleton_; }
  const MorphData& morph_data() const noexcept { return morph_data_; }
  /// Skinning data; null for a geometry-free model.
  const SkinningData* skinning() const noexcept { return skinning_ ? &*skinning_ : nullptr; }

  /// Bone names (UTF-8), one per bone (= skeleton().names()).
  std::span<const std::string> bone_names() const noexcept { return skeleton_.names(); }
  /// Morph names (UTF-8), one per model morph (PMD: without the base morph).
  std::span<const std::string> morph_names() const noexcept { return morph_names_; }

  /// The bound bone and IK tracks of the VMD motions.
  const MotionSampler& bone_motion() const noexcept { return bones_; }
  /// The bound morph tracks (BoundMotion::morph_tracks, one per model morph).
  const BoundMotion& morph_motion() const noexcept { return morphs_; }
  std::span<const CameraTrackKey> camera_track() const noexcept { return camera_; }
  std::span<const LightTrackKey> light_track() const noexcept { return light_; }
  std::span<const SelfShadowTrackKey> self_shadow_track() const noexcept { return self_shadow_; }
  /// A VPD pose was given.
  bool has_pose() const noexcept { return has_pose_; }

  /// Last key frame over every bone, morph, IK, camera, light and self-shadow key (0 if none; a
  /// VPD pose has no frames).
  std::uint32_t last_frame() const noexcept { return last_frame_; }
  /// Tracks of the inputs that matched nothing.
  const BindingReport& report() const noexcept { return report_; }

 private:
  friend class Character;
  std::shared_ptr<const model::Model> model_;
  Skeleton skeleton_;
  MorphData morph_data_;
  std::optional<SkinningData> skinning_;
  std::vector<std::string> morph_names_;
  MotionSampler bones_;
  BoundMotion morphs_;
  std::vector<CameraTrackKey> camera_;
  std::vector<LightTrackKey> light_;
  std::vector<SelfShadowTrackKey> self_shadow_;
  bool has_pose_ = false;
  std::vector<std::uint32_t> pose_bone_index_;  // model bone of each VPD override
  std::vector<BonePose> pose_bones_;
  std::vector<std::uint32_t> pose_morph_index_;  // model morph of each VPD override
  std::vector<float> pose_morph_weights_;
  std::uint32_t last_frame_ = 0;
  BindingReport report_;
};

/// One evaluated instance of a CharacterData (see the file comment).
class Character {
 public:
  /// Sizes every buffer for `data` (allocates; the only allocation). `data` must not be null.
  explicit Character(std::shared_ptr<const CharacterData> data);

  const CharacterData& data() const noexcept { return *data_; }
  const std::shared_ptr<const CharacterData>& data_ptr() const noexcept { return data_; }

  /// false: every IK solver off (the CLI's --no-ik), whatever the motions' property keys say.
  void set_ik(bool enabled) noexcept { ik_ = enabled; }
  /// false: evaluate() no longer computes the skinning matrices (PoseWorkspace::set_skinning_matrices;
  /// skin() then fails with invalid_argument), for callers that read bone transforms only, as
  /// `mmdkit sample` does. Every other output is the same, bit for bit. On by default.
  void set_skinning_matrices(bool on) noexcept { pose_.set_skinning_matrices(on); }
  /// false: evaluate() skips the work only the morph outputs need: the morph tracks are not sampled
  /// and no morph is applied (steps 1–3), unless the model has morphs that move bones or give
  /// physics impulses (MorphData::moves_bones_or_bodies: then all of it runs as when on).
  /// morph_weights() and morphs() then keep what they held (zero weights and no offsets before
  /// the first frame that computed them; skin() uses those vertex offsets). Bones and physics get
  /// the same values, bit for bit. For callers that read bones only, as `mmdkit sample` without
  /// --morphs. On by default.
  void set_morphs(bool on) noexcept { morphs_ = on; }
  /// false: evaluate() does not sample the camera, light and self-shadow (step 7); camera(),
  /// light() and self_shadow() keep what they held (defaults before the first sampled frame).
  /// Everything else is the same, bit for bit. For `mmdkit sample` without --camera. On by default.
  void set_camera_and_light(bool on) noexcept { camera_and_light_ = on; }

  /// Evaluates one frame (steps 1–7 of the file comment; no physics). Errors: invalid_argument when `frame`
  /// is NaN or infinite (nothing is evaluated). Never allocates on success.
  Result<void> evaluate(double frame);

  /// Several characters, each evaluating its own frame (frames at 30 fps, fractional allowed, as
  /// evaluate; MMD's rules as there): characters[i]->evaluate(frames[i]) for
  /// every i, the same results bit for bit, in less time on one thread: the bone stages of all of
  /// them run together (anim/pose.hpp evaluate_frames: their IK chains are solved interleaved).
  /// For a sequence of frames without physics, e.g. `mmdkit sample` evaluates kMaxFrameBatch
  /// consecutive frames at a time with that many characters of one CharacterData (characters of
  /// one CharacterData sample with the first one's cursors; any order of frames gives the same
  /// results). Errors: invalid_argument
  /// when the spans differ in length, a character is null or given twice, the characters do not
  /// share one skeleton (Skeleton::id), or a frame is NaN or infinite; nothing is evaluated then.
  /// Never allocates on success.
  static Result<void> evaluate_frames(std::span<Character* const> characters, std::span<const double> frames);

  /// evaluate() in two halves, for the physics layer (physics/character_physics.hpp,
  /// physics/scene_physics.hpp: one run for one character or every model of a scene, as MMD
  /// simulates them together): the first runs steps 1–4 (the bones before physics are final in
  /// physics_pose()), the caller then reads and writes physics_pose()
  /// (physics::ModelPhysics::set_targets / write_bones), the second runs steps 6–7.
  /// evaluate(frame) gives the same bytes as evaluate_before_physics(frame) + evaluate_after_physics().
  /// Errors: evaluate's; evaluate_after_physics: invalid_argument when evaluate_before_physics did
  /// not succeed just before it. Never allocate on success.
  Result<void> evaluate_before_physics(double frame);
  Result<void> evaluate_after_physics();
  /// The pose between the two halves (model transforms of the bones before physics; physics
  /// writes the bones its bodies drive with PoseWorkspace::set_model_transform).
  PoseWorkspace& physics_pose() noexcept { return pose_; }

  /// Posed vertex positions and normals of the last evaluated frame (linear / SDEF / QDEF
  /// skinning with the morph vertex offsets, anim/skinning.hpp); `pool` spreads it over threads
  /// (null: the calling thread). Errors: invalid_argument when the model has no geometry or no
  /// frame was evaluated yet. Never allocates.
  Result<void> skin(ThreadPool* pool = nullptr);

  // --- outputs of the last evaluate() ---------------------------------------------------------
  /// The frame last evaluated (NaN before the first).
  double frame() const noexcept { return frame_; }
  /// Bones: model matrices / rotations / positions, final local rotations / translations, IK
  /// rotations, skinning matrices (anim/pose.hpp PoseWorkspace).
  const PoseWorkspace& pose() const noexcept { return pose_; }
  /// The sampled key pose of each bone (after the VPD override), before append, IK and morphs.
  std::span<const BonePose> key_pose() const noexcept { return local_; }
  /// IK on / off per solver (Skeleton::solvers()) as used this frame.
  std::span<const std::uint8_t> ik_enabled() const noexcept { return ik_enabled_; }
  /// Weight per model morph (CharacterData::morph_names()).
  std::span<const float> morph_weights() const noexcept { return weights_; }
  /// Morph results: vertex / UV offsets, bone offsets, material values, impulses (morph.hpp).
  const MorphWorkspace& morphs() const noexcept { return morph_ws_; }
  const CameraState& camera() const noexcept { return camera_; }
  const LightState& light() const noexcept { return light_; }
  const SelfShadowState& self_shadow() const noexcept { return self_shadow_; }
  /// After skin(): posed positions and normals per vertex (model space, MMD units; empty without
  /// geometry).
  std::span<const Vec3> positions() const noexcept { return positions_; }
  std::span<const Vec3> normals() const noexcept { return normals_; }

 private:
  Result<void> sample_inputs(double frame, Character& cursors);  // steps 1-3, with cursors' cursors
  void sample_scene(double frame, Character& cursors);           // step 7
  std::shared_ptr<const CharacterData> data_;
  MotionSampler::Cursors cursors_;
  std::vector<std::uint32_t> morph_cursors_;
  std::uint32_t camera_cursor_ = 0, light_cursor_ = 0, self_shadow_cursor_ = 0;
  std::vector<BonePose> local_;
  std::vector<std::uint8_t> ik_enabled_;
  std::vector<float> weights_;
  PoseWorkspace pose_;
  MorphWorkspace morph_ws_;
  SkinWorkspace skin_ws_;
  std::vector<Vec3> positions_, normals_;
  CameraState camera_;
  LightState light_;
  SelfShadowState self_shadow_;
  bool ik_ = true;
  bool morphs_ = true, camera_and_light_ = true;
  double pending_frame_ = std::numeric_limits<double>::quiet_NaN();  // between the two halves
  double frame_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace mmdkit::anim
