// mmdkit CLI — `render --workers N` / `--scheduler ADDR` (render_farm.hpp): the options checked
// here as `render` checks them, then the job handed to the Python module's render farm
// (python/mmdkit/farm.py, `python3 -m mmdkit _render_farm SPEC`) as one JSON object.

// GCC 12 false positive inside libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/render/render_farm.hpp"

#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/project_input.hpp"
#include "cli/render/render_output.hpp"
#include "cli/render/scene_render.hpp"
#include "cli/scene_input.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PYTHON
#include "cli/python/cmd_dataset.hpp"
#endif

namespace mmdkit::cli {

namespace {

int usage(std::ostream& err, const std::string& msg) { return usage_error(err, "render", msg); }

}  // namespace

bool farm_requested(const RenderArgs& a) { return a.workers != 0 || !a.scheduler.empty(); }

int run_render_farm(const RenderArgs& a, const Streams& s) {
  std::ostream& err = s.err;
  if (a.workers < 0) return usage(err, "--workers must be >= 1");
  if (a.workers != 0 && !a.scheduler.empty()) return usage(err, "--workers and --scheduler exclude each other");
  if (!a.scene.stage.empty() || !a.scene.accessories.empty() || !a.scene.search_dirs.empty() || a.strict ||
      (!a.scene.scene.empty() && is_project_file(a.scene.scene)) || (!a.model.empty() && is_project_file(a.model)))
    return usage(err, "--workers / --scheduler draw a model with its motions or a scene file (--scene scene.json); "
                      "not a project (.pmm: extract it with 'mmdkit pmm extract'), --stage or --accessory");
  if (a.model.empty() == a.scene.scene.empty()) return usage(err, "give a MODEL or --scene FILE");
  if (!a.background_image.empty())
    return usage(err, "--workers / --scheduler take the background image from the scene file's view, not --background-image");
  if (!a.scene.scene.empty() && (!a.motions.empty() || !a.camera.empty()))
    return usage(err, "a scene file names its own motions and camera: no MOTION or --camera with --scene");
  // A scene file's view settings are the defaults where the options say nothing, as for render.
  scene::ViewSettings view;
  if (!a.scene.scene.empty()) {
    if (auto p = render_plan(with_view_defaults(a, {}), err); !p) return p.error();
    auto desc = scene_description(a.scene, SceneCommandInputs{a.model, a.motions, a.camera, a.audio, "render", a.quiet, a.output}, err);
    if (!desc) return desc.error();
    view = desc->view;
  }
  const RenderArgs b = with_view_defaults(a, view);
  auto plan = render_plan(b, err);
  if (!plan) return plan.error();
  const bool view_background = a.background.empty() && view.background;
#if MMDKIT_HAS_PYTHON
  // The spec (farm.py _cli_main): every value render would use, names as render_farm()'s arguments.
  std::string j = "{\"output\":" + json::string(a.output);
  j += ",\"source\":" + json::string(a.scene.scene.empty() ? a.model : a.scene.scene);
  j += ",\"motions\":[";
  for (std::size_t i = 0; i < a.motions.size(); ++i) j += (i ? "," : "") + json::string(a.motions[i]);
  j += "],\"camera\":" + (a.camera.empty() ? std::string("null") : json::string(a.camera));
  if (plan->last >= 0)
    j += ",\"frames\":[" + std::to_string(plan->first) + "," + std::to_string(plan->last) + "]";
  j += ",\"size\":[" + std::to_string(plan->width) + "," + std::to_string(plan->height) + "]";
  j += ",\"fps\":" + std::to_string(b.fps);
  j += ",\"msaa\":" + (b.msaa < 0 ? std::string("null") : std::to_string(b.msaa));
  j += ",\"aa\":" + (b.aa.empty() ? std::string("null") : json::string(b.aa));
  j += ",\"shadow_map\":" + (b.shadow_map < 0 ? std::string("null") : std::to_string(b.shadow_map));
  j += ",\"background\":" + (view_background ? "[" + format_float_json((*view.background)[0]) + "," +
                                                   format_float_json((*view.background)[1]) + "," +
                                                   format_float_json((*view.background)[2]) + "]"
                                             : json::string(b.background));
  j += std::string(",\"edges\":") + (a.no_edge ? "false" : "true");
  j += std::string(",\"shadows\":") + (a.no_shadow ? "false" : "true");
  j += std::string(",\"physics\":") + (a.physics ? "true" : a.no_physics ? "false" : "null");
  j += ",\"toon_dir\":" + (a.toon_dir.empty() ? std::string("null") : json::string(a.toon_dir));
  j += ",\"audio\":" + (a.audio.empty() ? std::string("null") : json::string(a.audio));
  j += std::string(",\"force\":") + (a.force ? "true" : "false");
  j += std::string(",\"quiet\":") + (a.quiet ? "true" : "false");
  j += ",\"workers\":" + std::to_string(a.workers);
  j += ",\"scheduler\":" + (a.scheduler.empty() ? std::string("null") : json::string(a.scheduler)) + "}";
  return run_python_command("_render_farm", {j}, s);
#else
  return usage(err, "--workers / --scheduler need the Python module (this mmdkit was built without it)");
#endif
}

}  // namespace mmdkit::cli
