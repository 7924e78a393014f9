// mmdkit — glTF 2.0 export (.glb or .gltf) of a model, optionally with its animation sampled
// from the evaluation pipeline. Mapping, conventions and limits: docs/GLTF.md.
//
// Coordinates (docs/CONVENTIONS.md "Coordinates"): glTF is right-handed, Y up, metres. Every
// position and translation is (x, y, −z) × GltfOptions::scale (metres per MMD unit, default 0.08),
// normals (x, y, −z), quaternions (x, y, z, w) → (−x, −y, z, w) (the Z mirror), triangle winding
// reversed (MMD's clockwise fronts become glTF's counter-clockwise fronts). UVs are kept: MMD and
// glTF both put (0, 0) at the top left of the texture.
//
// What is written (docs/GLTF.md has the field-by-field table):
//  - one mesh, one primitive per material (all primitives share the vertex accessors), POSITION,
//    NORMAL, TEXCOORD_0, additional UVs as TEXCOORD_1..4 (x, y; z, w are not representable),
//    JOINTS_0 / WEIGHTS_0, the vertex edge scale as the attribute _EDGE_SCALE (named in
//    mesh.extras.mmd.edgeScaleAttribute; omitted when every vertex has 1);
//  - every bone a node (rest translation relative to its parent, no rotation), a skin over all
//    bones with inverse bind matrices; BDEF1/2/4 as stored, weights normalized to sum 1 (glTF
//    requires it; MMD does not normalize BDEF4), SDEF and QDEF as linear blend (one warning with
//    the vertex count);
//  - morph targets: vertex morphs (POSITION), UV morphs (TEXCOORD_0 / TEXCOORD_n), group morphs
//    flattened (the children's offsets × their weights), sparse accessors when few vertices move;
//    the model morph of each target in mesh.extras.targetNames (three.js reads the names there)
//    and mesh.extras.mmd.targetMorphs (model morph indices);
//  - materials: baseColorFactor = diffuse (RGBA), baseColorTexture, alphaMode BLEND when the
//    diffuse alpha < 1 or the texture has transparent pixels, doubleSided from the flag,
//    KHR_materials_unlit when GltfOptions::unlit; toon, sphere, specular, ambient and edge values
//    in material.extras.mmd;
//  - textures embedded: PNG and JPEG files as they are, every other decodable image (BMP, TGA, the
//    BMP inside .sph / .spa, GIF, DDS) converted to PNG (core/image.hpp), as is a PNG with
//    colour-space chunks; each missing or undecodable texture warned once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::exporter {

/// Animation samples to write (filled from anim::Character, docs/GLTF.md "Animation"). Sample i
/// is at time i / fps seconds. Arrays are sample-major: sample s, bone b at [s × bones + b].
struct GltfAnimation {
  std::string name = "motion";
  double fps = 30;              ///< samples per second (> 0)
  std::size_t sample_count = 0; ///< number of samples (0 = no animation)
  /// Bone local transforms relative to the parent bone (MMD space, MMD units): the translation
  /// includes the rest offset (position − parent position), as the glTF node's translation.
  std::vector<Vec3> translations;
  std::vector<Quat> rotations;  ///< (x, y, z, w), MMD space
  /// Weight of every model morph per sample ([s × morphs + m]); empty = no morph channel.
  std::vector<float> morph_weights;
  /// Camera (optional; empty = none): the eye position (MMD space, MMD units), its orientation
  /// (MMD space; the camera looks along its local +Z in MMD space) and the vertical field of view
  /// in radians per sample (glTF cannot animate it: the first sample's value is written).
  std::vector<Vec3> camera_positions;
  std::vector<Quat> camera_rotations;
  std::vector<float> camera_fov;
  /// Keyframe reduction: when any is > 0, each channel keeps only the samples needed for linear
  /// interpolation (slerp for rotations) of the kept ones to stay within this many MMD units
  /// (translations), `reduce_tolerance_degrees` (rotations) and `reduce_tolerance_weight` (every
  /// morph weight of the weights channel) of every sample (Douglas–Peucker; the first and last
  /// samples are always kept). Channels are LINEAR; each reduced channel has its own times.
  float reduce_tolerance = 0;
  float reduce_tolerance_degrees = 0;
  float reduce_tolerance_weight = 0;
};

/// Export options.
struct GltfOptions {
  float scale = 0.08f;   ///< metres per MMD unit (> 0, finite)
  bool binary = true;    ///< .glb; false = .gltf text with the buffer embedded as a data: URI
  bool unlit = false;    ///< materials use KHR_materials_unlit
  /// The model's folder, where texture references are resolved (model/textures.hpp); empty = no
  /// textures are embedded (one warning).
  std::filesystem::path texture_folder;
  std::string generator = "mmdkit";  ///< asset.generator
};

/// Animation keys written and, with reduction, the largest error left per kind (each channel on
/// its own, in the bone's parent space: errors along a chain of bones can add up).
struct GltfReduction {
  std::size_t keys_before = 0;   ///< samples over all channels (a weights channel counts once)
  std::size_t keys_after = 0;    ///< keys written
  double max_translation = 0;    ///< MMD units
  double max_degrees = 0;        ///< degrees
  double max_weight = 0;         ///< morph weight
};

/// What the export made.
struct GltfOutput {
  std::vector<std::uint8_t> bytes;     ///< the whole .glb or .gltf file
  std::vector<std::string> warnings;   ///< one sentence each (missing textures, SDEF/QDEF, ...)
  std::size_t textures_embedded = 0;
  std::size_t morph_targets = 0;
  GltfReduction reduction;             ///< animation keys (zero without animation)
};

/// Writes `model` (and `animation` when not null and sample_count > 0) as glTF 2.0.
/// Errors: invalid_argument for a bad scale or inconsistent animation array sizes;
/// invalid_value (section "vertices" / "morphs", record) for a non-finite position, normal, UV or
/// offset (glTF forbids them); limit_exceeded when the buffer would exceed 4 GiB (GLB's limit).
Result<GltfOutput> write_gltf(const model::Model& model, const GltfAnimation* animation, const GltfOptions& options);

}  // namespace mmdkit::exporter
