// mmdkit CLI — `mmdkit dataset`: runs the Python module's dataset command (python3 -m mmdkit
// dataset; docs/PYTHON.md), and the Python side of other commands (run_python_command). Built with the Python layer (MMDKIT_WITH_PYTHON).
#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"

namespace mmdkit::cli {

/// dataset MODEL MOTION... -o OUT [options]: every argument is passed to the Python command.
extern const Command kDatasetCommand;

/// Runs `python3 -m mmdkit COMMAND ARGS...` (the interpreter: $MMDKIT_PYTHON, else the module's
/// own; PYTHONPATH extended to find the package; $MMDKIT_CLI set to this executable) and returns
/// its exit code (1 when it cannot be started or is stopped by a signal, said on s.err). Used by
/// `dataset` and by `render --workers / --scheduler` (the render farm, python/mmdkit/farm.py).
int run_python_command(const std::string& command, const std::vector<std::string>& args, const Streams& s);

}  // namespace mmdkit::cli
