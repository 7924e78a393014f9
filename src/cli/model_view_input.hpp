// mmdkit CLI — the model of a command that maps motion data onto its skeleton (`convert` from BVH,
// `from-keypoints`): the file read by content without geometry, its reader's warnings printed.
#pragma once

#include <expected>
#include <memory>
#include <ostream>
#include <string>

#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

/// Reads `path` (PMX / PMD or its JSON, anim/input_files.hpp) without geometry; the reader's
/// warnings go to `err` unless `quiet`. Errors are printed (naming `path`); the exit code is
/// returned (1).
std::expected<std::shared_ptr<const model::Model>, int> read_model_view(const std::string& path, bool quiet,
                                                                        std::ostream& err);

}  // namespace mmdkit::cli
