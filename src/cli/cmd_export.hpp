// mmdkit CLI — `export`: a model (and its animation) as glTF 2.0 (.glb or .gltf).
//
//   mmdkit export MODEL [MOTION.vmd ...] [--camera CAMERA.vmd] -o out.glb|out.gltf
//                 [--frames A-B] [--fps 30|60] [--physics] [--scale 0.08] [--reduce TOL] [--unlit] [--force]
//
// The mapping (coordinates, mesh, materials, textures, skin, morph targets, animation) is
// exporter::write_gltf's (mmdkit/export/gltf.hpp, docs/GLTF.md). Textures are resolved inside the
// model's folder and embedded; each missing one is warned once. The output is written atomically
// and never replaces an input unless --force.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace mmdkit::cli {

/// The parsed options of `export`.
struct ExportArgs {
  std::string model;
  std::vector<std::string> motions;  ///< .vmd files (merged)
  std::string camera;                ///< VMD whose camera keys animate a glTF camera
  std::string output;                ///< .glb or .gltf
  std::string frames;                ///< "A-B" (30 fps frames, inclusive); empty = 0 to the last key
  double fps = 30;                   ///< output samples per second: 30 or 60
  bool physics = false;
  float scale = 0.08f;               ///< metres per MMD unit
  double reduce = 0;                 ///< keyframe reduction tolerance (0 = every sample)
  bool unlit = false;
  bool no_ik = false;
  bool force = false;
  bool quiet = false;  ///< -q: no warnings, progress or summary line
  bool verbose = false;  ///< --verbose: every physics warning on its own line
};

/// The `export` entry of the command table (command.hpp).
extern const Command kExportCommand;

/// Runs `export` with parsed arguments. Exit codes: 0 ok, 1 bad input or output, 2 usage.
int run_export(const ExportArgs& args, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
