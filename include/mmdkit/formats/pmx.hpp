// mmdkit — PMX 2.0 / 2.1 (Polygon Model eXtended) models: data model, reading and writing.
//
// Layout: docs/formats/pmx.md, docs/formats/NOTES.md and PmxEditor's "PMX仕様.txt".
// Units and spaces: positions and lengths in MMD units (about 8 cm) in MMD's left-handed, Y-up
// model space (model faces -Z); angles in radians; colours linear 0..1 RGBA as stored; UVs with
// V down (0,0 = top left of the texture).
//
// Reading keeps every byte: raw string bytes next to decoded UTF-8 text, every global byte of the
// header (including any beyond the 8 known), index sizes, and any bytes after the last section.
// Writing an unmodified Model gives back the identical file (checked on every corpus PMX).
//
// Index conventions (PMX spec): vertex indices of size 1 and 2 are unsigned, size 4 is a signed
// 32-bit value (mmdkit keeps its bits in a uint32_t). Every other index (texture, material, bone,
// morph, rigid body) is signed at every size; -1 means "none".
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::pmx {

using mmdkit::Vec2;
using mmdkit::Vec3;
using mmdkit::Vec4;

/// The 4 signature bytes at offset 0.
inline constexpr std::array<std::uint8_t, 4> kSignature{'P', 'M', 'X', ' '};
/// Bytes before the globals: signature, version float, globals count.
inline constexpr std::size_t kHeaderFixedSize = 9;
/// Global bytes every known file has (encoding, additional UVs, six index sizes).
inline constexpr std::size_t kKnownGlobals = 8;
/// Largest additional UV (vec4) count per vertex allowed by the spec.
inline constexpr std::uint8_t kMaxAdditionalUvs = 4;
/// Index value meaning "none" for texture, material, bone, morph and rigid body indices.
inline constexpr std::int32_t kNone = -1;

/// Format version, decided from the stored float with a tolerance of 1e-3
/// (the stored float, e.g. 2.0999999, is kept in Header::version_value).
enum class Version : std::uint8_t {
  v2_0,  ///< PMX 2.0 (PmxEditor 0.2.x, most files)
  v2_1,  ///< PMX 2.1: adds QDEF, flip and impulse morphs, joint types 1-5, material flags 0x20-0x80, soft bodies
};

/// The header: version and the "globals" bytes.
struct Header {
  Version version = Version::v2_0;
  float version_value = 2.0f;       ///< the float stored at offset 4, written back as is
  Encoding encoding = Encoding::utf16le;  ///< global 0: 0 = UTF-16LE, 1 = UTF-8 (others are an error)
  std::uint8_t additional_uv_count = 0;   ///< global 1: additional vec4 UVs per vertex, 0..4
  std::uint8_t vertex_index_size = 4;     ///< global 2: 1, 2 or 4 bytes (1 and 2 unsigned)
  std::uint8_t texture_index_size = 1;    ///< global 3: 1, 2 or 4 bytes (signed)
  std::uint8_t material_index_size = 1;   ///< global 4
  std::uint8_t bone_index_size = 2;       ///< global 5
  std::uint8_t morph_index_size = 2;      ///< global 6
  std::uint8_t rigid_body_index_size = 2; ///< global 7
  /// Global bytes beyond the 8 known ones (globals count = 8 + size), written back as read.
  std::vector<std::uint8_t> extra_globals;
};

/// A PMX string (u32 byte length + bytes in the model's encoding): mmdkit::EncodedText
/// (core/text.hpp), the one name type. `raw` is what the file held and is what the writer writes
/// when it is non-empty; `text` is the UTF-8 decoding (invalid sequences become U+FFFD). To change
/// a string, use assign() (sets text, clears raw so the writer encodes the text in the model's
/// encoding).
using Text = mmdkit::EncodedText;

/// How a vertex is bound to bones (the byte before the deform data).
enum class DeformType : std::uint8_t {
  bdef1 = 0,  ///< one bone, weight 1
  bdef2 = 1,  ///< two bones; weights[0] for bones[0], 1 - weights[0] for bones[1]
  bdef4 = 2,  ///< four bones and four weights (need not sum to 1; MMD does not normalize)
  sdef = 3,   ///< spherical deform: BDEF2 data + C, R0, R1 (Vertex::sdef_*)
  qdef = 4,   ///< PMX 2.1: dual-quaternion blend of four bones (same data as BDEF4)
};

/// One vertex. For the deform data only the entries the type uses are meaningful (and written):
/// BDEF1 bones[0]; BDEF2/SDEF bones[0..1], weights[0]; BDEF4/QDEF all four. Unused entries are 0.
struct Vertex {
  Vec3 position{};        ///< model space, MMD units
  Vec3 normal{};          ///< unit length in well-formed files (kept as stored)
  Vec2 uv{};              ///< texture coordinate, V down
  std::array<std::int32_t, 4> bones{};  ///< bone indices (signed, -1 = none)
  Vec4 weights{};         ///< see DeformType
  float edge_scale = 1;   ///< edge (outline) width multiplier, usually 0..1
  DeformType deform = DeformType::bdef1;
  /// SDEF only: index into Model::sdef_params; kNoSdef otherwise.
  std::uint32_t sdef = 0xFFFFFFFFu;
};
inline constexpr std::uint32_t kNoSdef = 0xFFFFFFFFu;

/// The extra data of an SDEF vertex (model space, MMD units).
struct SdefParams {
  Vec3 c{};   ///< centre of the rotation sphere
  Vec3 r0{};  ///< reference point of bone 0
  Vec3 r1{};  ///< reference point of bone 1
};

/// Material flags (Material::flags).
enum MaterialFlag : std::uint8_t {
  kDoubleSided = 0x01,      ///< no back-face culling
  kGroundShadow = 0x02,     ///< casts a ground shadow
  kDrawShadowMap = 0x04,    ///< casts self-shadow (drawn into the shadow map)
  kReceiveShadow = 0x08,    ///< receives self-shadow
  kDrawEdge = 0x10,         ///< draws the outline (edge)
  kVertexColor = 0x20,      ///< 2.1: additional UV 1 is the vertex colour
  kPointDraw = 0x40,        ///< 2.1: draw as points
  kLineDraw = 0x80,         ///< 2.1: draw as lines
};

/// Sphere (environment) texture blending, Material::sphere_mode.
enum class SphereMode : std::uint8_t { off = 0, multiply = 1, add = 2, subtexture = 3 };

/// A material: a run of Material::face_index_count consecutive face indices.
struct Material {
  Text name, name_en;
  Vec4 diffuse{};             ///< RGBA, 0..1
  Vec3 specular{};            ///< RGB
  float specular_power = 0;   ///< specular exponent ("specular strength" in the spec)
  Vec3 ambient{};             ///< RGB
  std::uint8_t flags = 0;     ///< MaterialFlag bits, other bits kept
  Vec4 edge_color{};          ///< RGBA
  float edge_size = 0;        ///< outline width, in MMD's edge units (1 = default)
  std::int32_t texture = kNone;         ///< texture index, -1 none
  std::int32_t sphere_texture = kNone;  ///< texture index of the sphere map, -1 none
  std::uint8_t sphere_mode = 0;         ///< SphereMode value (other values kept)
  /// Toon reference: 0 = `toon` is a texture index (-1 none); 1 = shared toon, `toon` is 0..9 for
  /// MMD's toon01.bmp..toon10.bmp (stored as one byte). Other values are a read error.
  std::uint8_t shared_toon = 0;
  std::int32_t toon = kNone;
  Text memo;                            ///< free text ("metadata" in the spec)
  std::uint32_t face_index_count = 0;   ///< number of face indices (3 per triangle) drawn with this material
};

/// Bone flags (Bone::flags).
enum BoneFlag : std::uint16_t {
  kTailIsBone = 0x0001,         ///< tail given by Bone::tail_bone (else Bone::tail_offset)
  kRotatable = 0x0002,
  kMovable = 0x0004,
  kVisible = 0x0008,
  kOperable = 0x0010,
  kIk = 0x0020,                 ///< IK bone: Bone::ik_* present
  kLocalAppend = 0x0080,        ///< append (付与) uses the parent's local transform
  kAppendRotation = 0x0100,     ///< append rotation (Bone::append_parent / append_ratio present)
  kAppendTranslation = 0x0200,  ///< append translation
  kFixedAxis = 0x0400,          ///< Bone::fixed_axis present
  kLocalAxes = 0x0800,          ///< Bone::local_x / local_z present
  kAfterPhysics = 0x1000,       ///< deform after physics
  kExternalParent = 0x2000,     ///< Bone::external_parent_key present
};

/// One link of an IK chain.
struct IkLink {
  std::int32_t bone = kNone;
  /// 1 = per-axis Euler angle limits present (lower/upper), 0 = none. Other values are a read error.
  std::uint8_t has_limits = 0;
  Vec3 lower{};  ///< radians, per axis, in the link's parent space (MMD solves with these limits)
  Vec3 upper{};  ///< radians
};

/// A bone. Optional parts are present in the file exactly when their flag is set; the writer
/// writes them by the flags (values of absent parts are ignored).
struct Bone {
  Text name, name_en;
  Vec3 position{};             ///< bind-pose head position, model space, MMD units
  std::int32_t parent = kNone; ///< bone index, -1 = root
  std::int32_t deform_layer = 0;  ///< transform order: lower layers first (then by index)
  std::uint16_t flags = 0;     ///< BoneFlag bits (other bits kept)
  std::int32_t tail_bone = kNone;  ///< kTailIsBone: the bone the tail points at (-1 none)
  Vec3 tail_offset{};          ///< !kTailIsBone: tail = position + offset, MMD units
  std::int32_t append_parent = kNone;  ///< kAppendRotation|kAppendTranslation: source bone
  float append_ratio = 0;      ///< append weight (may be negative)
  Vec3 fixed_axis{};           ///< kFixedAxis: rotation axis (model space)
  Vec3 local_x{};              ///< kLocalAxes: local X axis direction (model space)
  Vec3 local_z{};              ///< kLocalAxes: local Z axis direction
  std::int32_t external_parent_key = 0;  ///< kExternalParent: key of the external parent model
  std::int32_t ik_target = kNone;        ///< kIk: effector bone the chain moves to this bone
  std::int32_t ik_iterations = 0;        ///< kIk: CCD loop count
  float ik_limit_angle = 0;              ///< kIk: max rotation per link per iteration, radians
  std::vector<IkLink> ik_links;          ///< kIk: from the effector's parent up the chain

  bool has(BoneFlag f) const noexcept { return (flags & f) != 0; }
};

/// Morph types (Morph::type).
enum class MorphType : std::uint8_t {
  group = 0, vertex = 1, bone = 2, uv = 3,
  additional_uv1 = 4, additional_uv2 = 5, additional_uv3 = 6, additional_uv4 = 7,
  material = 8,
  flip = 9,     ///< 2.1
  impulse = 10, ///< 2.1
};
inline constexpr std::uint8_t kMorphTypeCount = 11;

/// Group morph (and flip morph) entry: another morph and its weight.
struct GroupOffset {
  std::int32_t morph = kNone;
  float weight = 0;
};
/// Vertex morph entry: a position offset (MMD units) at full weight.
struct VertexOffset {
  std::uint32_t vertex = 0;
  Vec3 offset{};
};
/// Bone morph entry: translation (MMD units) and rotation quaternion (x, y, z, w) at full weight.
struct BoneOffset {
  std::int32_t bone = kNone;
  Vec3 translation{};
  Vec4 rotation{0, 0, 0, 1};
};
/// UV / additional-UV morph entry: a vec4 offset (UV morphs use x, y).
struct UvOffset {
  std::uint32_t vertex = 0;
  Vec4 offset{};
};
/// Material morph entry. operation 0 = multiply, 1 = add. material -1 = all materials.
struct MaterialOffset {
  std::int32_t material = kNone;
  std::uint8_t operation = 0;
  Vec4 diffuse{};
  Vec3 specular{};
  float specular_power = 0;
  Vec3 ambient{};
  Vec4 edge_color{};
  float edge_size = 0;
  Vec4 texture_tint{};
  Vec4 sphere_tint{};
  Vec4 toon_tint{};
};
/// Impulse morph entry (2.1): velocity and torque applied to a rigid body.
struct ImpulseOffset {
  std::int32_t rigid_body = kNone;
  std::uint8_t local = 0;   ///< 1 = in the body's local frame
  Vec3 velocity{};          ///< MMD units per second
  Vec3 torque{};            ///< radians per second
};

/// A morph. Only the offsets list of its type is used (and written); the others stay empty.
struct Morph {
  Text name, name_en;
  std::uint8_t panel = 4;   ///< control panel: 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other
  MorphType type = MorphType::vertex;
  std::vector<GroupOffset> group_offsets;       ///< group
  std::vector<VertexOffset> vertex_offsets;     ///< vertex
  std::vector<BoneOffset> bone_offsets;         ///< bone
  std::vector<UvOffset> uv_offsets;             ///< uv, additional_uv1..4
  std::vector<MaterialOffset> material_offsets; ///< material
  std::vector<GroupOffset> flip_offsets;        ///< flip (one child is chosen by weight)
  std::vector<ImpulseOffset> impulse_offsets;   ///< impulse

  /// Number of offsets of this morph's type.
  std::size_t offset_count() const noexcept;
};

/// A display frame (表示枠) entry: a bone or a morph shown in that frame.
struct DisplayFrameElement {
  std::uint8_t kind = 0;        ///< 0 bone, 1 morph (other values are a read error)
  std::int32_t index = kNone;   ///< bone or morph index
};
/// A display frame: a group of bones or morphs in MMD's UI.
struct DisplayFrame {
  Text name, name_en;
  std::uint8_t special = 0;     ///< 1 = MMD's fixed frames ("Root", "表情")
  std::vector<DisplayFrameElement> elements;
};

/// A rigid body (Bullet).
struct RigidBody {
  Text name, name_en;
  std::int32_t bone = kNone;        ///< related bone, -1 none
  std::uint8_t group = 0;           ///< collision group 0..15
  std::uint16_t collision_mask = 0;  ///< bit g SET = collides with group g (the spec calls it non_collision_mask; JSON key "non_collision_mask")
  std::uint8_t shape = 0;           ///< 0 sphere (radius x), 1 box (half extents), 2 capsule (radius x, height y)
  Vec3 size{};                      ///< MMD units
  Vec3 position{};                  ///< model space (absolute in PMX)
  Vec3 rotation{};                  ///< Euler radians (Y·X·Z as MMD applies them)
  float mass = 0;
  float linear_damping = 0;         ///< "move attenuation"
  float angular_damping = 0;        ///< "rotation damping"
  float restitution = 0;            ///< "repulsion"
  float friction = 0;
  std::uint8_t mode = 0;            ///< 0 follows the bone, 1 physics, 2 physics + bone position
};

/// A joint (constraint) between two rigid bodies.
struct Joint {
  Text name, name_en;
  /// 0 spring 6DOF (the only 2.0 type); 2.1 adds 1 6DOF, 2 point-to-point, 3 cone-twist,
  /// 4 slider, 5 hinge (docs/formats/NOTES.md: the spec's headings disagree on two numbers). The record
  /// layout is the same for every type.
  std::uint8_t type = 0;
  std::int32_t rigid_body_a = kNone;
  std::int32_t rigid_body_b = kNone;
  Vec3 position{};          ///< model space
  Vec3 rotation{};          ///< Euler radians
  Vec3 linear_lower{};      ///< MMD units
  Vec3 linear_upper{};
  Vec3 angular_lower{};     ///< radians
  Vec3 angular_upper{};
  Vec3 linear_spring{};     ///< stiffness
  Vec3 angular_spring{};
};

/// Soft body anchor: a rigid body holding one vertex.
struct SoftBodyAnchor {
  std::int32_t rigid_body = kNone;
  std::uint32_t vertex = 0;
  std::uint8_t near_mode = 0;
};

/// A soft body (PMX 2.1, Bullet btSoftBody parameters).
struct SoftBody {
  Text name, name_en;
  std::uint8_t shape = 0;           ///< 0 triangle mesh, 1 rope
  std::int32_t material = kNone;
  std::uint8_t group = 0;
  std::uint16_t collision_mask = 0;  ///< as RigidBody::collision_mask (JSON key "non_collision_mask")
  std::uint8_t flags = 0;           ///< 0x1 B-link, 0x2 cluster creation, 0x4 link crossing
  std::int32_t b_link_distance = 0;
  std::int32_t cluster_count = 0;
  float total_mass = 0;
  float collision_margin = 0;
  std::int32_t aero_model = 0;      ///< 0 V_Point, 1 V_TwoSided, 2 V_OneSided, 3 F_TwoSided, 4 F_OneSided
  /// Config: VCF, DP, DG, LF, PR, VC, DF, MT, CHR, KHR, SHR, AHR.
  std::array<float, 12> config{};
  /// Cluster: SRHR_CL, SKHR_CL, SSHR_CL, SR_SPLT_CL, SK_SPLT_CL, SS_SPLT_CL.
  std::array<float, 6> cluster{};
  /// Iterations: V_IT, P_IT, D_IT, C_IT.
  std::array<std::int32_t, 4> iterations{};
  /// Material: LST, AST, VST (floats per the spec; some readers take them as int32, same bytes).
  std::array<float, 3> material_params{};
  std::vector<SoftBodyAnchor> anchors;
  std::vector<std::uint32_t> pinned_vertices;
};

/// A whole PMX model.
struct Model {
  Header header;
  Text name, name_en, comment, comment_en;
  std::vector<Vertex> vertices;
  /// additional_uv_count vec4 per vertex, vertex-major: vertex v, UV k at [v * count + k].
  std::vector<Vec4> additional_uvs;
  std::vector<SdefParams> sdef_params;   ///< one per SDEF vertex (Vertex::sdef indexes here)
  /// Face (triangle) vertex indices, 3 per triangle, raw bits (see index conventions above).
  std::vector<std::uint32_t> faces;
  std::vector<Text> textures;            ///< texture paths, relative to the model file
  std::vector<Material> materials;
  std::vector<Bone> bones;
  std::vector<Morph> morphs;
  std::vector<DisplayFrame> display_frames;
  std::vector<RigidBody> rigid_bodies;
  std::vector<Joint> joints;
  /// PMX 2.1 only: the soft body section (its count is written for 2.1 models, never for 2.0).
  std::vector<SoftBody> soft_bodies;
  /// Bytes after the last section (see ReadOptions::strict). Written back unchanged.
  std::vector<std::uint8_t> trailing;
  std::int64_t trailing_offset = -1;  ///< offset of `trailing` in the input; -1 if none

  /// Additional UV k (0-based) of vertex v; precondition k < header.additional_uv_count.
  const Vec4& additional_uv(std::size_t v, std::size_t k) const {
    return additional_uvs[v * header.additional_uv_count + k];
  }
};

/// Counts of each section (what `info` shows). `faces` counts triangles (the stored face index
/// count / 3, rounded down); `face_indices` is the stored face index count (Model::faces.size()).
struct Counts {
  std::uint64_t vertices = 0, faces = 0, textures = 0, materials = 0, bones = 0, morphs = 0,
                display_frames = 0, rigid_bodies = 0, joints = 0, soft_bodies = 0;
  std::uint64_t face_indices = 0;  ///< stored face indices (3 per triangle)
  std::uint64_t sdef_vertices = 0;  ///< vertices with DeformType::sdef
  std::uint64_t trailing_bytes = 0;
};
/// Counts of a model (faces = number of triangles = faces.size() / 3, face_indices = faces.size()).
Counts counts(const Model& model) noexcept;

/// Options for reading.
struct ReadOptions {
  /// Make bytes after the last section an error (trailing_data) instead of a warning with the
  /// bytes kept in Model::trailing.
  bool strict = false;
  /// Validate vertices and faces but do not store them (Model::vertices, additional_uvs,
  /// sdef_params and faces stay empty; ReadResult::counts has their numbers). For summaries of
  /// large files: the model then does not round-trip.
  bool skip_geometry = false;
};

/// Result of a read: the model, section counts, and warnings (e.g. trailing bytes kept).
struct ReadResult {
  Model model;
  Counts counts;
  std::vector<Warning> warnings;
};

/// Parses a PMX from memory. Errors (each with section, record index and byte offset):
/// empty_input; bad_signature (not "PMX "); unsupported (version not 2.0 / 2.1 within 1e-3);
/// invalid_value (globals count < 8, encoding byte not 0/1, additional UV count > 4, index size
/// not 1/2/4, unknown deform or morph type, negative count, shared-toon / IK-limit / display
/// element byte out of range); truncated; count_too_large (a count beyond the bytes left, checked
/// before allocating); trailing_data (strict only). Never reads out of bounds.
Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options = {});

/// Reads a file (thin wrapper: read_file + read). Errors carry the path in Error::file.
Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options = {});

/// Serializes a model with the header's encoding and index sizes. Texts with raw bytes are written
/// as stored; texts without are encoded from `text`. Writes the soft body count for 2.1 models,
/// then `trailing`. Errors: invalid_argument (index sizes or encoding not valid, an index that
/// does not fit its size, additional_uvs or sdef_params not matching the vertices, morph offsets
/// of another type than Morph::type), encoding_error; each names section and record.
Result<std::vector<std::uint8_t>> write(const Model& model);

/// Sets the header index sizes to the smallest that hold the model's counts (vertex: 1 below 256,
/// 2 below 65536, else 4; others: 1 below 128, 2 below 32768, else 4), as PmxEditor does.
void fit_index_sizes(Model& model) noexcept;

/// Changes the model's text encoding: every Text keeps its `text` and is re-encoded (raw cleared
/// and refilled). Errors: encoding_error (text the target cannot hold), invalid_argument
/// (encoding other than UTF-16LE / UTF-8).
Result<void> set_encoding(Model& model, Encoding encoding);

/// Decodes PMX text bytes to UTF-8 (UTF-16LE or UTF-8; invalid sequences become U+FFFD).
std::string decode(ByteSpan bytes, Encoding encoding);

/// "2.0" / "2.1".
std::string_view version_name(Version v) noexcept;
/// Name of a deform type ("BDEF1" ... "QDEF"); "?" if unknown.
std::string_view deform_name(DeformType t) noexcept;
/// Name of a morph type ("group", "vertex", "bone", "uv", "additional_uv1".."4", "material",
/// "flip", "impulse"); "?" if unknown.
std::string_view morph_type_name(MorphType t) noexcept;

}  // namespace mmdkit::pmx
