// mmdkit CLI — `pmm`: MMD projects (.pmm) as scenes. `pmm extract project.pmm -o DIR/
// [--search-dir DIR]... [--strict]`: one VMD per model, camera.vmd, a .vac per .x accessory and
// scene.json (project_input.hpp, docs/PMM.md).
#pragma once

#include "cli/command.hpp"

namespace mmdkit::cli {

extern const Command kPmmCommand;

}  // namespace mmdkit::cli
