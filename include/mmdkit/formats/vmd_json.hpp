// mmdkit — lossless JSON text form of VMD motions. Schema, member by member: docs/formats/vmd-json.md.
//
// to_json → from_json → vmd::write gives the identical bytes of the file that was read:
// - names are written in the one name form (docs/CONVENTIONS.md "Names in JSON"): decoded UTF-8
//   text, or {"text", "raw": hex} only where the text encoded in the motion's encoding and
//   NUL-padded to the field would not give the raw bytes (garbage after the NUL, a cut
//   double-byte character, ...), once per distinct name in a name table; the older "name_hex" /
//   "model_name_hex" siblings are still read;
// - floats in the shortest decimal form that reads back bit-exactly ("nan:XXXXXXXX", "inf",
//   "-inf" strings for non-finite values, "-0" kept); parsed directly as binary32;
// - bone interpolation as named curves {"x","y","z","rotation"} of [x1, y1, x2, y2] (0..127 grid),
//   plus the physics toggle bytes ("physics_off" / "toggle") and the row padding bytes ("pad");
//   camera interpolation as curves x, y, z, rotation, distance, view_angle; the raw block (hex)
//   only where those do not reproduce it;
// - header: version, signature (hex only if not canonical), model name, encoding, how many
//   sections the file held, trailing bytes and their offset.
// The document always starts with `{"format": "vmd",`. Pretty output puts one key per line.
#pragma once

#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {

struct JsonWriteOptions {
  /// Also write each bone rotation as Euler angles in degrees as MMD's UI shows them
  /// ("euler": [x, y, z] after "rotation"; YXZ order, Y and Z negated, see
  /// mmdkit/core/euler.hpp). On import the quaternion is kept unless the angles were edited
  /// (mmdkit::euler_edited): then the edited angles win.
  bool euler = false;
  /// Indent the top level with two spaces, one record (key) per line. false = one line.
  bool pretty = true;
};

/// The JSON text of a motion. Never fails and never loses data for a motion whose names hold
/// valid UTF-8 text (as vmd::read produces). A key whose name index is out of range (an invalid
/// motion) is written with "name_index", which from_json rejects. Cost: linear, about 110 bytes
/// of JSON per bone key; no DOM is built.
std::string to_json(const Motion& motion, const JsonWriteOptions& options = {});

/// A motion from JSON text written by to_json, or hand-written following the schema: every
/// member except "format", each key's "frame" and each bone/morph key's "name" has a default;
/// missing raw bytes are derived (names encoded in "encoding" and NUL-padded, canonical
/// interpolation blocks, canonical signature); a bone key may give "euler" (degrees, MMD UI)
/// instead of "rotation". Unknown members are errors.
/// Errors: json_syntax (not well-formed or invalid UTF-8; Error::offset = byte offset in `text`),
/// json_schema (Error::section = the JSON path, e.g. "bone_keys[12].position[1]";
/// Error::record = the key's index; message: missing member, unknown member, wrong type, out of
/// range, wrong length), encoding_error (a name the encoding cannot represent; section = path).
/// Memory is proportional to the size of `text`.
Result<Motion> from_json(std::string_view text);

}  // namespace mmdkit::vmd
