// mmdkit CLI — entry point usable in-process (tests) and from main().
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <string_view>

namespace mmdkit::cli {

/// Exit codes of the mmdkit command (documented in README.md).
enum ExitCode : int {
  kExitOk = 0,        ///< success (warnings may have been printed)
  kExitBadInput = 1,  ///< an input could not be read or is invalid, an output could not be written,
                      ///< or `check` found errors
  kExitUsage = 2,     ///< wrong command-line usage
};

/// "mmdkit VERSION" and "built with: physics yes|no, render yes|no, python yes|no", two lines
/// (`mmdkit --version`).
std::string version_text();

/// Runs the command line; writes results to `out`, diagnostics to `err`; returns the exit code.
/// Inputs named "-" read std::cin.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

/// Same, with `in` as the standard input (for inputs named "-").
int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

/// Runs one command as `mmdkit NAME ARGS...`: argv[0] is the program name, argv[1..] the command's
/// arguments (without NAME). For tests and embedding; the same dispatch as run().
int run_command(std::string_view name, int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
