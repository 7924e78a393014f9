// mmdkit — lossless JSON text form of PMD models. Schema: docs/formats/pmd.md ("JSON").
//
// to_json → from_json → pmd::write gives the identical bytes of the file that was read. Text
// fields are in the one name form (docs/CONVENTIONS.md "Names in JSON"): decoded UTF-8 text, or
// {"text", "raw": hex of the whole fixed field} only where encoding the text in the model's
// encoding and padding with NUL would not give the raw field back (garbage after the NUL, a cut
// double-byte character, undecodable bytes). The older "<key>_raw" sibling is still read. Floats use the
// shortest decimal form that reads back bit-exactly (mmdkit::format_float_json; NaN and infinities
// as strings "nan:XXXXXXXX", "inf", "-inf"). Vertices are compact arrays, one per line:
// [px, py, pz, nx, ny, nz, u, v, bone0, bone1, weight, edge_off]; face indices 3 per line; morph
// offsets [vertex, x, y, z], one per line.
#pragma once

#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::pmd {

/// The JSON text of a model (starts with {"format": "pmd", ...). Never fails.
std::string to_json(const Model& model);

/// A model from JSON text written by to_json, or hand-written following the schema (missing
/// raw bytes are derived by encoding the text; "tail" defaults to "joints"; "english" and
/// "trailing" may be omitted). Errors: json_syntax (byte offset in Error::offset), json_schema
/// (with the JSON path in Error::section, e.g. "bones[12].position"), encoding_error /
/// invalid_argument (text not representable in the encoding or longer than its field, with the path).
Result<Model> from_json(std::string_view text);

}  // namespace mmdkit::pmd
