// mmdkit CLI — `render ... --workers N` (a local Dask cluster of N single-threaded worker
// processes) or `--scheduler ADDR` (a running Dask scheduler): the render farm of the Python
// module (python/mmdkit/farm.py, docs/RENDER.md "Render farm"). Physics is baked once on the
// client (as `mmdkit bake`), frame ranges are drawn by the workers, video segments joined by
// stream copy with the audio muxed once. A model with its motions, or a scene file; not a project
// (.pmm), --stage or --accessory. Needs the Python module (MMDKIT_WITH_PYTHON) and Dask.
#pragma once

#include "cli/command.hpp"
#include "cli/render/cmd_render.hpp"

namespace mmdkit::cli {

/// Whether `args` ask for the farm (--workers or --scheduler given).
bool farm_requested(const RenderArgs& args);

/// Checks the options as `render` does and runs the farm; exit codes as run_render (the Python
/// side's: 0 written, 1 bad input / failed output / no Dask, 2 usage).
int run_render_farm(const RenderArgs& args, const Streams& s);

}  // namespace mmdkit::cli
