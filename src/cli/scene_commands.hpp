// mmdkit CLI — `sample --scene` and `pose --scene` (and their short forms with --stage /
// --accessory): run_sample / run_pose hand over to these when a scene is asked for.
//
// sample --scene: every character's bones (the models in order, then the stage) in WORLD space
// (each model's placement applied; with an identity placement the numbers are those of `sample`
// on the model alone), the accessories' world matrices, morph weights with --morphs, the scene
// camera with --camera. JSON only (docs/SCENE.md "sample"); --bones and --format binary are
// refused with a scene.
// pose --scene: one OBJ + MTL with every model, the stage and the visible accessories in world
// space; material names prefixed m<i>_, stage_, a<i>_; textures referenced relative to the OBJ
// (--copy-textures is refused with a scene).
#pragma once

#include <ostream>

#include "cli/cmd_pose.hpp"
#include "cli/cmd_sample.hpp"

namespace mmdkit::cli {

int run_scene_sample(const SampleArgs& args, std::ostream& out, std::ostream& err);
int run_scene_pose(const PoseArgs& args, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
