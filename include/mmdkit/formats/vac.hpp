// mmdkit — .vac accessory settings (MikuMikuDance): reader and MMD's placement of an accessory.
//
// A .vac is six CP932 text lines (CR LF or LF; docs/formats/vac.md):
//
//     ネギ                  1 name shown in MMD's accessory list
//     negi.x                2 the .x file, relative to the .vac's folder ('\' separators)
//     1.0                   3 scale ("Si")
//     0.0,1.5,0.0           4 position x,y,z (MMD units, in the bone's space)
//     0.0,90.0,0.0          5 rotation x,y,z in DEGREES
//     右手首                6 bone the accessory follows; empty or absent = the world
//
// The last line (bone) and the final line end may be missing; a blank line 6 means the world. Extra
// lines after line 6 are kept in `extra_lines`, without a warning: MMD ignores them, and its stock
// .vac files describe the format there. Sources: nanoem DefaultFileManager
// (line order), MMD's accessory panel (X/Y/Z, Rx/Ry/Rz in degrees, Si); docs/formats/vac.md.
//
// Placement (MMD, as nanoem's Accessory::fullWorldTransform reproduces it):
//     world = bone_global · T(position) · Rz · Ry · Rx · S(scale) · S(10)
// with column vectors, angles the stored degrees in radians, each R a rotation about the fixed axis
// of MMD's left-handed space (so X is applied first, then Y, then Z), and S(10) MMD's ×10 for
// accessories — baked into the accessory's model view by model::from_x (model/accessory.hpp), so
// placement_matrix() below does NOT include it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"

namespace mmdkit::vac {

using mmdkit::Mat4;
using mmdkit::Vec3;

/// A parsed .vac.
struct Accessory {
  std::string name;                      ///< line 1, UTF-8
  std::vector<std::uint8_t> name_raw;    ///< line 1 as stored (CP932)
  std::string x_file;                    ///< line 2, UTF-8, as stored (relative to the .vac's folder)
  std::vector<std::uint8_t> x_file_raw;
  float scale = 1;                       ///< line 3 (Si); 1 = the .x file's size × 10
  Vec3 position{};                       ///< line 4, MMD units, in the bone's space (world if no bone)
  Vec3 rotation_degrees{};               ///< line 5, degrees about X, Y, Z (applied X, then Y, then Z)
  std::string bone;                      ///< line 6, UTF-8; empty = placed in the world
  std::vector<std::uint8_t> bone_raw;
  bool crlf = true;                      ///< the first line ends in CR LF
  bool has_bone_line = false;            ///< line 6 was present (possibly empty)
  std::vector<std::string> extra_lines;  ///< non-blank lines after line 6, UTF-8
  std::vector<Warning> warnings;         ///< tolerated oddities (a missing line 6)
};

/// Parses a .vac. Errors (Error::line = the 1-based line, Error::offset its first byte):
/// empty_input; truncated (fewer than 5 lines); invalid_value (line 2 empty, a number line that
/// is not one number (line 3) or three comma-separated numbers (lines 4, 5), a line holding a NUL).
Result<Accessory> read(ByteSpan bytes);

/// Reads a file (thin wrapper). Errors carry the path in Error::file.
Result<Accessory> read_file(const std::filesystem::path& path);

/// T(position) · Rz · Ry · Rx · S(scale), column-major for column vectors, in MMD's space (angles
/// from degrees). Multiply a bone's global transform on the left to place the accessory on it.
/// Does not include MMD's ×10 (baked into model::from_x's view, see the file comment).
Mat4 placement_matrix(const Accessory& accessory) noexcept;

/// The same from explicit values (scene files give them without a .vac).
Mat4 placement_matrix(float scale, const Vec3& position, const Vec3& rotation_degrees) noexcept;

/// The .x file of `accessory` inside `vac_folder` (the .vac's folder), found as textures are
/// (model/textures.hpp: '\' separators, ASCII case-insensitive, never leaving the folder).
/// Errors: io_error (no such file), invalid_value (absolute path, drive, or ".." above the folder).
Result<std::filesystem::path> resolve_x_file(const std::filesystem::path& vac_folder, const Accessory& accessory);

}  // namespace mmdkit::vac
