// mmdkit — lossless JSON text form of VMD motions. Schema: docs/formats/vmd-json.md.
//
// to_json → from_json → vmd::write gives the identical bytes of the file that was read: names are
// written as decoded text plus raw hex where the text would not reproduce the raw field; floats
// use the shortest form that reads back bit-exactly; interpolation as named curves, plus the raw
// block where it is not the canonical one for those curves.
#pragma once

#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {

struct JsonWriteOptions {
  /// Also write each bone rotation as Euler angles in degrees as MMD's UI shows them
  /// ("euler": [x, y, z]; see mmdkit/core/euler.hpp). The quaternion stays authoritative.
  bool euler = false;
  /// Indent with two spaces and one key per line (records stay on one line each).
  bool pretty = true;
};

/// The JSON text of a motion. Never fails.
std::string to_json(const Motion& motion, const JsonWriteOptions& options = {});

/// A motion from JSON text written by to_json, or hand-written following the schema (missing
/// raw fields are derived from text and curves; a bone key may give "euler" instead of
/// "rotation"). Errors: json_syntax (with byte offset), json_schema (with the JSON path in
/// Error::section, e.g. "bone_keys[12].position"), encoding_error.
Result<Motion> from_json(std::string_view text);

}  // namespace mmdkit::vmd
