// mmdkit CLI — `mmdkit dataset`: runs the Python module's dataset command (python3 -m mmdkit
// dataset; docs/PYTHON.md). Built with the Python layer (MMDKIT_WITH_PYTHON).
#pragma once

#include "cli/command.hpp"

namespace mmdkit::cli {

/// dataset MODEL MOTION... -o OUT [options]: every argument is passed to the Python command.
extern const Command kDatasetCommand;

}  // namespace mmdkit::cli
