// mmdkit CLI — progress and the one-line summary of a long command (sample, pose with physics,
// export, bake, render), on stderr. One rule for every command (README "Progress and summary"):
// - on a terminal: a bar redrawn in place (items done / total, items per second, time left), at
//   most 5 times a second, and only once the work has run 2 seconds (short work draws nothing);
//   the bar is cleared when the work ends;
// - not a terminal (a log, a pipe): a plain line every 5 seconds (so work under 5 s prints
//   nothing and logs stay short);
// - --quiet: nothing;
// - on success, one summary line "mmdkit COMMAND: wrote OUTPUT (counts)" (summary()), silenced
//   by --quiet. Errors and warnings are not affected.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace mmdkit::cli {

/// How a Progress shows itself.
enum class ProgressMode : std::uint8_t {
  bar,    ///< a terminal: a bar redrawn in place
  lines,  ///< not a terminal: a plain line every 5 s
  off,    ///< --quiet: nothing
};

/// The mode for a command's progress on `err`: off when `quiet`; bar when `err` is std::cerr
/// and file descriptor 2 is a terminal; lines otherwise.
ProgressMode progress_mode(const std::ostream& err, bool quiet) noexcept;

class Progress {
 public:
  /// Seconds on a steady clock; tests pass their own.
  using Clock = std::function<double()>;
  /// Delay before the first bar on a terminal, and between plain lines (seconds). The
  /// environment variable MMDKIT_PROGRESS_DELAY (seconds, >= 0) replaces kBarDelay (tests on a
  /// pty set 0 so that a short run draws its bar).
  static constexpr double kBarDelay = 2.0, kBarInterval = 0.2, kLineInterval = 5.0;

  /// `total` items (`unit`, e.g. "frames"); `label` starts each line ("mmdkit sample").
  Progress(std::ostream& err, std::uint64_t total, ProgressMode mode, std::string label,
           std::string unit = "frames", Clock clock = {});
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` items finished (0..total).
  void update(std::uint64_t done);
  /// Clears the bar (terminal) before a final message.
  void clear();
  /// Seconds since construction.
  double elapsed() const;

 private:
  std::ostream& err_;
  std::uint64_t total_;
  ProgressMode mode_;
  std::string label_, unit_;
  Clock clock_;
  double start_ = 0, last_ = 0, delay_ = kBarDelay;
  bool drawn_ = false;
};

/// True when file descriptor 2 is a terminal.
bool stderr_is_terminal() noexcept;

/// Prints "mmdkit COMMAND: TEXT" on `err` unless `quiet` (the summary line of a long command).
void summary(std::ostream& err, bool quiet, std::string_view command, const std::string& text);

/// "N one" or "N many" (1 vertex, 2 vertices), for summary lines.
std::string counted(std::size_t n, std::string_view one, std::string_view many);

}  // namespace mmdkit::cli
