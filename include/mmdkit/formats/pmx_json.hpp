// mmdkit — lossless JSON text form of PMX models. Schema: docs/formats/pmx.md ("JSON").
//
// to_json → from_json → pmx::write gives the identical bytes of the file that was read (checked
// on every corpus PMX). The document starts `{"format": "pmx", ...`; floats use the shortest text
// that reads back bit-exactly (mmdkit::format_float_json; NaN/inf as "nan:XXXXXXXX"/"inf"/"-inf"
// strings); texts are in the one name form (docs/CONVENTIONS.md "Names in JSON"): JSON strings,
// or {"text": ..., "raw": "<hex>"} when the raw bytes are not
// what encoding the text gives (invalid sequences, odd UTF-16 lengths). Layout is compact: one
// vertex, material, bone, morph, frame, body or joint per line; face indices 30 per line.
#pragma once

#include <string>
#include <string_view>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::pmx {

/// The JSON text of a model. Never fails.
std::string to_json(const Model& model);

/// A model from JSON text written by to_json, or hand-written following the schema (absent
/// optional members take the defaults of the C++ structs; texts without "raw" are encoded in the
/// document's encoding). Errors: json_syntax (with the byte offset), json_schema (with the JSON
/// path in Error::section, e.g. "vertices[12].weights", and why), encoding_error.
Result<Model> from_json(std::string_view text);

}  // namespace mmdkit::pmx
