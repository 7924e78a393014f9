// mmdkit CLI — the format registry (mmdkit/formats/registry.hpp, library `mmdkit_formats`) as the
// generic file commands (commands.cpp) name it: what each format offers lives in the library, which
// the Python module uses too; the CLI adds nothing to it.
#pragma once

#include "mmdkit/formats/registry.hpp"

namespace mmdkit::cli {

using formats::all_formats;
using formats::Finding;
using formats::format_by_content;
using formats::format_by_name;
using formats::format_of_json;
using formats::FormatOps;
using formats::GenerateFlags;
using formats::ReadFlags;
using formats::vac_ops;

}  // namespace mmdkit::cli
