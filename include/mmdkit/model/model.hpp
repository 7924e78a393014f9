// mmdkit — the format-neutral model view: one PMX-level description of a model read from a PMD
// or a PMX file, with every cross reference validated, for evaluation (bones, IK, append, morphs,
// skinning) and export.
//
// Spaces and units (docs/CONVENTIONS.md): MMD model space — left-handed, Y up, the model faces -Z,
// its left is +X; positions and lengths in MMD units (about 8 cm); angles in radians; colours
// linear 0..1 as stored; UVs with V down (0,0 = top left of the texture); frames at 30 fps.
//
// The view is built once (from_pmx / from_pmd / load). PMD-specific semantics are converted here
// and only here (docs/MODEL.md lists each with its source): IK unit angle × 4, the knee rule,
// bone types → flags + append, base-relative morph indices → vertex indices, sphere maps split off
// the texture name, bone-relative rigid bodies → absolute, bone display → display frames, PMD
// transform order (Model::transform_order).
//
// Safety contract: every index stored in the view is either in range for its target array or -1
// ("none"); an entry whose index cannot be kept (a morph offset, a display frame element, a
// triangle with a vertex out of range) is dropped. Each repair adds a Finding to Model::findings.
// Evaluation code may therefore index without checking. Numbers are copied as stored (NaN stays
// NaN: `check` reports non-finite values).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::pmd {
struct Model;
}
namespace mmdkit::pmx {
struct Model;
}

namespace mmdkit::model {

using mmdkit::Vec2;
using mmdkit::Vec3;
using mmdkit::Vec4;  ///< quaternions are (x, y, z, w)

// ---------------------------------------------------------------------------------------------
// Findings (shared by the view builders and `check`)

enum class Severity : std::uint8_t {
  error,    ///< the data is wrong: MMD would misbehave or refuse; the view repaired or dropped it
  warning,  ///< suspicious but usable (weights not summing to 1, missing texture, reader warning)
};

/// What a finding is about (stable; docs/MODEL.md "check" lists each with an example).
enum class FindingKind : std::uint8_t {
  index_out_of_range,     ///< vertex / bone / material / morph / rigid body / texture index
  bone_parent_loop,       ///< following parents returns to the bone (includes parent == self)
  ik_link_not_ancestor,   ///< an IK link that is not an ancestor of the chain's effector
  ik_invalid,             ///< IK chain unusable: effector missing / same as the IK bone, no links
  group_morph_nested,     ///< a group (or flip) morph lists a group or flip morph
  group_morph_loop,       ///< group / flip morph references return to the morph itself
  non_finite,             ///< NaN or infinity in a float field
  face_count_not_triangles,  ///< face index count not a multiple of 3
  material_face_sum,      ///< material face counts do not sum to the face index count
  weights_not_normalized, ///< BDEF4 / QDEF weights (or SDEF/BDEF2 used) not summing to ~1 (±0.01)
  texture_missing,        ///< referenced texture file not found in the model's folder
  texture_escapes,        ///< texture path is absolute or leaves the model's folder ("..")
  name_not_cp932,         ///< a bone / morph name has no CP932 form: VMD tracks cannot bind to it
  reader_warning,         ///< a warning of the PMD / PMX reader (trailing bytes, ...)
  /// A rigid body or joint that physics repairs or ignores (docs/PHYSICS.md "Bad input"): a joint
  /// joining a body to itself, an inverted joint limit (that axis is free), a zero-size or
  /// negative-size shape, a simulated body whose mass is zero or negative. Warnings.
  physics_record,
};

/// Stable snake_case name of a kind ("index_out_of_range", ...).
std::string_view finding_kind_name(FindingKind kind) noexcept;

/// One finding: what, where (section, record, field), why.
struct Finding {
  Severity severity = Severity::error;
  FindingKind kind = FindingKind::index_out_of_range;
  /// Section in the source file's terms: "vertices", "faces", "materials", "bones", "ik chains"
  /// (PMD) / "bones" (PMX IK data lives in bones), "morphs", "display frames", "rigid bodies",
  /// "joints", "textures", "soft bodies", "header".
  std::string section;
  std::int64_t record = -1;  ///< 0-based index in `section` (-1 = the section as a whole)
  /// Field inside the record: "parent", "bones[1]", "links[2].bone", "offsets[5].vertex", ...
  std::string field;
  std::string message;       ///< why, one sentence, no trailing period
  /// "error|warning kind: section 'bones', record 3, field parent: message".
  std::string to_string() const;
};

// ---------------------------------------------------------------------------------------------
// The view

/// Which file the view was built from (x: a DirectX .x accessory or stage, model/accessory.hpp).
enum class SourceFormat : std::uint8_t { pmd, pmx, x };

/// How the renderer shades the model's materials (render/renderer.hpp, docs/RENDER.md).
enum class Shading : std::uint8_t {
  /// MMD's model shader: saturate(diffuse·light + ambient) × texture × sphere × toon + specular.
  model,
  /// MMD's accessory shader (.x files; nanoem accessory_color.hlsl, AccessoryProgramBundle):
  /// no toon; colour = saturate(diffuse·(light − 0.3) + ambient + vertex colour·diffuse·saturate(N·L))
  /// × texture × sphere, + specular × 0.1 with power max(power, 1); `ambient` holds the .x
  /// material's emissive colour.
  accessory,
};

/// How vertices follow bones (PMX numbering).
enum class DeformType : std::uint8_t {
  bdef1 = 0,  ///< bones[0] with weight 1
  bdef2 = 1,  ///< bones[0..1], weights[0] + weights[1] = 1 (weights[1] is filled in, = 1 - weights[0])
  bdef4 = 2,  ///< bones[0..3] and weights[0..3] as stored (MMD does not normalize them)
  sdef = 3,   ///< BDEF2 data + sdef_c / sdef_r0 / sdef_r1 (spherical deform)
  qdef = 4,   ///< PMX 2.1: dual-quaternion blend, data as BDEF4
};

/// A vertex. Unused bone slots are -1 with weight 0. A bone index that was out of range is -1
/// (and its weight kept; a finding says so).
struct Vertex {
  Vec3 position{};                    ///< model space, MMD units
  Vec3 normal{};                      ///< model space, as stored (unit in well-formed files)
  Vec2 uv{};                          ///< V down
  DeformType deform = DeformType::bdef1;
  std::array<std::int32_t, 4> bones{-1, -1, -1, -1};
  Vec4 weights{};                     ///< see DeformType (BDEF1: weights[0] = 1)
  Vec3 sdef_c{}, sdef_r0{}, sdef_r1{}; ///< SDEF only: centre and reference points, model space
  /// Outline width multiplier (PMX as stored; PMD: edge_off 0 → 1, 1 → 0).
  float edge_scale = 1;
};

/// Sphere map blending (PMX numbering).
enum class SphereMode : std::uint8_t { off = 0, multiply = 1, add = 2, subtexture = 3 };

/// Material flags (PMX bit values).
enum MaterialFlag : std::uint8_t {
  kDoubleSided = 0x01,    ///< no back-face culling
  kGroundShadow = 0x02,   ///< casts the ground shadow
  kDrawShadowMap = 0x04,  ///< casts self-shadow
  kReceiveShadow = 0x08,  ///< receives self-shadow
  kDrawEdge = 0x10,       ///< draws the outline
  kVertexColor = 0x20,    ///< PMX 2.1: additional UV 1 is the vertex colour
  kPointDraw = 0x40,      ///< PMX 2.1
  kLineDraw = 0x80,       ///< PMX 2.1
};

/// A material: triangles faces[first_index .. first_index + index_count) (3 indices each).
struct Material {
  std::string name, name_en;  ///< UTF-8 (PMD: no material names; "材質<n>" / "material<n>" as PmxEditor)
  Vec4 diffuse{};             ///< RGBA
  Vec3 specular{};
  float specular_power = 0;
  Vec3 ambient{};
  std::uint8_t flags = 0;     ///< MaterialFlag bits (other bits kept)
  Vec4 edge_color{0, 0, 0, 1};
  float edge_size = 1;        ///< outline width (PMD: 1)
  /// Texture file reference as stored in the model (folder separators as stored, usually '\\'),
  /// relative to the model's folder; empty = none. Resolve with textures.hpp.
  std::string texture;
  std::string sphere;         ///< sphere map reference; empty = none
  SphereMode sphere_mode = SphereMode::off;
  /// Shared toon 0..9 = MMD's toon01.bmp .. toon10.bmp; -1 = not shared (see `toon`).
  std::int32_t shared_toon = -1;
  /// Model-specific toon texture reference when shared_toon == -1; empty = no toon.
  std::string toon;
  std::string memo;
  std::uint32_t first_index = 0;  ///< into Model::faces (a multiple of 3)
  std::uint32_t index_count = 0;  ///< a multiple of 3
};

/// A bone. Flags are PMX's (pmx::BoneFlag) spelled out.
struct Bone {
  std::string name, name_en;  ///< UTF-8
  /// The bytes a VMD track name must equal to drive this bone (MMD compares bytes, docs/formats/NOTES.md
  /// "Text"): PMD: the raw name up to its NUL; PMX: the name encoded in CP932. Cut to 15 bytes
  /// (a lone lead byte at the cut is kept). Empty when the name has no CP932 form (never binds).
  std::vector<std::uint8_t> binding_key;
  std::int32_t parent = -1;   ///< bone index or -1 (a parent that was out of range or looped is -1)
  Vec3 position{};            ///< bind-pose head position, model space, MMD units
  std::int32_t tail_bone = -1;  ///< bone the tail (display end) points at, -1 = use tail_offset
  Vec3 tail_offset{};         ///< tail - head when tail_bone == -1, MMD units
  bool rotatable = true;
  bool movable = false;
  bool visible = true;
  bool operable = true;
  bool is_ik = false;         ///< IK bone: Model::ik_chains[ik_chain] is its chain
  std::int32_t ik_chain = -1; ///< index into Model::ik_chains of the chain this bone drives, -1 none
  bool append_rotation = false;     ///< 付与 rotation: rotation += slerp(I, source, ratio)
  bool append_translation = false;  ///< 付与 translation: translation += source × ratio
  bool append_local = false;  ///< append uses the source's local transform
  std::int32_t append_parent = -1;  ///< source bone (valid whenever an append flag is set; else -1)
  float append_ratio = 0;     ///< may be negative
  bool has_fixed_axis = false;
  Vec3 fixed_axis{};          ///< rotation axis, model space (as stored, not normalized)
  bool has_local_axes = false;
  Vec3 local_x{}, local_z{};  ///< local axes, model space (as stored)
  bool after_physics = false; ///< transformed after physics
  bool has_external_parent = false;
  std::int32_t external_parent_key = 0;
  /// Transform order layer (PMX as stored; PMD: 0, order given by Model::transform_order).
  std::int32_t deform_layer = 0;
  /// PMD only: the bone type as stored (pmd::BoneType, 0..9); -1 for PMX.
  std::int32_t pmd_type = -1;
};

/// One IK link (a bone the CCD solver rotates).
struct IkLink {
  std::int32_t bone = -1;     ///< always valid in the view (invalid links are dropped)
  bool has_limits = false;
  /// Per-axis Euler limits (radians, X Y Z), applied in the link's parent space, PMX convention.
  /// PMD knees (links named 左ひざ / 右ひざ): lower (-π, 0, 0), upper (-0.5°, 0, 0) = X only,
  /// bending the way MMD bends knees (PmxEditor writes these when converting).
  Vec3 lower{}, upper{};
};

/// An IK chain (CCD): rotate `links` so that `effector` reaches the position of `ik_bone`.
struct IkChain {
  std::int32_t ik_bone = -1;   ///< the IK handle bone (goal), always valid
  std::int32_t effector = -1;  ///< the tip moved onto the goal (PMX "IK target"), always valid
  std::int32_t iterations = 0; ///< CCD loop count
  /// Maximum rotation of a link per iteration, radians, PMX convention (PMD stores this / 4; MMD
  /// caps a link's rotation at unit_angle × (link index + 1)).
  float unit_angle = 0;
  std::vector<IkLink> links;   ///< from the effector's parent upwards
  /// Where the chain came from: PMD: its index in the file's IK list; PMX: the IK bone's index.
  std::int32_t source_index = -1;
};

/// Morph types (PMX numbering).
enum class MorphType : std::uint8_t {
  group = 0, vertex = 1, bone = 2, uv = 3,
  additional_uv1 = 4, additional_uv2 = 5, additional_uv3 = 6, additional_uv4 = 7,
  material = 8, flip = 9, impulse = 10,
};

struct GroupOffset {      ///< group and flip morphs
  std::int32_t morph = -1;  ///< valid morph index
  float weight = 0;
};
struct VertexOffset {     ///< vertex morph: position offset at weight 1, MMD units
  std::uint32_t vertex = 0;
  Vec3 offset{};
};
struct BoneOffset {       ///< bone morph at weight 1: translation (MMD units), rotation (x,y,z,w)
  std::int32_t bone = -1;
  Vec3 translation{};
  Vec4 rotation{0, 0, 0, 1};
};
struct UvOffset {         ///< UV (x, y used) / additional UV offset
  std::uint32_t vertex = 0;
  Vec4 offset{};
};
struct MaterialOffset {   ///< operation 0 multiply, 1 add; material -1 = all materials
  std::int32_t material = -1;
  std::uint8_t operation = 0;
  Vec4 diffuse{};
  Vec3 specular{};
  float specular_power = 0;
  Vec3 ambient{};
  Vec4 edge_color{};
  float edge_size = 0;
  Vec4 texture_tint{}, sphere_tint{}, toon_tint{};
};
struct ImpulseOffset {    ///< impulse (2.1): velocity (MMD units/s) and torque (rad/s)
  std::int32_t rigid_body = -1;
  bool local = false;
  Vec3 velocity{}, torque{};
};

/// A morph; only the list of its type is filled.
struct Morph {
  std::string name, name_en;
  std::vector<std::uint8_t> binding_key;  ///< as Bone::binding_key, for VMD morph tracks
  std::uint8_t panel = 4;     ///< 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other
  MorphType type = MorphType::vertex;
  /// Group: children (never a group or flip morph: such entries are dropped with a finding,
  /// as MMD applies one level only). Flip likewise.
  std::vector<GroupOffset> group_offsets;
  std::vector<VertexOffset> vertex_offsets;      ///< vertex (PMD morphs: absolute vertex indices)
  std::vector<BoneOffset> bone_offsets;          ///< bone
  std::vector<UvOffset> uv_offsets;              ///< uv, additional_uv1..4
  std::vector<MaterialOffset> material_offsets;  ///< material
  std::vector<GroupOffset> flip_offsets;         ///< flip
  std::vector<ImpulseOffset> impulse_offsets;    ///< impulse
};

/// A display frame (UI group of bones or morphs).
struct DisplayFrame {
  std::string name, name_en;
  bool special = false;       ///< MMD's fixed frames "Root" and "表情"
  struct Element {
    bool morph = false;       ///< false = bone
    std::int32_t index = -1;  ///< valid bone / morph index
  };
  std::vector<Element> elements;
};

/// Collision shape of a rigid body (PMX / PMD numbering). Values outside 0..2 are kept as stored
/// (physics treats them as a sphere and warns).
enum class RigidBodyShape : std::uint8_t {
  sphere = 0,   ///< radius size[0]
  box = 1,      ///< half extents size[0..2]
  capsule = 2,  ///< radius size[0], cylinder height size[1] (without the caps), along the body's Y
};

/// How a rigid body and its bone move (PMX / PMD numbering; docs/PHYSICS.md). Values outside 0..2
/// are kept as stored (physics treats them as follow_bone and warns).
enum class RigidBodyMode : std::uint8_t {
  follow_bone = 0,        ///< kinematic: the body follows its bone (bone × offset)
  physics = 1,            ///< simulated; the bone follows the body (body × offset⁻¹)
  physics_with_bone = 2,  ///< simulated rotation; the bone keeps its animated translation
};

/// Joint (constraint) type: PMX 2.0 and PMD have spring_6dof only; PMX 2.1 adds the others.
/// Values outside 0..5 are kept as stored (physics treats them as spring_6dof and warns).
enum class JointType : std::uint8_t {
  spring_6dof = 0, six_dof = 1, point_to_point = 2, cone_twist = 3, slider = 4, hinge = 5,
};

/// A rigid body (Bullet). Units (docs/CONVENTIONS.md "Physics"): MMD units, radians, mass in
/// MMD's unitless mass (only ratios matter; the file value is used as is), damping 0..1 per second
/// as Bullet takes it.
struct RigidBody {
  std::string name, name_en;
  std::int32_t bone = -1;     ///< related bone, -1 none (PMD 0xFFFF)
  std::uint8_t group = 0;     ///< collision group 0..15 (the body's group bit is 1 << group)
  /// Bit g SET = this body collides with group g, as stored in both formats (PMX Editor's
  /// "non-collision group" boxes are the CLEARED bits; the PMX field is named non_collision_mask
  /// in the spec). A pair collides iff each one's mask has the other's group bit.
  std::uint16_t collision_mask = 0xFFFF;
  RigidBodyShape shape = RigidBodyShape::sphere;
  Vec3 size{};                ///< MMD units, see RigidBodyShape
  Vec3 position{};            ///< model space, absolute (PMD: bone position + stored offset)
  Vec3 rotation{};            ///< Euler radians (MMD applies Y·X·Z)
  float mass = 0, linear_damping = 0, angular_damping = 0, restitution = 0, friction = 0;
  RigidBodyMode mode = RigidBodyMode::follow_bone;
};

/// A joint between two rigid bodies. Limits as stored (lower > upper on an axis = that axis free
/// in Bullet's convention).
struct Joint {
  std::string name, name_en;
  JointType type = JointType::spring_6dof;
  std::int32_t rigid_body_a = -1, rigid_body_b = -1;  ///< valid index or -1
  Vec3 position{}, rotation{};            ///< model space (absolute in PMD and PMX) / Euler radians
  Vec3 linear_lower{}, linear_upper{};    ///< MMD units, in the joint's frame
  Vec3 angular_lower{}, angular_upper{};  ///< radians
  Vec3 linear_spring{}, angular_spring{}; ///< spring stiffness per axis (Bullet units, as stored)
};

/// How bones are evaluated each frame.
enum class TransformOrder : std::uint8_t {
  /// PMX: bones in Model::bone_order (stable sort by after_physics, deform_layer, index); at each
  /// bone: local → global, append, then its IK chain if it is an IK bone. Physics between the
  /// two after_physics groups.
  pmx,
  /// PMD (MMD's PMD runtime, docs/formats/NOTES.md "Evaluation"): forward kinematics for all bones, then
  /// the IK chains in Model::ik_chains order (PMD file order), then the append (type 5 / 9 follow)
  /// bones. deform_layer is 0 everywhere (as PmxEditor); instead bone_order lists the stages:
  /// ordinary bones, then IK bones (and their descendants), then follow bones (and descendants),
  /// each stage in index order — so a PMX-style loop over bone_order solves every IK chain after
  /// the forward kinematics of all other bones and applies follow bones last. pmd_to_pmx writes
  /// these stages as deform layers 0 / 1 / 2.
  pmd,
};

/// The whole model.
struct Model {
  SourceFormat source = SourceFormat::pmx;
  Shading shading = Shading::model;   ///< accessory for views built from .x (model::from_x)
  /// False for a geometry-free view (BuildOptions::geometry false): `vertices`, `additional_uvs`
  /// and `faces` are empty, every material's face range is 0 / 0, and vertex and UV morphs keep
  /// their type and name but no offsets. Everything else (bones, IK, morph names, bone / material /
  /// group morphs, rigid bodies, joints) is the same as in the full view, bit for bit.
  bool has_geometry = true;
  TransformOrder transform_order = TransformOrder::pmx;
  std::string name, name_en, comment, comment_en;  ///< UTF-8 (comments may hold CR LF)

  std::vector<Vertex> vertices;
  std::uint8_t additional_uv_count = 0;   ///< 0..4 vec4 per vertex
  /// Vertex-major: vertex v, UV k at [v * additional_uv_count + k].
  std::vector<Vec4> additional_uvs;
  /// Per vertex RGBA colour (.x MeshVertexColors; used by accessory shading); empty = all white.
  /// When not empty, vertex_colors.size() == vertices.size().
  std::vector<Vec4> vertex_colors;
  /// Triangle vertex indices, 3 per triangle, all < vertices.size() (clockwise front faces).
  std::vector<std::uint32_t> faces;
  std::vector<Material> materials;
  std::vector<Bone> bones;
  /// PMX: in IK bone index order. PMD: in file order.
  std::vector<IkChain> ik_chains;
  std::vector<Morph> morphs;              ///< PMD: without the base morph (as PmxEditor)
  /// PMD: the file's morph 0 is the base morph, dropped here (file morph = view morph + 1).
  bool pmd_base_morph = false;
  /// PMD with a base morph: the binding key (core/text.hpp binding_key) of its name, usually
  /// "base"; empty otherwise (PMX: a morph named "base" is an ordinary morph). A VMD morph track
  /// or VPD morph block of this name drives nothing (MMD ignores a key of the base morph) and is
  /// not an unmatched track (anim::BindingReport).
  std::vector<std::uint8_t> pmd_base_morph_key;
  std::vector<DisplayFrame> display_frames;
  std::vector<RigidBody> rigid_bodies;
  std::vector<Joint> joints;
  /// PMX 2.1 soft bodies in the file (0 for PMD). The view keeps none of their data: mmdkit does
  /// not simulate them, their vertices follow their bones only (physics warns once per model;
  /// docs/PHYSICS.md).
  std::size_t soft_body_count = 0;
  /// The order bones are transformed in (see TransformOrder); a permutation of 0..bones.size()-1.
  std::vector<std::int32_t> bone_order;

  /// What the builder repaired or dropped, and reader warnings (load only).
  std::vector<Finding> findings;
};

/// Options for from_pmx / from_pmd.
struct BuildOptions {
  /// False: a geometry-free view (Model::has_geometry) for evaluating bones and morph weights
  /// only: vertices, faces and vertex / UV morph offsets are not copied (nor checked: no finding
  /// about them), which is what `sample` needs and much faster on large models.
  bool geometry = true;
};

/// Builds the view from a PMX model (a model read with pmx::ReadOptions::skip_geometry needs
/// geometry = false). Fails only on a limit (more than 2^31 − 1 records).
Result<Model> from_pmx(const pmx::Model& pmx, const BuildOptions& options = {});

/// Builds the view from a PMD model, converting PMD semantics (header comment, docs/MODEL.md).
/// This is the only place PMD bone rules are converted: the runtime skeleton (anim/skeleton.hpp)
/// is built from this view.
Result<Model> from_pmd(const pmd::Model& pmd, const BuildOptions& options = {});

/// Options for load / load_file.
struct LoadOptions {
  std::optional<Encoding> encoding;  ///< PMD: force CP932 / GBK (nullopt = detect)
  bool strict = false;               ///< trailing bytes are an error
  /// False: a geometry-free view (BuildOptions::geometry); PMX vertices and faces are then
  /// validated but not stored while reading (pmx::ReadOptions::skip_geometry).
  bool geometry = true;
};

/// Reads a PMD ("Pmd") or PMX ("PMX ") from memory and builds the view; reader warnings become
/// `reader_warning` findings. Errors: the reader's, or bad_signature when neither format.
Result<Model> load(ByteSpan bytes, const LoadOptions& options = {});

/// load() on a file's contents; errors carry the path in Error::file.
Result<Model> load_file(const std::filesystem::path& path, const LoadOptions& options = {});

/// Index of the first bone named `name` (UTF-8, exact), -1 if none.
std::int32_t find_bone(const Model& model, std::string_view name) noexcept;
/// Index of the first morph named `name`, -1 if none.
std::int32_t find_morph(const Model& model, std::string_view name) noexcept;

}  // namespace mmdkit::model
