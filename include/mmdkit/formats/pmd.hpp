// mmdkit — PMD 1.0 (Polygon Model Data) models: data model, reading and writing.
//
// Layout and semantics: docs/formats/pmd.md and docs/formats/NOTES.md ("PMD").
// Units and spaces: positions in MMD units (about 8 cm), MMD's left-handed Y-up model space, model
// facing -Z (docs/CONVENTIONS.md); angles in radians; UVs in texture space with v = 0 at the top
// (DirectX convention, as MMD stores them).
//
// Reading keeps every byte: raw text fields (including bytes after the NUL, and fields without a
// NUL), the version float as stored, which parts of the optional tail were present, and any bytes
// after the last part that parses. Writing an unmodified Model gives back the identical file.
// Reading does not validate cross references (bone indices, material face counts, ...): that is
// `check`'s job; every index is kept exactly as stored.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::pmd {

// Sizes in bytes of the fixed parts of the file.
inline constexpr std::size_t kHeaderSize = 283;      ///< "Pmd" + version f32 + name[20] + comment[256]
inline constexpr std::size_t kNameSize = 20;         ///< model, bone, morph, rigid body, joint names
inline constexpr std::size_t kCommentSize = 256;     ///< model comment
inline constexpr std::size_t kTextureNameSize = 20;  ///< material texture field
inline constexpr std::size_t kFrameNameSize = 50;    ///< bone display frame names
inline constexpr std::size_t kToonNameSize = 100;    ///< toon texture file names
inline constexpr std::size_t kToonCount = 10;        ///< toon01.bmp .. toon10.bmp slots
inline constexpr std::size_t kVertexSize = 38;
inline constexpr std::size_t kMaterialSize = 70;
inline constexpr std::size_t kBoneSize = 39;
inline constexpr std::size_t kIkChainMinSize = 11;   ///< target, effector, length, iterations, angle
inline constexpr std::size_t kMorphMinSize = 25;     ///< name, offset count, type
inline constexpr std::size_t kMorphOffsetSize = 16;  ///< vertex u32 + offset f32×3
inline constexpr std::size_t kBoneDisplaySize = 3;   ///< bone u16 + frame u8
inline constexpr std::size_t kRigidBodySize = 83;
inline constexpr std::size_t kJointSize = 124;
inline constexpr std::uint16_t kNoBone = 0xFFFF;     ///< "no bone" in parent / tail / rigid body bone fields
inline constexpr std::uint8_t kNoToon = 0xFF;        ///< Material::toon_index for "no toon texture"

/// Text in a fixed-size field: mmdkit::FixedText<N> (core/text.hpp), the one name type: `raw`
/// (at most N bytes as stored, garbage after the NUL kept; what gets written when non-empty) and
/// `text` (UTF-8: `raw` up to its first NUL, decoded in Model::encoding). After editing `text` of
/// a name that was read, clear `raw` (or call assign) so the new text is encoded.
using mmdkit::FixedText;
using Name = FixedText<kNameSize>;
using Comment = FixedText<kCommentSize>;
using TextureName = FixedText<kTextureNameSize>;
using FrameName = FixedText<kFrameNameSize>;
using ToonName = FixedText<kToonNameSize>;

/// A vertex (38 bytes).
struct Vertex {
  std::array<float, 3> position{};      ///< model space, MMD units
  std::array<float, 3> normal{};        ///< model space, as stored (normally unit length)
  std::array<float, 2> uv{};            ///< texture coordinates, v = 0 at the top of the image
  std::array<std::uint16_t, 2> bones{}; ///< skinning bones (indices into Model::bones)
  std::uint8_t weight = 100;            ///< weight of bones[0] in percent, 0..100 (bones[1] gets 100 - weight)
  std::uint8_t edge_off = 0;            ///< 0 = draw the outline edge at this vertex, 1 = no edge (as stored)
};

/// A material (70 bytes). Materials cover consecutive runs of Model::indices in file order.
struct Material {
  std::array<float, 4> diffuse{};       ///< RGBA, 0..1 (alpha 0.98 is MMD's "no self-shadow" convention)
  float specular_power = 0;             ///< shininess exponent
  std::array<float, 3> specular{};      ///< RGB
  std::array<float, 3> ambient{};       ///< RGB
  std::uint8_t toon_index = kNoToon;    ///< 0..9 = toon_textures[i] (toon01..toon10), 0xFF = none
  std::uint8_t edge_flag = 0;           ///< 1 = draw the outline edge (and cast a shadow), 0 = not
  std::uint32_t index_count = 0;        ///< number of face indices (3 per triangle) this material draws
  /// "tex.bmp", "tex.bmp*sphere.sph" (multiply sphere map), "tex.bmp*sphere.spa" (additive) or
  /// "sphere.sph" alone; may fill all 20 bytes without a NUL. See texture_parts.
  TextureName texture;
};

/// The texture field of a material split into its parts.
struct TextureParts {
  std::string texture;  ///< main texture file name (empty if none)
  std::string sphere;   ///< sphere map file name (empty if none)
  /// 0 = no sphere map, 1 = multiply (.sph or any other extension), 2 = add (.spa), as MMD decides
  /// by the sphere file's extension.
  std::uint8_t sphere_mode = 0;
};
/// Splits "tex*sphere" (text form). A single name ending in .sph/.spa is a sphere map.
TextureParts texture_parts(std::string_view texture_text);

/// Bone types (Bone::type) as MMD defines them.
enum class BoneType : std::uint8_t {
  rotate = 0,             ///< rotatable
  rotate_move = 1,        ///< rotatable and movable
  ik = 2,                 ///< IK bone (target of an IkChain)
  unknown = 3,
  ik_affected = 4,        ///< rotated by IK (ik_parent = the IK bone)
  rotation_affected = 5,  ///< follows the rotation of ik_parent
  ik_effector = 6,        ///< IK tip (effector) bone
  invisible = 7,
  twist = 8,              ///< twist bone (rotation about its own axis)
  rotation_follow = 9,    ///< rotates with the bone in `tail` by ratio ik_parent × 0.01 (twist bones 腕捩1..3
                          ///< of miku_v2/mei: tail 腕捩, ik_parent 25/50/75; babylon-mmd agrees)
};

/// A bone (39 bytes).
struct Bone {
  Name name;
  std::uint16_t parent = kNoBone;       ///< parent bone index, 0xFFFF = root
  /// Tail (display end) bone index; 0 or 0xFFFF = none. For type 9 the bone followed.
  std::uint16_t tail = 0;
  std::uint8_t type = 0;                ///< BoneType value as stored (0..9; others kept)
  /// Type 4: the IK bone that moves this bone; type 5: the bone followed; type 9: the follow ratio × 100
  /// (checked on the corpus; docs/formats/NOTES.md "PMD"); 0 otherwise.
  std::uint16_t ik_parent = 0;
  std::array<float, 3> position{};      ///< bind-pose head position, model space (absolute), MMD units
};

/// An IK chain (11 + 2 × links bytes).
struct IkChain {
  std::uint16_t target = 0;             ///< the IK bone (goal position), index into Model::bones
  std::uint16_t effector = 0;           ///< the tip bone moved onto the target
  std::uint16_t iterations = 0;         ///< CCD iterations per frame
  /// Rotation limit per link and iteration in PMD units: radians / 4. MMD and PMX use 4× this
  /// value (PMX spec "PMD→PMX"; e.g. 0.5 here = 2 rad in PMX).
  float unit_angle = 0;
  /// Link bones from the effector's parent upwards (at most 255), as stored.
  std::vector<std::uint16_t> links;
};

/// One entry of a morph: for the base morph (type 0) an absolute vertex index and that vertex's
/// rest position; for other morphs an index into the base morph's offsets and a position offset.
struct MorphOffset {
  std::uint32_t vertex = 0;             ///< base: index into Model::vertices; others: into base offsets
  std::array<float, 3> offset{};        ///< base: absolute position; others: offset, MMD units
};
static_assert(sizeof(MorphOffset) == kMorphOffsetSize);

/// Morph ("skin") panel categories (Morph::type).
enum class MorphType : std::uint8_t { base = 0, eyebrow = 1, eye = 2, mouth = 3, other = 4 };

/// A vertex morph (25 + 16 × offsets bytes). See seed note 004 for how MMD applies them.
struct Morph {
  Name name;
  std::uint8_t type = 0;                ///< MorphType value as stored (0 = base)
  std::vector<MorphOffset> offsets;
};

/// An entry of the bone display list: bone shown in a display frame.
struct BoneDisplay {
  std::uint16_t bone = 0;               ///< index into Model::bones
  std::uint8_t frame = 0;               ///< 1-based index into Model::bone_frames (as stored)
};

/// English names (optional tail part 1, present when its flag byte is 1). The name counts follow
/// the main sections: one per bone, one per morph except the first (base), one per bone frame.
struct English {
  Name name;
  Comment comment;
  std::vector<Name> bone_names;         ///< Model::bones.size() entries
  std::vector<Name> morph_names;        ///< max(Model::morphs.size() - 1, 0) entries (no base)
  std::vector<FrameName> frame_names;   ///< Model::bone_frames.size() entries
};

/// A rigid body (83 bytes). Shapes and modes as Bullet 2.75 in MMD uses them.
struct RigidBody {
  Name name;
  std::uint16_t bone = 0;               ///< related bone index (0xFFFF = none, as some tools store)
  std::uint8_t group = 0;               ///< collision group 0..15 (the UI shows group + 1)
  /// Collide-with mask: bit g set = collides with group g (stored as 0xFFFF minus one bit per
  /// non-colliding group; seed 000).
  std::uint16_t collision_mask = 0xFFFF;
  std::uint8_t shape = 0;               ///< 0 sphere, 1 box, 2 capsule
  /// Sphere: radius = x. Box: half extents x, y, z. Capsule: radius x, height y. MMD units.
  std::array<float, 3> size{};
  std::array<float, 3> position{};      ///< relative to the related bone's position (PMD), MMD units
  std::array<float, 3> rotation{};      ///< Euler angles, radians
  float mass = 0;
  float linear_damping = 0;             ///< 0..1
  float angular_damping = 0;            ///< 0..1
  float restitution = 0;
  float friction = 0;
  std::uint8_t mode = 0;                ///< 0 follows the bone, 1 physics, 2 physics + bone position
};

/// A joint (124 bytes): a 6-DOF spring constraint between two rigid bodies.
struct Joint {
  Name name;
  std::uint32_t rigid_a = 0;            ///< index into Model::rigid_bodies
  std::uint32_t rigid_b = 0;
  std::array<float, 3> position{};      ///< model space, MMD units
  std::array<float, 3> rotation{};      ///< Euler angles, radians
  std::array<float, 3> position_min{};  ///< translation limits, MMD units (x, y, z as stored)
  std::array<float, 3> position_max{};
  std::array<float, 3> rotation_min{};  ///< rotation limits, radians
  std::array<float, 3> rotation_max{};
  std::array<float, 3> spring_position{};  ///< spring stiffness for translation
  std::array<float, 3> spring_rotation{};  ///< spring stiffness for rotation
};

/// How far the optional tail after the bone display list goes. Each part needs the previous one.
enum class Tail : std::uint8_t {
  none = 0,          ///< the file ends after the bone display list
  english = 1,       ///< + English flag byte (and, if the flag is 1, the English names)
  toon_textures = 2, ///< + 10 toon texture names
  rigid_bodies = 3,  ///< + rigid bodies
  joints = 4,        ///< + joints (a complete MMD 5+ file)
};
/// "none", "english", "toon_textures", "rigid_bodies", "joints".
std::string_view tail_name(Tail t) noexcept;
std::optional<Tail> parse_tail_name(std::string_view name) noexcept;

/// A whole PMD model.
struct Model {
  /// The version float as stored (1.0 in every known file; other values are kept, with a warning).
  float version = 1.0f;
  Name name;
  Comment comment;                      ///< may hold CR LF line breaks
  Encoding encoding = Encoding::cp932;  ///< encoding of all legacy text (CP932 or GBK)

  std::vector<Vertex> vertices;
  /// Face vertex indices, 3 per triangle (clockwise front faces in MMD's left-handed space).
  /// Kept as read: a count that is not a multiple of 3 is a `check` finding, not a read error.
  std::vector<std::uint16_t> indices;
  std::vector<Material> materials;
  std::vector<Bone> bones;
  std::vector<IkChain> ik_chains;
  std::vector<Morph> morphs;            ///< the first is normally the base morph (type 0)
  std::vector<std::uint16_t> morph_display;  ///< morph indices shown in the morph panel (u8 count)
  std::vector<FrameName> bone_frames;   ///< bone display frame names (u8 count), often ending in "\n"
  std::vector<BoneDisplay> bone_display;

  /// The last optional tail part present in the file (written back as is; raised by the writer
  /// when a later part holds data). Models built in code should use Tail::joints.
  Tail tail = Tail::joints;
  std::optional<English> english;       ///< present when the English flag is 1
  std::array<ToonName, kToonCount> toon_textures{};  ///< "toon01.bmp".. as stored
  std::vector<RigidBody> rigid_bodies;
  std::vector<Joint> joints;

  /// Bytes after the last part that parsed (see ReadOptions::strict). Written back unchanged.
  std::vector<std::uint8_t> trailing;
  /// Offset of `trailing` in the file it was read from (-1 when empty or built in code).
  std::int64_t trailing_offset = -1;
};

/// Options for reading.
struct ReadOptions {
  /// Force the legacy text encoding; nullopt = detect per file with detect_legacy_encoding over the
  /// model name, comment, bone, morph and bone frame names (CP932 unless GBK scores higher).
  std::optional<Encoding> encoding;
  /// Make bytes after the last part that parses an error (trailing_data) instead of a warning with
  /// the bytes kept in Model::trailing.
  bool strict = false;
  /// Check the vertex and face index sections' sizes but do not store them (Model::vertices and
  /// indices stay empty; ReadResult::vertex_count / index_count have their numbers), as
  /// pmx::ReadOptions::skip_geometry. For bones and morph weights only (model::LoadOptions
  /// geometry = false): the model then does not round-trip.
  bool skip_geometry = false;
};

/// Result of a read: the model and any warnings (trailing bytes kept, unusual version, ...).
struct ReadResult {
  Model model;
  std::vector<Warning> warnings;
  std::uint64_t vertex_count = 0;  ///< vertices in the file (also with skip_geometry)
  std::uint64_t index_count = 0;   ///< face indices in the file (also with skip_geometry)
};

/// Parses a PMD from memory. Mandatory: header through the bone display list; errors there:
/// empty_input, bad_signature (not "Pmd"), truncated (names the section, record and offset),
/// count_too_large (a count beyond what the bytes left can hold; checked before allocating).
/// The optional tail (English names, toon textures, rigid bodies, joints) may end after any part;
/// a part that is present but incomplete, or an English flag other than 0/1, ends the parse: its
/// bytes and everything after are kept in Model::trailing with a warning naming the offset (an
/// error with code trailing_data when options.strict).
Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options = {});

/// Reads a file (thin wrapper: mmdkit::read_file + read). Errors carry the path in Error::file.
Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options = {});

/// Serializes a model: the mandatory sections, then the tail parts up to `model.tail` (raised to
/// hold a present English block, non-empty toon names, rigid bodies or joints), then `trailing`.
/// Text with raw bytes is written as stored; text without is encoded in `model.encoding` and
/// NUL-padded. Errors: encoding_error (text not representable), invalid_argument (text longer than
/// its field once encoded; a count beyond its field's range, e.g. more than 65535 bones or 255
/// links; English name counts that do not match bones / morphs − 1 / bone frames).
Result<std::vector<std::uint8_t>> write(const Model& model);

/// A structural finding of `check`.
struct CheckFinding {
  bool error = false;  ///< true = error (MMD would misbehave or refuse), false = warning
  Error where;         ///< code (invalid_value), message, section, record index and byte offset
};

/// Structural checks of a model (offsets assume the layout `write` produces, which is the file's
/// own layout for a model read unchanged). Errors: face index count not a multiple of 3, a face
/// index ≥ vertex count, material face counts not summing to the face index count, a vertex /
/// bone parent / IK / display / rigid body bone index out of range (0xFFFF allowed where it means
/// none), a bone parent cycle, a base-morph vertex out of range, a morph offset index beyond the
/// base morph, a joint rigid body out of range. Warnings: weight > 100, toon index not 0..9 or
/// 0xFF, unknown bone / morph / shape / mode values, a first morph that is not the base (type 0),
/// a bone tail out of range (types other than 9), a display entry naming the base morph or a frame outside 1..frames. At most `max_per_kind`
/// findings of each kind are listed, then one summary finding with the number left out.
std::vector<CheckFinding> check(const Model& model, std::size_t max_per_kind = 20);

/// Sets `field.text` and re-encodes `field.raw` (NUL-padded to N) in `enc`. Errors: encoding_error,
/// invalid_argument (longer than N bytes once encoded).
template <std::size_t N>
Result<void> set_text(FixedText<N>& field, std::string_view utf8, Encoding enc) {
  auto bytes = encode_text(utf8, enc);
  if (!bytes) return std::unexpected(bytes.error());
  if (bytes->size() > N)
    return make_error(ErrorCode::invalid_argument, "text \"" + std::string(utf8) + "\" needs " +
                                                       std::to_string(bytes->size()) + " bytes, field holds " +
                                                       std::to_string(N));
  bytes->resize(N, 0);
  field.raw = std::move(*bytes);
  field.text = std::string(utf8);
  return {};
}

}  // namespace mmdkit::pmd
