// mmdkit CLI — `pmm`: MMD projects (.pmm) as scenes. `pmm extract project.pmm -o DIR/
// [--search-dir DIR]... [--strict]`: one VMD per model, camera.vmd, a .vac per .x accessory and
// scene.json (project_input.hpp, docs/PMM.md); `pmm create MODEL MOTION... [--camera] [--stage]...
// [--accessory FILE[@BONE]]... [--audio] [--size] [--play-range] -o project.pmm` or `pmm create
// --scene scene.json -o project.pmm`: a version-2 project (scene/project_create.hpp).
#pragma once

#include "cli/command.hpp"

namespace mmdkit::cli {

extern const Command kPmmCommand;

}  // namespace mmdkit::cli
