// mmdkit CLI — the one render loop of `render`: `render --scene scene.json`, the short form
// `render MODEL [MOTION...] [--stage S] [--accessory A[@BONE]] [--camera C]`, and a single model
// (`render MODEL [MOTION...]`, a one-character scene): every model, the stage and the accessories
// in one picture (render::Renderer::draw_scene: one camera and light, one depth buffer, one
// self-shadow map; with one model the same as Renderer::draw), with the outputs, options and
// progress of `render` (cmd_render.hpp). Evaluation through scene::Scene (anim::Character per
// model) and, with physics, physics::ScenePhysics (half-frame steps at --fps 60). Accessories are
// drawn rigidly (their stored vertices moved by their world transform, scene/scene.hpp).
#pragma once

#include <ostream>

#include "cli/render/cmd_render.hpp"
#include "mmdkit/scene/description.hpp"

namespace mmdkit::cli {

/// `given` with the scene's view settings (docs/SCENE.md "View") where the options are unset:
/// size (else 1280x720), fps (else 30); background set to ffffff when unset (the view's background,
/// RGB floats, is applied to the plan by the caller, without a round trip through hex).
RenderArgs with_view_defaults(const RenderArgs& given, const scene::ViewSettings& view);

/// Runs `render` (any of the forms above). Exit codes as run_render.
int run_scene_render(const RenderArgs& args, std::ostream& err);

}  // namespace mmdkit::cli
