// Test helpers for running the built `mmdkit` binary: exit code and captured output.
#pragma once

#include <filesystem>
#include <string>

namespace mmdkit::test {

/// What one run of the binary gave.
struct Outcome {
  int code = -1;  ///< exit code; -1 if the process did not exit normally
  std::string out, err;
};

/// Whole file as a string (empty if unreadable).
std::string slurp(const std::filesystem::path& p);

/// `s` single-quoted for /bin/sh.
std::string quote(const std::string& s);

}  // namespace mmdkit::test
