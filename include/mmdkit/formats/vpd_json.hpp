// mmdkit — lossless JSON text form of VPD poses. Schema: docs/formats/vpd.md ("JSON").
//
//     {"format": "vpd", "encoding": "cp932", "line_ending": "crlf", "model_file": "初音ミク.osm",
//      "bones": [{"name": "センター", "translation": [-1.994186, -0.241098, 0.050083],
//                 "rotation": [-0.008508, 0.417201, 0.003480, 0.908765]}, ...],
//      "morphs": [{"name": "まばたき", "weight": 1.000000}]}
//
// to_json → from_json → vpd::write gives the identical bytes of the file that was read:
// - numbers are written with the file's own token text ("0.000000" stays "0.000000"); a token that
//   is not valid JSON number syntax (e.g. "+1", ".5", "2.") is written as a JSON string; reading
//   takes number text as is (RapidJSON kParseNumbersAsStringsFlag), so nothing goes through double;
// - names and the model file in the one name form (docs/CONVENTIONS.md "Names in JSON"): decoded
//   text, or {"text", "raw": hex} where encoding the text would not give the stored bytes back
//   (the older "name_hex" / "model_file_hex" siblings are still read);
// - only the layout text that differs from MMD's canonical layout (for the pose's line ending) is
//   written: per block "lead", "gaps" (8 for a bone, 2 for a morph), "index"; a "header" object
//   with "after_signature", "after_model_file", "count", "after_count", "tail". Each is UTF-8
//   text, or "<member>_hex" when the bytes do not survive decoding.
// Non-finite values (no VPD form) are written as the strings "inf", "-inf", "nan:XXXXXXXX".
#pragma once

#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vpd.hpp"

namespace mmdkit::vpd {

struct JsonWriteOptions {
  /// Two-space indent, one bone or morph per line; false = one line.
  bool pretty = true;
  /// Also write each bone rotation as Euler angles in degrees as MMD's UI shows them
  /// ("euler": [x, y, z] after "rotation"; YXZ order, Y and Z negated, see mmdkit/core/euler.hpp
  /// and docs/formats/vmd-json.md). On import the quaternion is kept unless the angles were edited
  /// (mmdkit::euler_edited): then the edited angles win.
  bool euler = false;
};

/// The JSON text of a pose. Never fails.
std::string to_json(const Pose& pose, const JsonWriteOptions& options = {});

/// A pose from JSON written by to_json, or hand-written following the schema ("name" and the
/// numbers are required per block, except that a bone may give "euler" (degrees, MMD's UI)
/// instead of "rotation": the quaternion is then built from it, its numbers written as VPD's
/// writer does (six decimals when they read back to the same float, else the shortest exact text); layout members are optional and default to the canonical
/// layout; unknown members are ignored). Errors: json_syntax (Error::offset = byte offset in the
/// JSON text), json_schema (Error::section = JSON path such as "bones[3].rotation", with what was
/// expected), encoding_error (a name the encoding cannot represent; section = JSON path).
Result<Pose> from_json(std::string_view text);

}  // namespace mmdkit::vpd
