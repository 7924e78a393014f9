// mmdkit (private) — glTF export internals: the document being built (JSON arrays + one binary
// buffer) and the pieces that fill it (mesh + skin, materials + textures, animation).
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/export/gltf.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::exporter::gltf {

using Value = rapidjson::Value;

inline constexpr int kFloat = 5126;
inline constexpr int kUnsignedShort = 5123;
inline constexpr int kUnsignedInt = 5125;
inline constexpr int kArrayBuffer = 34962;
inline constexpr int kElementArrayBuffer = 34963;

/// MMD → glTF space (header of gltf.hpp).
inline Vec3 to_gltf_point(const std::array<float, 3>& p, float scale) noexcept {
  return {p[0] * scale, p[1] * scale, -p[2] * scale};
}
inline Quat to_gltf_quat(const Quat& q) noexcept { return {-q[0], -q[1], q[2], q[3]}; }

/// The document: JSON arrays of each top-level property, and the binary buffer.
class Document {
 public:
  Document();
  rapidjson::Document::AllocatorType& alloc() { return doc_.GetAllocator(); }

  /// A string value copied into the document.
  Value str(std::string_view s);

  /// Appends `bytes` (4-byte aligned) as a new bufferView; returns its index. target 0 = none.
  int add_view(std::span<const std::uint8_t> bytes, int target = 0);

  /// A dense accessor over a new bufferView. `type` "SCALAR" / "VEC2" / ...; min/max written
  /// when `with_bounds` (float data only).
  int add_accessor(const void* data, std::size_t count, int component, const char* type, int components,
                   int target, bool with_bounds);
  /// A float accessor of `count` elements, `components` wide, all zero except those listed in
  /// `indices` (strictly increasing) whose values are `values` (components each): sparse when
  /// that is smaller than dense, dense otherwise; no bufferView at all when nothing is listed.
  /// Min/max always written.
  int add_float_sparse(std::size_t count, const char* type, int components, std::span<const std::uint32_t> indices,
                       std::span<const float> values);

  Value& accessors() { return accessors_; }
  Value& nodes() { return nodes_; }
  Value& meshes() { return meshes_; }
  Value& skins() { return skins_; }
  Value& materials() { return materials_; }
  Value& textures() { return textures_; }
  Value& images() { return images_; }
  Value& samplers() { return samplers_; }
  Value& animations() { return animations_; }
  Value& cameras() { return cameras_; }
  Value& scene_nodes() { return scene_nodes_; }
  std::vector<std::string>& extensions_used() { return extensions_used_; }
  std::size_t buffer_size() const noexcept { return bin_.size(); }

  /// The JSON text (compact) with every non-empty array, the scene and the buffer entry
  /// (`uri` = data: URI of the buffer when `embed_uri`).
  std::string json(const GltfOptions& options, bool embed_uri);
  const std::vector<std::uint8_t>& bin() const noexcept { return bin_; }

 private:
  rapidjson::Document doc_;
  std::vector<std::uint8_t> bin_;
  Value accessors_, views_, nodes_, meshes_, skins_, materials_, textures_, images_, samplers_, animations_,
      cameras_, scene_nodes_;
  std::vector<std::string> extensions_used_;
};

/// Result of writing the mesh: where materials and bones went.
struct MeshParts {
  int mesh_node = -1;
  int armature_node = -1;   ///< parent of the root bones (no transform), a scene root
  int first_bone_node = 0;  ///< bone b is node first_bone_node + b
  std::vector<std::uint32_t> target_morphs;  ///< model morph of each morph target
};

/// Materials + textures: one glTF material per model material (index = model index).
void write_materials(Document& doc, const model::Model& model, const GltfOptions& options,
                     GltfOutput& out);

/// Bone nodes, mesh (primitives per material, morph targets), skin. Errors: invalid_value for
/// non-finite geometry.
Result<MeshParts> write_mesh(Document& doc, const model::Model& model, const GltfOptions& options, GltfOutput& out);

/// The animation (bone TRS, morph weights, camera). Errors: invalid_argument for bad sizes.
/// Fills `stats` (keys and errors after reduction).
Result<void> write_animation(Document& doc, const model::Model& model, const MeshParts& parts,
                             const GltfAnimation& animation, const GltfOptions& options, GltfReduction& stats);

}  // namespace mmdkit::exporter::gltf
