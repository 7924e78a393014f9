// mmdkit CLI — `bake` (physics layer; built with MMDKIT_WITH_PHYSICS): simulate physics and write it
// into a VMD (physics/bake.hpp, docs/PHYSICS.md "Bake").
//
//   mmdkit bake MODEL.pmx|.pmd MOTION.vmd... -o baked.vmd [--frames A-B] [--physics-fps 60|120|240]
//               [--floor] [--force]
//
// The output is the input motion(s) plus a physics-off key on every frame of A..B (default the
// whole motion) for every bone physics moves; frames before A are simulated but not keyed. Bones
// that cannot be keyed (names longer than 15 bytes in CP932) are listed in one warning; physics
// warnings (repaired records, bodies put back) are printed; runs over 1000 frames print progress.
// The output goes to a temporary file renamed at the end (the --force rule of io.hpp).
#pragma once

#include "cli/command.hpp"

namespace mmdkit::cli {

extern const Command kBakeCommand;

}  // namespace mmdkit::cli
