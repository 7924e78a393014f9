// mmdkit — synthetic PMD models for tests, benchmarks and examples.
//
// Deterministic by seed on every platform: own splitmix64 PRNG and own integer-to-float mapping
// (no std:: distributions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::pmd {

/// What to generate.
struct GenerateOptions {
  std::uint64_t seed = 1;
  std::uint64_t vertices = 1000;  ///< exact vertex count, 0..65535 (PMD face indices are u16)
  std::uint64_t morphs = 8;       ///< morphs besides the base morph, 0..65534
};

/// A synthetic humanoid PMD (all text CP932, a complete file with every optional part):
/// - bones: the 29 standard bones of mmdkit/formats/humanoid.hpp in that order, with PMD types:
///   1 (rotate+move) for 全ての親 / センター, 2 (IK) for the four IK handles, 4 (IK-affected,
///   ik_parent = the handle) for the leg links and ankles, 6 (IK tip) for つま先, 5 (rotation
///   follow of 両目) for 左目 / 右目, 0 otherwise; tail = the spec's tail bone, 0 (none) when the
///   spec gives an offset;
/// - IK chains 左足ＩＫ, 右足ＩＫ (40 iterations, unit angle 0.5 = 2 rad / 4, links ひざ, 足: MMD's
///   knee rule applies by name), 左つま先ＩＫ, 右つま先ＩＫ (3 iterations, 1.0 = 4 rad / 4);
/// - vertices within 1.5 MMD units of the deforming bones, half on one bone (weight 100), half
///   shared with the parent bone (weight 1..99); unit normals; UVs in [0, 1];
/// - faces: a strip, triangle k = (k, k+1, k+2) (vertices − 2 triangles), split over 2 materials
///   ("body.bmp" with toon01, "face.bmp*face.sph" with toon02, edge flag on);
/// - morphs: the base morph over the first min(vertices, 64) vertices, then `morphs` vertex
///   morphs (あ い う え お まばたき 笑い ウィンク, then "モーフN") moving up to 16 base entries each;
///   all shown in the morph panel;
/// - bone frames "センター" (センター) and "体" (other visible bones except 全ての親);
/// - English names (humanoid.hpp's), toon01.bmp .. toon10.bmp, two rigid bodies (head sphere,
///   upper-body capsule; positions relative to their bones as PMD stores them) and one joint.
/// Errors: limit_exceeded for more than 65535 vertices or 65534 morphs.
Result<Model> generate(const GenerateOptions& options);

/// A file that generated models refer to, to be written beside the model file.
struct GeneratedFile {
  /// Path relative to the model file's folder: a plain file name here (the PMD texture field's
  /// text), never absolute, no "..".
  std::string path;
  std::vector<std::uint8_t> bytes;  ///< the whole file
};

/// The texture files that every model of generate() references, so that the model is complete
/// (`mmdkit check` finds nothing missing, `pose` has real textures to copy), all 64 × 64 24-bit
/// BMP (the format PMD-era MMD reads):
/// - "body.bmp": skin colour with a faint 8-pixel checker (to see the UVs);
/// - "face.bmp": lighter skin with two eyes and a mouth;
/// - "face.sph": multiply sphere map, white in the middle darkening to grey at the rim.
/// The toons toon01.bmp .. toon10.bmp are MMD's shared toons (its Data folder), not written.
/// Identical for every seed (integer pixel formulas, no PRNG); bytes from stb_image_write (Debian
/// libstb), which is deterministic. About 37 KiB in all. Errors: io_error if the encoder fails
/// (out of memory).
Result<std::vector<GeneratedFile>> generate_textures();

}  // namespace mmdkit::pmd
