// mmdkit — texture references of MMD models: parsing and safe resolution inside a model folder.
//
// Models name textures relative to the model file, with Windows conventions: '\' separators,
// case-insensitive names (MMD runs on Windows). PMD packs a sphere map into the texture field
// ("face.bmp*face.sph"); MMD's shared toons are toon01.bmp .. toon10.bmp from MMD's own Data
// folder. Resolution maps a reference to a file of the model's folder on a case-sensitive file
// system, and never leaves that folder: absolute paths, drive letters, UNC paths and ".." that
// climbs above the folder (also through symbolic links) are refused as `escapes`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace mmdkit::model {

/// A PMD texture field split into texture and sphere map.
struct TextureField {
  std::string texture;        ///< main texture reference, empty if none
  std::string sphere;         ///< sphere map reference, empty if none
  /// 0 none, 1 multiply (.sph or any other extension after '*'), 2 add (.spa), as MMD decides by
  /// the sphere file's extension (case-insensitive). A field without '*' is a sphere map alone
  /// when it ends in .sph / .spa, else a texture.
  std::uint8_t sphere_mode = 0;
};
/// Splits "tex.bmp*sphere.sph" (UTF-8 text of the field).
TextureField split_texture_field(std::string_view field);

/// MMD's shared toon file name for index 0..9 ("toon01.bmp" .. "toon10.bmp"); empty otherwise.
std::string shared_toon_name(int index);

/// Shared toon index 0..9 when `name` is "toon01.bmp" .. "toon10.bmp" (ASCII case-insensitive,
/// '\' or '/' prefix folders not allowed), -1 otherwise.
int shared_toon_index(std::string_view name) noexcept;

/// Reference with '\' turned into '/', "." components and repeated separators removed (case and
/// ".." kept).
std::string normalize_texture_path(std::string_view reference);

/// Outcome of resolving a reference.
enum class TextureStatus : std::uint8_t {
  found,    ///< `path` is an existing regular file inside the folder
  missing,  ///< no such file (case-insensitively) inside the folder
  escapes,  ///< absolute, drive / UNC path, or ".." above the folder (or a link leading out)
  empty,    ///< empty reference (nothing to resolve)
};

struct TextureLookup {
  TextureStatus status = TextureStatus::empty;
  std::filesystem::path path;  ///< the file found (found only)
  std::string message;         ///< why, for missing / escapes
};

/// Resolves `reference` inside `folder` (the model file's folder): each component is matched
/// exactly first, then ASCII-case-insensitively among the directory's entries (first in sorted
/// order when several differ only by case). Never touches anything outside `folder`.
TextureLookup resolve_texture(const std::filesystem::path& folder, std::string_view reference);

}  // namespace mmdkit::model
