// Test helpers for running the built `mmdkit` binary: exit code and captured output, and peak
// memory of one run.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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

/// Runs `mmdkit ARGS` through /bin/sh (so `args` is shell text: quote paths with quote(); it may
/// end in a redirection such as "< input.vmd"); stdout and stderr go through files in `dir`
/// (stdout.txt, stderr.txt, overwritten by each run).
Outcome run_cli(const std::filesystem::path& dir, const std::string& args);

/// One run of the binary as a direct child (no shell), with its peak resident memory.
struct MeasuredRun {
  int code = -1;                 ///< exit code; -1 if the process did not exit normally
  std::uint64_t max_rss_kib = 0; ///< peak resident set size (wait4's ru_maxrss, KiB on Linux)
  std::string err;               ///< what it wrote to stderr
};

/// Runs the binary with `args` (no shell); stdin from `stdin_path` (empty = /dev/null), stdout to
/// `stdout_path` (empty = /dev/null), stderr captured in `dir`/stderr.txt.
MeasuredRun run_cli_measured(const std::filesystem::path& dir, const std::vector<std::string>& args,
                             const std::filesystem::path& stdin_path = {},
                             const std::filesystem::path& stdout_path = {});

/// A GoogleTest fixture for tests of the binary: a fresh temporary folder `dir`, run() and file().
class CliTest : public ::testing::Test {
 protected:
  explicit CliTest(const std::string& tag);

  /// run_cli(dir, args).
  Outcome run(const std::string& args) const;
  /// Writes `bytes` to dir/name and returns the path.
  std::filesystem::path file(const std::string& name, const std::string& bytes) const;
  std::filesystem::path file(const std::string& name, const std::vector<std::uint8_t>& bytes) const;

  std::filesystem::path dir;
};

/// Empty when a pseudo-terminal can be had for a run (util-linux `script -qec true /dev/null`
/// works); otherwise why not (script missing, or a container without /dev/pts: "script: failed
/// to create pseudo-terminal"). Probed once per test process.
const std::string& pty_unavailable();

/// Skips the test, with the reason, where no pseudo-terminal can be made (as the corpus tests
/// skip without a corpus).
#define MMDKIT_REQUIRE_PTY()                                                                        \
  do {                                                                                              \
    if (!::mmdkit::test::pty_unavailable().empty())                                                \
      GTEST_SKIP() << "no pseudo-terminal for this test: " << ::mmdkit::test::pty_unavailable();    \
  } while (0)

/// How many times `what` occurs in `s` (overlapping occurrences counted).
inline std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace mmdkit::test
