// mmdkit CLI — `render --scene scene.json` and the short form `render MODEL [MOTION...] --stage S
// --accessory A[@BONE] [--camera C]`: every model, the stage and the accessories in one picture
// (render::Renderer::draw_scene: one camera and light, one depth buffer, one self-shadow map),
// with the outputs, options and progress of `render` (cmd_render.hpp). Accessories are drawn
// rigidly (their stored vertices moved by their world transform, scene/scene.hpp).
#pragma once

#include <ostream>

#include "cli/render/cmd_render.hpp"

namespace mmdkit::cli {

/// Runs `render` on a scene. Exit codes as run_render.
int run_scene_render(const RenderArgs& args, std::ostream& err);

}  // namespace mmdkit::cli
