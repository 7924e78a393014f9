// mmdkit CLI — what `render` and `render --scene` share: the output plan parsed from the options
// (kind of output, size, background, frames) and the temporary output file (registered with the
// one interrupt registry, core/interrupt.hpp, which is how a render is stopped).
#pragma once

#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <expected>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>

#include "cli/render/cmd_render.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/interrupt.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

// A temporary file beside the target (written by the video encoder, which needs a path it can
// seek in), removed unless committed (renamed onto the target). It is registered with the one
// interrupt registry (core/interrupt.hpp), so SIGINT / SIGTERM / SIGHUP remove it too.
class TempOutput {
 public:
  explicit TempOutput(const fs::path& target) : target_(target) {
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    tmp_ = dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()));
    slot_ = register_temp_file(tmp_.c_str());
  }
  ~TempOutput() {
    if (!committed_) {
      std::error_code ec;
      fs::remove(tmp_, ec);
    }
    unregister_temp_file(slot_);
  }
  TempOutput(const TempOutput&) = delete;
  TempOutput& operator=(const TempOutput&) = delete;
  const fs::path& path() const { return tmp_; }
  Result<void> commit() {
    std::error_code ec;
    fs::rename(tmp_, target_, ec);
    if (ec) return make_error(ErrorCode::io_error, "cannot rename the temporary file onto it: " + ec.message());
    committed_ = true;
    return {};
  }

 private:
  fs::path target_, tmp_;
  int slot_ = -1;
  bool committed_ = false;
};

enum class OutKind { png, pattern, mp4, webm };

inline std::string lower_ext(const std::string& p) {
  std::string e = fs::path(p).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// The file name of output frame `i` of a pattern (one printf integer conversion, checked first).
inline std::string pattern_name(const std::string& pattern, std::uint64_t i) {
  std::string out(pattern.size() + 32, '\0');
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const int n = std::snprintf(out.data(), out.size(), pattern.c_str(), static_cast<unsigned long long>(i));
#pragma GCC diagnostic pop
  out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return out;
}

// A pattern has exactly one conversion %[0][width]d (or %%): it is rewritten to %...llu.
inline std::optional<std::string> checked_pattern(const std::string& p) {
  std::string out;
  int conversions = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] != '%') {
      out += p[i];
      continue;
    }
    if (i + 1 < p.size() && p[i + 1] == '%') {
      out += "%%";
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    if (j >= p.size() || p[j] != 'd' || j - i > 4) return std::nullopt;
    out += p.substr(i, j - i) + "llu";
    ++conversions;
    i = j;
  }
  if (conversions != 1) return std::nullopt;
  return out;
}

/// The output and frames asked for (validated).
struct RenderPlan {
  OutKind kind = OutKind::png;
  std::string pattern;  ///< kind pattern: the checked printf pattern
  bool video = false;
  int width = 0, height = 0;
  std::array<float, 3> background{};
  double first = 0, last = -1;  ///< last -1: not given (the caller decides)
};

/// Parses and checks the output, size, fps, msaa, background, audio and frame options of `a`.
/// Usage problems are printed; the exit code (2) is returned.
std::expected<RenderPlan, int> render_plan(const RenderArgs& a, std::ostream& err);

}  // namespace mmdkit::cli
