// mmdkit CLI — progress of a long command on stderr: on a terminal a bar redrawn in place with
// items/s and the time left (at most 5 times a second); otherwise a plain line every 5 seconds,
// so logs stay short.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace mmdkit::cli {

class Progress {
 public:
  /// `total` items (frames); `terminal`: redraw in place; `label` starts each line.
  Progress(std::ostream& err, std::uint64_t total, bool terminal, std::string label);
  /// `done` items finished.
  void update(std::uint64_t done);
  /// Clears the bar (terminal) before a final message.
  void clear();
  /// Seconds since construction.
  double elapsed() const;

 private:
  std::ostream& err_;
  std::uint64_t total_;
  bool terminal_;
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

/// True when file descriptor 2 is a terminal.
bool stderr_is_terminal() noexcept;

}  // namespace mmdkit::cli
