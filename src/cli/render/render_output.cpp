// mmdkit CLI — render's shared output helpers (render_output.hpp).

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/render/render_output.hpp"

#include <algorithm>
#include "mmdkit/render/renderer.hpp"

#include <cmath>
#include <filesystem>
#include <system_error>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"

namespace mmdkit::cli {

namespace {
int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }
}  // namespace

std::expected<RenderPlan, int> render_plan(const RenderArgs& a, std::ostream& err) {
  // Output kind.
  RenderPlan plan;
  OutKind& kind = plan.kind;
  std::string& pattern = plan.pattern;
  const std::string ext = lower_ext(a.output);
  if (is_std_stream(a.output)) return std::unexpected(usage(err, "render writes files only (PNG, MP4, WebM); give a path to -o"));
  if (a.output.find('%') != std::string::npos) {
    auto p = checked_pattern(a.output);
    if (!p || ext != ".png") return std::unexpected(usage(err, "a frame pattern needs one %d (e.g. frames/%05d.png) and ends in .png"));
    pattern = *p;
    kind = OutKind::pattern;
  } else if (ext == ".png") {
    kind = OutKind::png;
  } else if (ext == ".mp4") {
    kind = OutKind::mp4;
  } else if (ext == ".webm") {
    kind = OutKind::webm;
  } else {
    return std::unexpected(usage(err, "the output must end in .png, .mp4 or .webm, or be a PNG pattern with %d"));
  }
  const bool video = plan.video = kind == OutKind::mp4 || kind == OutKind::webm;
  // Options.
  int& width = plan.width;
  int& height = plan.height;
  {
    char x = 0, extra = 0;
    if (std::sscanf(a.size.c_str(), "%d%c%d%c", &width, &x, &height, &extra) != 3 || (x != 'x' && x != 'X') ||
        width < 1 || height < 1 || width > 16384 || height > 16384)
      return std::unexpected(usage(err, "--size must be WIDTHxHEIGHT with 1..16384 pixels each, e.g. 1920x1080"));
    if (video && (width % 2 || height % 2)) return std::unexpected(usage(err, "--size of a video must be even in both directions (yuv420p)"));
  }
  if (a.fps != 30 && a.fps != 60) return std::unexpected(usage(err, "--fps must be 30 or 60"));
  if (a.msaa != -1 && (a.msaa < 1 || a.msaa > 64)) return std::unexpected(usage(err, "--msaa must be 1..64"));
  if (a.shadow_map != -1 && (a.shadow_map < 16 || a.shadow_map > 8192))
    return std::unexpected(usage(err, "--shadow-map must be 16..8192 pixels"));
  {
    render::RenderSettings rs;
    rs.width = width;
    rs.height = height;
    if (auto r = render::choose_quality(rs, a.aa, std::max(a.msaa, 0), std::max(a.shadow_map, 0)); !r)
      return std::unexpected(usage(err, "--aa: " + r.error().message));
  }
  std::array<float, 3>& bg = plan.background;
  {
    std::string h = a.background;
    if (!h.empty() && h[0] == '#') h.erase(0, 1);
    if (h.size() != 6 || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      return std::unexpected(usage(err, "--background must be RRGGBB in hexadecimal, e.g. ffffff"));
    for (int i = 0; i < 3; ++i) bg[static_cast<std::size_t>(i)] = float(std::stoi(h.substr(std::size_t(i) * 2, 2), nullptr, 16)) / 255.0f;
  }
  if (a.physics && a.no_physics) return std::unexpected(usage(err, "--physics and --no-physics exclude each other"));
  if (!a.audio.empty() && !video) return std::unexpected(usage(err, "--audio needs a video output (.mp4 or .webm)"));
  {
    // Named files and folders that do not exist are bad input, named as such (before loading).
    std::error_code ec;
    if (!a.audio.empty() && !fs::is_regular_file(a.audio, ec)) {
      err << "mmdkit: error: " << a.audio << ": --audio: "
          << (fs::exists(a.audio, ec) ? "not a regular file" : "audio file not found") << "\n";
      return std::unexpected(kExitBadInput);
    }
    if (!a.toon_dir.empty() && !fs::is_directory(a.toon_dir, ec)) {
      err << "mmdkit: error: " << a.toon_dir << ": --toon-dir: "
          << (fs::exists(a.toon_dir, ec) ? "not a folder" : "folder not found") << "\n";
      return std::unexpected(kExitBadInput);
    }
  }
  if (a.frame >= 0 && !a.frames.empty()) return std::unexpected(usage(err, "--frame and --frames exclude each other"));
  if (a.frame != -1 && (!std::isfinite(a.frame) || a.frame < 0)) return std::unexpected(usage(err, "--frame must be a number >= 0"));
  double& first = plan.first;
  double& last = plan.last;
  if (!a.frames.empty()) {
    char dash = 0, extra = 0;
    if (std::sscanf(a.frames.c_str(), "%lf%c%lf%c", &first, &dash, &last, &extra) != 3 || dash != '-' ||
        !std::isfinite(first) || !std::isfinite(last) || first < 0 || last < first)
      return std::unexpected(usage(err, "--frames must be A-B with 0 <= A <= B, e.g. 0-300 (one frame: --frame F)"));
  } else if (a.frame >= 0) {
    first = last = a.frame;
  }
  if (kind == OutKind::png && last > first) return std::unexpected(usage(err, "a .png output is one frame: use --frame, or a pattern such as frames/%05d.png for several"));

  return plan;
}

}  // namespace mmdkit::cli
