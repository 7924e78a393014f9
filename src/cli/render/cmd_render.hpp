// mmdkit CLI — `render`: a model posed by its motions drawn the way MMD's default shader draws it
// (src/render, docs/RENDER.md), to a PNG, a numbered PNG sequence, an MP4 (H.264) or a WebM (VP9).
//
//   mmdkit render MODEL [MOTION.vmd|POSE.vpd ...] [--camera CAMERA.vmd] [--frame F | --frames A-B]
//                 -o OUT [--size WxH] [--fps 30|60] [--aa fxaa|msaa|none] [--msaa N] [--shadow-map N] [--background RRGGBB] [--no-edge]
//                 [--no-shadow] [--audio FILE] [--toon-dir DIR] [--physics|--no-physics] [--force]
//                 [--workers N | --scheduler ADDR]   (a render farm on Dask: render_farm.hpp)
//
// Evaluation: anim::Character (morphs, bones, IK, skinning; camera, light and self-shadow from the
// motions, or the camera of --camera's VMD). OUT by its name: "x.png" one frame; a name with a printf number ("dir/%05d.png") one PNG per
// output frame, numbered from 0; "x.mp4" H.264 yuv420p; "x.webm" VP9. --fps 60 samples every
// half frame (frames are 30 fps; MMD's 60 fps output interpolates the same way). Frames: --frame F
// (images; default 0) or --frames A-B inclusive (default for video: 0 to the last key of the
// motions and camera). Frames stream to the encoder (memory does not grow with their count).
// Progress on stderr: a bar with frames/s and ETA on a terminal, a plain line every 5 s
// otherwise; a one-line summary at the end with where the time went (evaluation, drawing and
// read-back, encoding). Physics: on when the model has rigid bodies (as in MMD; --no-physics
// turns it off, --physics forces it), simulated from frame 0, in half-frame steps at --fps 60.
// Files are written to a temporary file renamed at the end; SIGINT, SIGTERM and SIGHUP remove the
// temporary file through the interrupt registry (core/interrupt.hpp) and end the process by that
// signal.
#pragma once

#include "cli/command.hpp"
#include "cli/scene_input.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace mmdkit::cli {

/// The parsed options of `render`.
struct RenderArgs {
  std::string model;
  std::vector<std::string> motions;
  std::string camera;
  double frame = -1;          ///< -1 = not given
  std::string frames;         ///< "A-B" or empty
  std::string output;
  std::string size;           ///< empty = the scene's view size (a project's output size), else 1280x720
  int fps = 0;                ///< 0 = the scene's view fps (a project's preferred fps), else 30
  int msaa = -1;              ///< -1 = not given (render::choose_quality)
  std::string aa;             ///< --aa fxaa|msaa|none; empty = not given
  int shadow_map = -1;        ///< --shadow-map N; -1 = not given (a fitted map)
  std::string background;     ///< empty = the scene's view background, else ffffff (MMD's white)
  std::string background_image;  ///< --background-image: drawn behind everything (the scene's view background_image)
  bool no_edge = false;
  bool no_shadow = false;
  std::string audio;
  std::string toon_dir;
  bool physics = false, no_physics = false;  ///< neither: physics when the model has rigid bodies
  bool quiet = false;  ///< -q: no warnings
  bool verbose = false;  ///< --verbose: every physics warning on its own line
  bool force = false;
  bool strict = false;  ///< --strict: a project's file not found is an error
  SceneArgs scene;  ///< --scene, --stage, --accessory (render/scene_render.hpp)
  int workers = 0;        ///< --workers N: a local Dask cluster (render_farm.hpp); 0 = not given
  std::string scheduler;  ///< --scheduler ADDR: a running Dask scheduler (render_farm.hpp)
};

/// Declares `render`'s arguments on its subcommand, storing into `args`.
void declare_render(CLI::App& sub, RenderArgs& args);

/// The `render` entry of the command table (command_table.cpp, under MMDKIT_HAS_RENDER).
extern const Command kRenderCommand;

/// Runs `render`. Exit codes: 0 ok, 1 bad input / failed output / no GL, 2 usage (interrupted:
/// ended by the signal, core/interrupt.hpp).
int run_render(const RenderArgs& args, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
