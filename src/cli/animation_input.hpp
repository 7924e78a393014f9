// mmdkit CLI — the character that `sample` and `pose` evaluate: a thin wrapper over the library's
// loader (anim/input_files.hpp: content detection, binary or JSON, at most one VPD pose anywhere
// among the motions, geometry-free for `sample`) that prints the readers' warnings and the
// binding report, and maps errors to exit codes.
//
// Reading the standard input ("-") is refused: these commands need real files (the model's folder
// holds its textures, and several inputs cannot all be stdin).
#pragma once

#include <expected>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

/// What to load.
struct AnimationRequest {
  std::string model;                 ///< PMX or PMD, binary or mmdkit JSON (by content)
  std::vector<std::string> motions;  ///< VMD motions and at most one VPD pose (by content), in order
  /// Keep the model's geometry (`pose` skins it); false: geometry-free (`sample`).
  bool geometry = false;
  /// Do not print warnings (reader warnings, tracks that match nothing).
  bool quiet = false;
  const char* command = "";  ///< "sample" or "pose", for messages
};

/// Loads and binds everything. Warnings go to `err` ("mmdkit: warning: FILE: ..."), among them
/// model_check_warning and
/// how many bone / morph tracks of the motions match nothing in the model, with a few names
/// (binding_warning). On failure the message is printed to `err` and the exit code is returned
/// (1 bad input, 2 usage: "-" as a path, a second VPD pose), as "mmdkit: error: ..." like every
/// error (diagnostic_line). `model_view`: the model already read
/// from request.model (sample --each: one parse for many motions); null = read it. With
/// `model_view` given, the model's own warnings (its reader's, model_check_warning) are the
/// caller's to print, once per model.
std::expected<std::shared_ptr<const anim::CharacterData>, int> load_animation(
    const AnimationRequest& request, std::ostream& err, std::shared_ptr<const model::Model> model_view = nullptr);

/// The warning line for a model that `mmdkit check` fails ("" when it has no errors): the
/// number of errors (the view builder's repairs and check_view's findings, model/check.hpp), so a
/// model MMD might show differently is not used without a word. `path` names the model.
std::string model_check_warning(const model::Model& model, const std::string& path);

/// "MOTION: the motion keys no bone or morph of the model 'MODEL'" (one motion) or "the motions
/// 'A', 'B' key no bone ..." (several): the subject of the messages below and of `render`'s warning.
std::string motions_keying_nothing(const std::vector<std::string>& motions, const std::string& model);

/// The rule of `sample`, `pose`, `export` and `bake` (and, in Python, `dataset`) for motions that key no bone and no morph of the model (a
/// camera-only VMD, a motion made for another model; anim::BindingReport keyed_bones and
/// keyed_morphs both 0): every frame would be the rest pose. With no motion given, or something
/// keyed: returns 0. Otherwise, when `camera_used` (the command writes the camera, sample
/// --camera) and the motions have camera keys: prints the warning "mmdkit: warning: MOTION: the
/// motion keys no bone or morph of the model 'MODEL': <warning_tail>" (unless request.quiet) and
/// returns 0; else prints the error with "every frame would be the rest pose" and, for a camera
/// motion, `camera_hint` in parentheses, and returns 1 (kExitBadInput).
int refuse_motions_keying_nothing(const AnimationRequest& request, const anim::CharacterData& data, bool camera_used,
                                  std::string_view camera_hint, std::string_view warning_tail, std::ostream& err);

/// The warning line(s) for a binding report (empty when everything matched): counts of unmatched
/// bone and morph tracks and up to `names` of their names per kind, with the input file.
std::string binding_warning(const anim::BindingReport& report, const std::vector<std::string>& inputs,
                            std::size_t names = 5);

}  // namespace mmdkit::cli
