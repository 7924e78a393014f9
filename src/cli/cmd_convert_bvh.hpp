// mmdkit CLI — the BVH conversions of `convert` (docs/BVH.md):
//
//   mmdkit convert MOTION.vmd OUT.bvh --model MODEL [--frames A-B] [--scale S] [--no-ik]
//   mmdkit convert IN.bvh OUT.vmd --model MODEL [--map map.tsv] [--scale S] [--no-leg-ik]
//
// `convert` hands a conversion to this file when its input or output ends in .bvh; the options
// below are declared on `convert` and refused for the other conversions (usage error, exit 2).
#pragma once

#include <string>

#include "cli/command.hpp"

namespace CLI {
class App;
}

namespace mmdkit::cli {

/// The BVH options of `convert`.
struct BvhConvertArgs {
  std::string model;   ///< --model (required for BVH)
  std::string frames;  ///< --frames A-B (VMD → BVH; default 0 .. the last key frame)
  double scale = 0;    ///< --scale: BVH units per MMD unit (0 = default: 1 out, automatic in)
  std::string map;     ///< --map TSV (BVH → VMD; default: automatic)
  bool no_ik = false;      ///< --no-ik (VMD → BVH: evaluate without IK)
  std::string names = "japanese";  ///< --names japanese|english (VMD → BVH: joint names, motion::BvhNames)
  bool no_leg_ik = false;  ///< --no-leg-ik (BVH → VMD: no IK keys, IK switched off)
  bool quiet = false;      ///< -q, --quiet: no warnings or summary line
};

/// Declares the options on `convert`'s subcommand.
void add_bvh_convert_options(CLI::App& sub, BvhConvertArgs& args);

/// True when `input` or `output` has the extension .bvh (any case).
bool is_bvh_conversion(const std::string& input, const std::string& output);

/// A BVH option given to a conversion without BVH: the usage error (exit 2), else 0.
int refuse_bvh_options(const CLI::App& sub, const Streams& s);

/// Runs a BVH conversion; exit codes 0 / 1 (bad input, failed output) / 2 (usage).
int run_bvh_conversion(const std::string& input, const std::string& output, bool force, const BvhConvertArgs& args,
                       const Streams& s);

}  // namespace mmdkit::cli
