// mmdkit CLI — `motion lipsync INPUT --model MODEL -o OUT.vmd`: the model's mouth morphs keyed from
// a voice recording (any audio FFmpeg reads) or a score (.ust, .vsqx/.vsq3, .lab); the library is
// motion/lipsync.hpp, the method docs/LIPSYNC.md.
#pragma once

#include <string>

#include "cli/command.hpp"

namespace CLI {
class App;
}

namespace mmdkit::cli {

struct LipsyncArgs {
  std::string closed_morph;
  double gain = 1, smooth = 1, lead_ms = 50, tol_weight = 0.03, blend = 0.3;
};

/// Adds lipsync's own options (the shared INPUT, -o, --model, --map, --fps, --force, -q are
/// cmd_motion's) to `sub`.
void declare_lipsync(CLI::App& sub, LipsyncArgs& a);

/// Runs lipsync. `fps` is the frame rate of the keys (30 = VMD's).
int run_lipsync(const LipsyncArgs& a, const std::string& input, const std::string& model, const std::string& map,
                double fps, const std::string& output, bool force, bool quiet, const Streams& s);

}  // namespace mmdkit::cli
