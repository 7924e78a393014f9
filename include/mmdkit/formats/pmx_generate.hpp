// mmdkit — synthetic PMX models for tests, benchmarks and examples.
//
// Deterministic by seed on every platform: own splitmix64 PRNG and own integer-to-float mapping
// (no std:: distributions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::pmx {

/// File variant to generate.
enum class GenerateVariant : std::uint8_t {
  pmx20_utf16,  ///< PMX 2.0, UTF-16LE text (what PmxEditor writes by default)
  pmx21_utf8,   ///< PMX 2.1, UTF-8 text; adds QDEF vertices, flip/impulse morphs, a 6DOF joint, a soft body
};

/// How generated vertices are laid out.
enum class GenerateShape : std::uint8_t {
  /// Scattered within 1.5 units of the deforming bones, faces a strip over consecutive vertices
  /// (long triangles across the body): every deform type, for tests and benchmarks.
  scatter,
  /// A figure: one closed ellipsoid per deforming bone, from the bone to its tail (radii by body
  /// part), faces a latitude/longitude grid of each, BDEF2 between the bone and its parent
  /// blended along the bone: a picture that shows what the skeleton does (the README's example).
  /// Materials by part: face = the head (the face texture projected from the front, −Z), hair =
  /// the eyes, body = every other part.
  figure,
};

/// What to generate.
struct GenerateOptions {
  std::uint64_t seed = 1;
  std::uint64_t vertices = 1000;  ///< exact vertex count (0 allowed: then no faces)
  /// Bone count; 0 or anything up to the 29 standard bones gives the standard humanoid set
  /// (mmdkit/formats/humanoid.hpp); more adds chains of 8 extra bones (hair / skirt-like) hanging
  /// from 頭 and 下半身 alternately, until the count is reached exactly.
  std::uint64_t bones = 0;
  std::uint64_t morphs = 8;       ///< exact morph count
  GenerateVariant variant = GenerateVariant::pmx20_utf16;
  GenerateShape shape = GenerateShape::scatter;
};

/// A synthetic humanoid-like model:
/// - bones: the standard humanoid (全ての親, センター, 上半身, 下半身, 首, 頭, 両目 with 左目/右目
///   appending its rotation at ratio 1, 左右 肩/腕/ひじ/手首, 左右 足/ひざ/足首/つま先, 左右 足ＩＫ
///   (40 iterations, 2 rad, knee link limited to X in [-180°, -0.5°]) and つま先ＩＫ), plus extra
///   chains when asked for more bones;
/// - vertices scattered within 1.5 MMD units of the deforming bones, skinned to nearby bones:
///   about 30% BDEF1, 45% BDEF2 (bone + parent), 20% BDEF4 (bone, parent, grandparent, child;
///   weights sum to 1), 5% SDEF (2.0) or SDEF/QDEF (2.1); normals unit length; UVs in [0, 1];
///   2.1 adds one additional UV (vec4) per vertex;
/// - faces: a strip, triangle k = (k, k+1, k+2) with alternating winding (vertices - 2 triangles),
///   split over 3 materials (body, face, hair) with two textures and shared toons;
/// - with GenerateShape::figure instead: vertices and faces as that enum says (the vertex count
///   stays exact: vertices beyond the last whole grid sit at the last part's centre, in no face;
///   fewer than 15 vertices per part — the smallest grid, 3 × 5 — fall back to scatter);
/// - morphs cycling vertex (up to 64 offsets), bone, material, group (of the previous morphs),
///   UV; 2.1 adds flip and impulse; standard names first (あ, い, う, え, お, まばたき, 笑い, ...);
/// - display frames Root (全ての親), 表情 (all morphs), センター, 体 (the other visible bones);
/// - two rigid bodies (head sphere, upper-body capsule) and one joint; 2.1 adds a soft body.
/// Index sizes are the smallest that fit (fit_index_sizes). Text carries raw bytes in the
/// variant's encoding, so read(write(model)) reproduces the model. Memory is about 100 bytes per
/// vertex; 1,000,000 vertices take well under a second. Errors: limit_exceeded for more than
/// 2^31 - 1 vertices, bones or morphs.
Result<Model> generate(const GenerateOptions& options);

/// A file that generated models refer to, to be written beside the model file.
struct GeneratedFile {
  /// Path relative to the model file's folder: '/' separators, no "." or ".." parts, never
  /// absolute (e.g. "tex/body.png"); the same text as the model's texture table entry.
  std::string path;
  std::vector<std::uint8_t> bytes;  ///< the whole file
};

/// The texture files that every model of generate() references, in texture-table order, so that
/// the model is complete (`mmdkit check` finds nothing missing, `pose` has real textures to copy):
/// - "tex/body.png": 64 × 64 RGB PNG, skin colour with a faint 8-pixel checker (to see the UVs);
/// - "tex/face.png": 64 × 64 RGB PNG, lighter skin with two eyes and a mouth;
/// - "tex/hair_s.spa": 64 × 64 24-bit BMP additive sphere map (MMD reads sphere maps as BMP
///   whatever the extension): black with a soft blue-grey highlight up and left of the centre.
/// Identical for every seed and variant (integer pixel formulas, no PRNG); PNG and BMP bytes come
/// from stb_image_write (Debian libstb), which is deterministic. About 13 KiB in all.
/// Errors: io_error if the encoder fails (out of memory).
Result<std::vector<GeneratedFile>> generate_textures();

/// Parses a variant name: "pmx2.0-utf16" (also "" and "pmx2.0") or "pmx2.1-utf8" (also "pmx2.1").
/// invalid_argument otherwise.
Result<GenerateVariant> parse_generate_variant(std::string_view name);

}  // namespace mmdkit::pmx
