// mmdkit CLI — `pose`: a model posed at one frame by VMD motions and / or a VPD pose, morphs and
// skinning applied, written as Wavefront OBJ + MTL.
//
//   mmdkit pose MODEL.pmx|.pmd [MOTION.vmd ...] [POSE.vpd] [--frame F] -o posed.obj
//               [--right-handed] [--copy-textures] [--scale S] [--no-ik] [--force] [--quiet]
//
// Evaluation: the library's pipeline (anim/character.hpp, the same as `sample`): VMD bone /
// morph tracks of all motions merged (the later motion wins at equal frames) and sampled at F
// (frames at 30 fps, fractional allowed); a VPD pose then replaces the bones and morphs it names;
// morphs → bone morph offsets → bones with append and IK (and, with --physics, rigid bodies simulated from frame 0) → skinning with the morph
// vertex offsets; UV morphs move the texture coordinates; material morphs change the MTL colours.
// Inputs are told apart by content, binary or mmdkit JSON (anim/input_files.hpp).
// Output: OBJ in MMD coordinates (left-handed, Y up, MMD units × --scale; the OBJ header says so)
// or, with --right-handed, Z negated and winding reversed; MTL next to it (the OBJ's stem with
// blanks as '_', .mtl: mtllib names hold no spaces). Textures and sphere maps (`refl -type
// sphere`; obj_materials.hpp): the model's references resolved inside the model's folder
// (model/textures.hpp; references that escape the folder are refused with a warning), one warning
// per missing file naming the folder searched, written relative to the OBJ's folder, or with
// --copy-textures copied into "<stem>_textures/" next to the OBJ (blanks as '_'). Files are
// written atomically and never replace an input unless --force. On success one summary line on
// stderr (progress.hpp; --quiet silences it).
#pragma once

#include "cli/physics_option.hpp"
#include "cli/scene_input.hpp"

#include "cli/command.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace mmdkit::cli {

/// The parsed options of `pose`.
struct PoseArgs {
  std::string model;
  std::vector<std::string> motions;  ///< VMD motions and at most one VPD pose (binary or JSON)
  double frame = 0;                  ///< frames at 30 fps
  std::string output;                ///< .obj path (required)
  bool right_handed = false;
  bool copy_textures = false;
  double scale = 1;  ///< --scale: positions × scale (1 = MMD units, 0.08 = metres)
  bool no_ik = false;
  bool force = false;
  bool quiet = false;  ///< no warnings, progress or summary
  PhysicsArgs physics;  ///< --physics, --physics-fps
  SceneArgs scene;      ///< --scene, --stage, --accessory (the scene forms: cli/pose_job.hpp)
};

/// The `pose` command of the command table (command.hpp).
extern const Command kPoseCommand;

/// Runs `pose` with parsed arguments. Exit codes: 0 ok, 1 bad input or output, 2 usage.
int run_pose(const PoseArgs& args, std::ostream& out, std::ostream& err);

/// Parses and runs `pose` alone: argv[0] is the program name, then the pose arguments (without the
/// word "pose"). For tests and embedding.
int cmd_pose(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
