// mmdkit — Wavefront OBJ + MTL export of a (posed) model.
//
// Coordinates: MMD model space (left-handed, Y up, model faces −Z, MMD units) unless
// ObjOptions::right_handed, which negates Z of positions and normals and reverses the triangle
// winding (docs/formats/NOTES.md "Coordinates and units"). The OBJ starts with a comment saying which.
// UVs: MMD stores V down; OBJ's V is up, so vt = (u, 1 − v). Faces are written per material
// (usemtl), 1-based indices, each vertex with its position / UV / normal index (v/vt/vn).
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/anim/morph.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::exporter {

/// One material for the MTL file.
struct ObjMaterial {
  std::string name;              ///< OBJ-safe name (no spaces)
  std::string comment;           ///< the model's material name, written as a comment
  anim::MaterialValues values;   ///< colours after morphs (Kd, d from diffuse; Ks, Ns; Ka)
  std::string texture;           ///< map_Kd path as written ('/' separators), empty = none
  /// Sphere map path ('/' separators), empty = none: written as `refl -type sphere PATH` (the MTL
  /// spec's sphere reflection map), after a comment naming MMD's blend mode, which MTL lacks.
  std::string sphere{};
  bool sphere_add = false;       ///< MMD sphere mode add (.spa); false = multiply (.sph)
};

/// What to write.
struct ObjOptions {
  bool right_handed = false;     ///< negate Z, reverse winding
  std::string mtl_file;          ///< mtllib line (file name relative to the OBJ); empty = none
  std::string comment;           ///< extra header comment lines (without '#'), '\n' separated
  /// Positions are multiplied by this (finite, > 0): 1 = MMD units; 0.08 = metres (1 MMD unit is
  /// about 8 cm, docs/CONVENTIONS.md). The header comment states the unit.
  float scale = 1.0f;
};

/// The OBJ text: positions, UVs and normals per vertex (spans of equal length; `uvs` may be
/// empty = no vt), triangles `faces` (3 indices each, < vertex count) grouped by the ranges
/// [first_index, first_index + index_count) of `model_materials` named `materials[i].name`.
/// Faces outside every material range are written without usemtl at the end.
std::string write_obj(std::span<const Vec3> positions, std::span<const Vec3> normals,
                      std::span<const std::array<float, 2>> uvs, std::span<const std::uint32_t> faces,
                      std::span<const std::array<std::uint32_t, 2>> material_ranges,
                      std::span<const ObjMaterial> materials, const ObjOptions& options);

/// The MTL text of `materials` (Kd, d, Ks, Ns, Ka, map_Kd, refl -type sphere). Kd, d, Ks and Ka are written clamped
/// to [0, 1] (NaN as 0): additive material morphs can push the evaluated colours outside that
/// range, and MTL readers reject or misread such values. Ns is written as at least 0 (NaN as 0,
/// infinity as the largest float). `values` themselves are not changed.
std::string write_mtl(std::span<const ObjMaterial> materials);

/// An OBJ-safe material name: "m<index>_" + the name with whitespace and '#' replaced by '_'.
/// (File names are the caller's: mtllib and map_Kd take them as given, so they should hold no
/// spaces, which many readers take as separators.)
std::string obj_material_name(std::size_t index, std::string_view name);

}  // namespace mmdkit::exporter
