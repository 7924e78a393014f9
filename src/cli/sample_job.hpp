// mmdkit CLI — the one path of `sample` (cmd_sample.hpp): whatever the form — MODEL [MOTION...]
// (a single character, cmd_sample.cpp) or a scene (--scene FILE, an MMD project, or the short
// form MODEL [MOTION...] --stage / --accessory; scene_sample.cpp) — the form's usage checks and
// load build one SampleJob (what is evaluated, how a frame is written), and run_sample runs every
// job the same way: the frames, the output sink, the header, the frames evaluated in order and
// written as they come, the summary.
//
// The two forms keep the outputs and messages they always had: one model writes model space in
// JSON or binary (cmd_sample.hpp), a scene writes world space in JSON (docs/SCENE.md "sample").
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "cli/cmd_sample.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::cli {

/// One run of `sample`, built by sample_model_job or sample_scene_job.
class SampleJob {
 public:
  virtual ~SampleJob() = default;

  /// The inputs the --force rule protects (all files read; the scene file).
  std::vector<std::filesystem::path> inputs;
  /// The file named by evaluation errors (the model; the scene file).
  std::string source;
  /// The inputs' last key frame: the default --frames is 0 to it, step 1.
  std::uint32_t last_frame = 0;
  /// The scene form's messages: a bad --frames is a usage error with the --help line (a frame
  /// printed as in the JSON), no note for frames past the last key, no progress bar.
  bool scene_form = false;
  /// The binary layout (cmd_sample.hpp): no closing of the JSON.
  bool binary = false;

  /// Once, with the frames, before the first evaluate: what depends on them (physics' run length,
  /// --bones, the characters of a batch). An error is printed and its exit code returned.
  virtual int prepare(std::span<const double> frames, std::ostream& err) = 0;
  /// Evaluates frames[fi]; called for fi = 0, 1, ... in order.
  virtual Result<void> evaluate(std::span<const double> frames, std::size_t fi) = 0;
  /// The output's header (binary: magic, counts, names; JSON: inputs, options, the frames' opening).
  virtual void append_header(std::string& s, std::size_t frame_count) const = 0;
  /// Frame `fi` (`frame`) as evaluated last.
  virtual void append_frame(std::string& s, std::size_t fi, double frame) const = 0;
  /// What the summary says was written per frame: "N bones, M morphs, camera, json".
  virtual std::string written_per_frame() const = 0;
};

/// The form MODEL [MOTION...]: usage checks, the --force rule of the output, the load, the
/// motions keying nothing of the model, --camera without camera keys. Errors printed; the exit
/// code returned.
std::expected<std::unique_ptr<SampleJob>, int> sample_model_job(const SampleArgs& args, std::ostream& out,
                                                                std::ostream& err);

/// The scene forms: usage checks (JSON only, no --bones), the scene, the --force rule of the
/// output, the load, physics. Errors printed; the exit code returned.
std::expected<std::unique_ptr<SampleJob>, int> sample_scene_job(const SampleArgs& args, std::ostream& err);

/// The --force rule for `-o FILE` before the (possibly long) load; 0 or the error's exit code.
int check_sample_output(const SampleArgs& args, const std::vector<std::filesystem::path>& inputs, std::ostream& err);

}  // namespace mmdkit::cli
