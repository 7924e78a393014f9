// mmdkit CLI — `sample`: evaluate a model's bones (and optionally morph weights and the camera)
// under one or more motions (or a VPD pose) at a list of frames.
//
//   mmdkit sample MODEL.pmx|.pmd [MOTION.vmd ...] [POSE.vpd] [--frames 0-300:1] [-o out.json]
//                 [--bones a,b] [--morphs] [--camera] [--no-ik] [--format json|binary] [--force]
//                 [--quiet] [--physics [--physics-fps 60|120|240]]
//
// Evaluation: the library's pipeline (anim/character.hpp, the same as `pose`, on the model
// loaded without geometry): motions merged, a VPD pose over them, morphs (bone morphs move
// bones), bones with append and IK; with --physics the rigid bodies and joints (physics/
// character_physics.hpp: frame F of a run from frame 0; whole frames only). Frames at 30 fps,
// fractional allowed without physics. Inputs are
// told apart by content, binary or mmdkit JSON (anim/input_files.hpp).
// Output: stdout by default or with -o -, else the file (the --force rule of cli/io.hpp). It is
// written as it is made, in pieces of about 256 KiB (at least one frame), never held whole: peak
// memory is the model and the bound motion tracks (about twice the input files at most) plus that
// buffer (tests/cli/sample_memory_test.cpp). Model and motions are files, not stdin.
// --frames takes a comma list of numbers and ranges A-B[:STEP] (the peers' syntax); default 0 to
// the last key frame of the motions (any track: bones, morphs, IK, camera, light, self-shadow),
// step 1. A VPD pose holds at every frame (0 alone when it is the only input).
//
// JSON output (the shape of /work/shared/peers eval_*.mjs, so compare_eval.mjs can diff them):
//   {"lib": "mmdkit VERSION", "model": PATH, "motion": PATH|null, "motions": [PATHS],
//    "options": {"ik", "physics", "morphs", "camera": true|false}, "coordinates": ..., "matrixLayout": ...,
//    "frames": [{"frame": F, "bones": [{"name", "index", "position": [x,y,z],
//                "quaternion": [x,y,z,w], "matrix": [16]}],
//                "morphs": [{"name", "index", "weight"}]          (with --morphs)
//                "camera": {"target", "rotation", "distance", "fov", "perspective", "position"}
//                                                                  (with --camera)}]}
// Values: model space of MMD (left-handed, Y up, MMD units), matrices column-major with the
// translation at 12..14, quaternions x, y, z, w; numbers printed as the shortest text that reads
// back to the same float.
//
// Binary output (--format binary), little-endian, no padding:
//   header   char[8] "MMDKSMP1"; u32 version = 1; u32 frame_count; u32 bone_count;
//            u32 morph_count (0 without --morphs); u32 flags (bit 0: camera present); u32 0
//   names    bone_count × (u32 model bone index, u32 byte length, UTF-8 bytes), then the same for
//            morph_count morphs
//   frames   frame_count × { f64 frame; bone_count × f32[16] model matrix (column-major);
//            morph_count × f32 weight; camera present: f32 target[3], rotation[3] (radians, as in
//            the VMD), distance, fov (degrees), position[3] } (the camera's perspective flag is in
//            the JSON output only)
#pragma once

#include "cli/physics_option.hpp"
#include "cli/scene_input.hpp"

#include "cli/command.hpp"
#include "mmdkit/model/model.hpp"

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace mmdkit::cli {

/// The parsed options of `sample`.
struct SampleArgs {
  std::string model;
  std::vector<std::string> motions;
  std::string frames;          ///< empty = 0..last key frame, step 1
  std::string output;          ///< empty or "-" = stdout
  std::string bones;           ///< comma list of bone names; empty = all
  std::string format = "json"; ///< json | binary
  bool morphs = false;
  bool camera = false;
  bool no_ik = false;
  bool force = false;
  bool quiet = false;  ///< no warnings, progress or summary line
  PhysicsArgs physics;  ///< --physics, --physics-fps
  SceneArgs scene;      ///< --scene, --stage, --accessory (the scene forms: cli/sample_job.hpp)
  bool each = false;    ///< --each: every MOTION on its own, one output each in the folder -o (cmd_sample_each.cpp)
  /// The model already read (set by --each for its runs); null = run_sample reads `model`.
  std::shared_ptr<const model::Model> model_view;
};

/// `sample --each`: MODEL read once, then every MOTION sampled on its own as `sample MODEL MOTION
/// -o DIR/STEM.json` (`.bin` with --format binary) would (the same bytes), the other options
/// applying to each. Usage errors (exit 2): no -o folder, a folder that does not exist, two
/// motions of the same file name. A motion that fails is reported and the others still run;
/// the exit code is then 1.
int run_sample_each(const SampleArgs& args, std::ostream& out, std::ostream& err);

/// The `sample` command of the command table (command.hpp).
extern const Command kSampleCommand;

/// Runs `sample` with parsed arguments. Exit codes as the other commands (0 ok, 1 bad input or
/// output, 2 usage: bad --frames / --format / unknown --bones name).
int run_sample(const SampleArgs& args, std::ostream& out, std::ostream& err);

/// The JSON output's "options" object, for one model and for a scene alike:
/// {"ik":…,"physics":…,"morphs":…,"camera":…} (true / false: what was asked).
std::string sample_options_json(const SampleArgs& args);

/// Parses and runs `sample` alone: argv[0] is the program name, then the sample arguments
/// (without the word "sample"). For tests and embedding.
int cmd_sample(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

/// At most this many frames in one --frames list (the output grows with it).
inline constexpr std::size_t kMaxFrameCount = 10'000'000;
/// The largest frame accepted: a VMD key's frame is a u32.
inline constexpr double kMaxFrame = 4294967295.0;

/// Parses a --frames list ("0,15,30", "0-300:10", mixed); false on a syntax error, a negative or non-finite number, a frame beyond
/// kMaxFrame, a step <= 0, a range that ends before it starts or more than kMaxFrameCount frames,
/// with the reason in `*why` (when given; e.g. "range '0-100000000:0.001' has more than 10000000
/// frames ...").
bool parse_frame_list(const std::string& text, std::vector<double>& frames, std::string* why = nullptr);

}  // namespace mmdkit::cli
