// mmdkit CLI — progress lines and the summary line (progress.hpp).
#include "cli/progress.hpp"

#include "mmdkit/core/printable.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace mmdkit::cli {

bool stderr_is_terminal() noexcept { return isatty(2) == 1; }

ProgressMode progress_mode(const std::ostream& err, bool quiet) noexcept {
  if (quiet) return ProgressMode::off;
  return &err == &std::cerr && stderr_is_terminal() ? ProgressMode::bar : ProgressMode::lines;
}

namespace {
double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Progress::Progress(std::ostream& err, std::uint64_t total, ProgressMode mode, std::string label, std::string unit,
                   Clock clock)
    : err_(err), total_(total), mode_(mode), label_(std::move(label)), unit_(std::move(unit)),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)) {
  start_ = last_ = clock_();
  if (const char* d = std::getenv("MMDKIT_PROGRESS_DELAY")) {
    char* end = nullptr;
    const double v = std::strtod(d, &end);
    if (end != d && *end == '\0' && v >= 0 && v < 1e9) delay_ = v;
  }
}

double Progress::elapsed() const { return clock_() - start_; }

void Progress::update(std::uint64_t done) {
  if (mode_ == ProgressMode::off) return;
  const double now = clock_();
  const double t = now - start_;
  if (mode_ == ProgressMode::bar) {
    // Short work draws nothing; then at most 5 redraws a second, and the last state.
    if (t < delay_) return;
    if (drawn_ && done < total_ && now - last_ < kBarInterval) return;
  } else {
    // A line every 5 s; none at the end (the summary line follows).
    if (done >= total_ || now - last_ < kLineInterval) return;
  }
  last_ = now;
  const double rate = t > 0 ? double(done) / t : 0;
  const double eta = rate > 0 && total_ > done ? double(total_ - done) / rate : 0;
  char buf[256];
  if (mode_ == ProgressMode::bar) {
    constexpr int kWidth = 30;
    const int fill = total_ ? static_cast<int>(kWidth * std::min(done, total_) / total_) : kWidth;
    std::string bar(static_cast<std::size_t>(fill), '#');
    bar.resize(kWidth, '.');
    std::snprintf(buf, sizeof buf, "\r%s [%s] %llu/%llu  %.1f %s/s  ETA %.0f s ", label_.c_str(), bar.c_str(),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), rate,
                  unit_.c_str(), eta);
    drawn_ = true;
  } else {
    std::snprintf(buf, sizeof buf, "%s: %llu/%llu %s, %.1f %s/s, ETA %.0f s\n", label_.c_str(),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), unit_.c_str(),
                  rate, unit_.c_str(), eta);
  }
  err_ << buf << std::flush;
}

void Progress::clear() {
  if (mode_ == ProgressMode::bar && drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

void summary(std::ostream& err, bool quiet, std::string_view command, const std::string& text) {
  if (!quiet) err << "mmdkit " << command << ": " << printable(text) << "\n";  // one line, whatever a name holds
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace mmdkit::cli
