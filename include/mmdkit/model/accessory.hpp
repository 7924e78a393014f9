// mmdkit — the model view of a DirectX .x accessory or stage (formats/x.hpp), for the renderer,
// OBJ / glTF export and anim::Character, as MMD draws it (docs/formats/x.md "Model view").
//
// What from_x builds (Model::source = SourceFormat::x, Model::shading = Shading::accessory):
//   - one bone, "accessory", at the origin, every vertex BDEF1 on it: place the accessory by
//     posing that bone or by multiplying the vertices (vac.hpp placement_matrix);
//   - vertices: the .x positions with their frame transforms applied (Mesh::world, the
//     FrameTransformMatrix chain) and then scaled by `XBuildOptions::scale` (default 10: MMD draws
//     accessories at 10 times their file size [nanoem Accessory::kInitialWorldMatrix = scale(10),
//     saba XFileModel]); normals transformed by the inverse transpose of the frame transform and
//     normalized; UV as stored (V down); a .x vertex used with different normals (MeshNormals'
//     own face list) becomes one view vertex per (vertex, normal) pair;
//   - faces: polygons of any size triangulated as a fan (0, i, i+1), in the .x winding (clockwise
//     front faces, as PMD/PMX), grouped by material (mesh order, then list order);
//   - materials: one per (mesh, material list entry); diffuse = faceColor, specular, power,
//     ambient = emissiveColor (MMD's accessory shader uses emissive as ambient); texture and sphere
//     map from TextureFilename split at '*' as PMD (model/textures.hpp: .sph multiply, .spa add);
//     flags: ground shadow, self-shadow map and receive (MMD's accessory defaults), no edge,
//     culled back faces; no toon. A mesh without MeshMaterialList gets one white material
//     (D3DX's default). `screen.bmp` is an ordinary texture reference here: MMD (and nanoem)
//     replace it by the rendered screen; mmdkit draws the file when present, white otherwise;
//   - vertex colours (MeshVertexColors) in Model::vertex_colors (white where a mesh has none).
// Normals missing (no MeshNormals, or a normal face list that does not match the faces and a
// normal count unequal to the vertex count) are computed as the normalized sum of the adjacent
// triangles' normals (nanoem does the same). Every repair (index out of range, face with fewer than
// 3 indices, face material index out of range, material reference to nothing) adds a Finding and
// drops or substitutes what it names, so the view keeps the model.hpp safety contract.
#pragma once

#include <filesystem>
#include <string>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::x {
struct Document;
}

namespace mmdkit::model {

/// MMD draws accessories (and .x stages) at 10 times the size stored in the .x file.
inline constexpr float kAccessoryScale = 10.0f;

/// Name of the single bone of an accessory's view.
inline constexpr std::string_view kAccessoryBoneName = "accessory";

/// Options of from_x.
struct XBuildOptions {
  /// Uniform scale applied to positions after the frame transforms: MMD's ×10 by default; 1 keeps
  /// the .x file's own units.
  float scale = kAccessoryScale;
  std::string name;  ///< Model::name (load_x_file: the file name when empty)
};

/// Builds the view (see the file comment). Fails only on a limit (more than 2^31 − 1 vertices or
/// indices after triangulation: limit_exceeded).
Result<Model> from_x(const x::Document& document, const XBuildOptions& options = {});

/// x::read + from_x; the reader's warnings become `reader_warning` findings.
Result<Model> load_x(ByteSpan bytes, const XBuildOptions& options = {});

/// load_x on a file's contents (Model::name = the file name without folder when options.name is
/// empty). Errors carry the path in Error::file. Texture references resolve in the file's folder.
Result<Model> load_x_file(const std::filesystem::path& path, const XBuildOptions& options = {});

}  // namespace mmdkit::model
