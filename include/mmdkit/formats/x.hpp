// mmdkit — DirectX .x meshes as MikuMikuDance reads them (accessories and stages): data model
// and reader.
//
// A .x file starts with a 16-byte header "xof " + version ("0302", "0303") + format ("txt ",
// "bin ", "tzip", "bzip") + float size ("0032", "0064"). The body is a list of data objects
// `Type [Name] { [<uuid>] members... children... }`, with `template` declarations that describe
// types, and `{ Name }` references to named objects (docs/formats/x.md). What is read:
//
//   template              name and uuid kept (Document::templates); bodies parsed and skipped
//   Frame                 hierarchy (Frame::parent), FrameTransformMatrix, meshes inside
//   Mesh                  vertices, faces of any size (kept as stored; triangulated as a fan by
//                         the model view, model/accessory.hpp), and its children:
//     MeshNormals         normals with their own face list (a normal index per face corner)
//     MeshTextureCoords   one (u, v) per vertex, V down (Direct3D), as stored (may exceed 0..1)
//     MeshVertexColors    (vertex index, RGBA) pairs
//     MeshMaterialList    a material index per face, materials inline or `{ Name }` references
//   Material              faceColor RGBA, power, specularColor RGB, emissiveColor RGB,
//                         TextureFilename "tex.png*sphere.sph" (split as PMD: model/textures.hpp)
// Other objects (AnimationSet, SkinWeights, XSkinMeshHeader, DeclData, Header, ...) are parsed
// over (braces matched) and counted in Document::skipped; a warning names each type once.
//
// Spaces and units: the file's own, which for MMD accessories is MMD's left-handed Y-up space
// (DirectX's convention: no axis flip, clockwise front faces, V down) in accessory units; MMD
// draws an accessory at 10 times its file size (docs/formats/x.md "Scale"). Matrices are stored
// row-major for row vectors (Direct3D: v' = v · M, translation in elements 12..14); Frame and Mesh
// give them as `Mat4` COLUMN-major for column vectors (mmdkit's convention), i.e. the same 16
// numbers in the same order.
//
// Formats: text ("txt ") and compressed text ("tzip") are read; binary ("bin ") and compressed
// binary ("bzip") are read too (tokens of the DirectX binary encoding, docs/formats/x.md). The
// compressed forms are MSZIP: deflate blocks of at most 32 KiB of output, each primed with the
// previous block's output (zlib, inside the .cpp only).
//
// Safety: every count is checked against the bytes (or tokens) left before anything is reserved;
// nesting is limited to kMaxDepth; indices are stored as read (the model view and `check` judge
// them), never used to index here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"

namespace mmdkit::x {

using mmdkit::Mat4;
using mmdkit::Vec2;
using mmdkit::Vec3;
using mmdkit::Vec4;

/// First four bytes of every .x file.
inline constexpr std::string_view kMagic = "xof ";
/// Deepest nesting of data objects accepted (Frame in Frame in ...); deeper = invalid_value.
inline constexpr int kMaxDepth = 64;
/// Largest decompressed size accepted for tzip / bzip files (limit_exceeded beyond).
inline constexpr std::uint64_t kMaxDecompressedBytes = 256ull << 20;

/// The body encoding named in the header.
enum class BodyFormat : std::uint8_t {
  text,             ///< "txt "
  binary,           ///< "bin "
  compressed_text,  ///< "tzip" (MSZIP-compressed text)
  compressed_binary ///< "bzip" (MSZIP-compressed binary)
};

/// Stable name: "txt", "bin", "tzip", "bzip".
std::string_view body_format_name(BodyFormat f) noexcept;

/// The 16-byte header.
struct Header {
  int major = 3, minor = 3;              ///< "0303" → 3, 3
  BodyFormat format = BodyFormat::text;
  int float_bits = 32;                   ///< 32 or 64 (floats of binary bodies; text is read as text)
};

/// A `template` declaration (parsed, not used for decoding: the known types are built in).
struct Template {
  std::string name;
  std::string uuid;  ///< "3d82ab44-62da-11cf-ab39-0020af71e433" as written (without <>), may be empty
  std::uint32_t members = 0;  ///< member declarations (";"-terminated) counted in the body
  /// Restriction: "" none, "open" ([...]), or the restricted type list ("Material" for
  /// "[Material <uuid>]"), comma-separated.
  std::string restriction;
};

/// A Material data object. Colours are linear 0..1 as stored.
struct Material {
  std::string name;        ///< data object name (empty for an anonymous inline material)
  Vec4 face_color{1, 1, 1, 1};  ///< diffuse RGBA
  float power = 0;         ///< specular exponent
  Vec3 specular{};         ///< specularColor RGB
  Vec3 emissive{};         ///< emissiveColor RGB (MMD's accessory shader uses it as ambient)
  /// TextureFilename as stored (bytes decoded from CP932 to UTF-8; empty = none), e.g.
  /// "tex.png*sphere.sph" or "sub\\tex.bmp".
  std::string texture_filename;
  std::vector<std::uint8_t> texture_filename_raw;  ///< the stored bytes (CP932)
  std::int64_t offset = -1;  ///< byte offset of the object in the (decompressed) body
};

/// A Mesh data object. Face lists are flat: face f has face_sizes[f] indices starting at the sum
/// of the sizes before it. Vectors stay empty where the file has no such child.
struct Mesh {
  std::string name;
  std::int32_t frame = -1;       ///< index into Document::frames of the enclosing Frame, -1 = top level
  /// Product of the FrameTransformMatrix of the enclosing frames (innermost first, then its
  /// parent's: row-vector order v · M_inner · M_parent ...), column-major for column vectors;
  /// identity at top level.
  Mat4 world{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> face_sizes;    ///< indices per face as stored (3 or 4 usually; 0 possible)
  std::vector<std::uint32_t> face_indices;  ///< vertex indices, face after face (as stored)

  bool has_normals = false;                 ///< a MeshNormals child was present
  std::vector<Vec3> normals;
  std::vector<std::uint32_t> normal_face_sizes;    ///< MeshNormals' own face list
  std::vector<std::uint32_t> normal_face_indices;  ///< normal indices, face after face

  std::vector<Vec2> uvs;                    ///< MeshTextureCoords (count as stored)

  /// MeshVertexColors: (vertex index as stored, RGBA) in file order.
  struct VertexColor {
    std::uint32_t vertex = 0;
    Vec4 color{1, 1, 1, 1};
  };
  std::vector<VertexColor> vertex_colors;

  bool has_material_list = false;
  std::uint32_t material_count = 0;         ///< nMaterials as stored
  std::vector<std::uint32_t> face_materials;  ///< faceIndexes as stored (one per face normally; MMD/D3DX
                                              ///< repeat the last one when fewer)
  /// The list's materials in order: index into Document::materials (inline ones are appended
  /// there too), -1 for a `{ Name }` reference that names no material.
  std::vector<std::int32_t> materials;
  std::vector<std::string> unresolved;      ///< names of references that named no material
  std::int64_t offset = -1;
};

/// A Frame data object.
struct Frame {
  std::string name;
  std::int32_t parent = -1;  ///< index of the enclosing frame, -1 = top level
  /// FrameTransformMatrix as stored (identity when absent), column-major for column vectors.
  Mat4 transform{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  bool has_transform = false;
};

/// A whole .x file.
struct Document {
  Header header;
  std::vector<Template> templates;
  std::vector<Frame> frames;      ///< file order (a parent before its children)
  std::vector<Mesh> meshes;       ///< file order (meshes in frames included)
  std::vector<Material> materials;  ///< every Material object: top-level and inline, file order
  /// Data objects parsed over, by type name, with how many ("AnimationSet": 1, ...); references
  /// outside material lists count here as "{reference}".
  std::vector<std::pair<std::string, std::uint32_t>> skipped;
  std::vector<Warning> warnings;  ///< skipped types (once each), unresolved references, ...
};

/// Parses a .x file from memory.
/// Errors (Error::section names the object, e.g. "Mesh 'Cube'", "MeshNormals of Mesh 0";
/// text bodies fill Error::line / column (1-based) and Error::offset (byte offset in the body,
/// after decompression for tzip); binary bodies fill Error::offset):
///   empty_input; bad_signature (not "xof "); unsupported (version other than 0302/0303, a
///   format other than txt/bin/tzip/bzip, a float size other than 0032/0064); truncated (the input
///   ends inside an object or a compressed block); count_too_large (a count larger than what the
///   rest of the input can hold, checked before reserving); invalid_value (a token that is not a
///   number where one is expected, a missing brace, nesting deeper than kMaxDepth, an unknown
///   binary token, corrupt compressed data); limit_exceeded (decompressed size beyond
///   kMaxDecompressedBytes). Faces with fewer than 3 indices and indices out of range are read as
///   stored (the model view drops them, `check` reports them).
Result<Document> read(ByteSpan bytes);

/// Reads a file (thin wrapper: read_file + read). Errors carry the path in Error::file.
Result<Document> read_file(const std::filesystem::path& path);

/// True if `bytes` start with "xof ".
bool sniff(ByteSpan bytes) noexcept;

/// Total number of vertex indices of a face list (sum of face_sizes), as 64 bits.
std::uint64_t index_total(const std::vector<std::uint32_t>& face_sizes) noexcept;

}  // namespace mmdkit::x
