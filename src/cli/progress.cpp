// mmdkit CLI — progress lines (progress.hpp).
#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace mmdkit::cli {

bool stderr_is_terminal() noexcept { return isatty(2) == 1; }

Progress::Progress(std::ostream& err, std::uint64_t total, bool terminal, std::string label)
    : err_(err), total_(total), terminal_(terminal), label_(std::move(label)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::update(std::uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (done < total_ && since < (terminal_ ? 0.2 : 5.0)) return;
  last_ = now;
  const double t = elapsed();
  const double rate = t > 0 ? double(done) / t : 0;
  const double eta = rate > 0 ? double(total_ - done) / rate : 0;
  char buf[160];
  if (terminal_) {
    constexpr int kWidth = 30;
    const int fill = total_ ? static_cast<int>(kWidth * done / total_) : kWidth;
    std::string bar(static_cast<std::size_t>(fill), '#');
    bar.resize(kWidth, '.');
    std::snprintf(buf, sizeof buf, "\r%s [%s] %llu/%llu  %.1f frames/s  ETA %.0f s ", label_.c_str(), bar.c_str(),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate, eta);
    drawn_ = true;
  } else {
    std::snprintf(buf, sizeof buf, "%s: %llu/%llu frames, %.1f frames/s, ETA %.0f s\n", label_.c_str(),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate, eta);
  }
  err_ << buf << std::flush;
}

void Progress::clear() {
  if (terminal_ && drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace mmdkit::cli
