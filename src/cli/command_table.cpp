// mmdkit CLI — the command table (command.hpp). To add a command: define its Command next to its
// code and list it here; a command of an optional layer goes under `#if MMDKIT_HAS_<LAYER>` (its
// sources in src/cli/<layer>/, built only with the layer; docs/DEVELOPING.md).
#include "cli/command.hpp"

#include <CLI/CLI.hpp>

#include <array>

#include "cli/app.hpp"
#include "cli/cmd_export.hpp"
#include "cli/cmd_from_keypoints.hpp"
#include "cli/cmd_motion.hpp"
#include "cli/cmd_pmm.hpp"
#include "cli/cmd_pose.hpp"
#include "cli/cmd_sample.hpp"
#include "cli/commands.hpp"
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PYTHON
#include "cli/python/cmd_dataset.hpp"
#endif
#if MMDKIT_HAS_RENDER
#include "cli/render/cmd_render.hpp"
#endif
#if MMDKIT_HAS_PHYSICS
#include "cli/physics/cmd_bake.hpp"
#endif

namespace mmdkit::cli {

std::span<const Command> command_table() {
  static const auto table = std::to_array<Command>({
      kInfoCommand,
      kDumpCommand,
      kConvertCommand,
      kCheckCommand,
      kGenerateCommand,
      kSampleCommand,
      kPoseCommand,
      kExportCommand,
      kFromKeypointsCommand,
      kMotionCommand,
      kPmmCommand,
#if MMDKIT_HAS_PYTHON
      kDatasetCommand,
#endif
#if MMDKIT_HAS_RENDER
      kRenderCommand,
#endif
#if MMDKIT_HAS_PHYSICS
      kBakeCommand,
#endif
  });
  return table;
}

int usage_error(std::ostream& err, std::string_view command, const std::string& message) {
  err << "mmdkit: error: " << message << "\n";
  if (command.empty())
    err << "run 'mmdkit --help' for usage\n";
  else
    err << "run 'mmdkit " << command << " --help' for usage\n";
  return kExitUsage;
}

void add_force_flag(CLI::App& sub, bool& force) {
  sub.add_flag("--force", force, "allow the output to replace an existing file, an input included");
}

}  // namespace mmdkit::cli
