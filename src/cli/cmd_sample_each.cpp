// mmdkit CLI — `sample --each` (cmd_sample.hpp): many motions on one model in one process, one
// output per motion; the model is read once, each run is `sample MODEL MOTION -o DIR/STEM.EXT`.
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/cmd_sample.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "mmdkit/anim/input_files.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

int run_sample_each(const SampleArgs& a, std::ostream& out, std::ostream& err) {
  if (a.scene.requested()) return usage_error(err, "sample", "--each samples motions on MODEL, not a scene (--scene, --stage, --accessory)");
  if (a.model.empty()) return usage_error(err, "sample", "--each needs MODEL and the motions to sample on it");
  if (a.motions.empty()) return usage_error(err, "sample", "--each needs at least one MOTION");
  if (a.output.empty() || is_std_stream(a.output))
    return usage_error(err, "sample", "--each writes one file per motion: give the folder with -o DIR");
  std::error_code ec;
  if (!fs::is_directory(a.output, ec))
    return usage_error(err, "sample", "--each: -o '" + a.output + "' is not an existing folder");
  if (is_std_stream(a.model)) return usage_error(err, "sample", "reads files only, not the standard input ('-')");

  // One output per motion, named by the motion's file name; two motions of one name would write
  // the same file.
  const std::string ext = a.format == "binary" ? ".bin" : ".json";
  std::vector<std::string> outputs;
  std::map<std::string, std::string> by_name;
  for (const std::string& m : a.motions) {
    if (is_std_stream(m)) return usage_error(err, "sample", "reads files only, not the standard input ('-')");
    const std::string name = fs::path(m).stem().string() + ext;
    if (auto [it, fresh] = by_name.emplace(name, m); !fresh)
      return usage_error(err, "sample", "--each: '" + it->second + "' and '" + m + "' would both write " + name);
    outputs.push_back((fs::path(a.output) / name).string());
  }
  // The --force rule for every output before anything is read or written.
  std::vector<fs::path> inputs{fs::path(a.model)};
  for (const auto& m : a.motions) inputs.emplace_back(m);
  for (const std::string& o : outputs)
    if (auto r = check_output(o, inputs, a.force); !r) return report_error(err, r.error(), o);

  // The model, once (geometry-free, as sample reads it).
  std::vector<Warning> warnings;
  auto view = anim::read_model_file(a.model, anim::InputOptions{.encoding = {}, .geometry = false}, warnings);
  if (!view) return report_error(err, view.error(), a.model);
  const auto model = std::make_shared<const model::Model>(std::move(*view));
  if (!a.quiet) {  // the model's warnings once, not once per motion
    for (const Warning& w : warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
    err << model_check_warning(*model, a.model);
  }

  int worst = kExitOk;
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    SampleArgs one = a;
    one.each = false;
    one.motions = {a.motions[i]};
    one.output = outputs[i];
    one.model_view = model;
    const int rc = run_sample(one, out, err);
    if (rc == kExitUsage) return rc;  // the same options fail every motion the same way
    if (rc != kExitOk) worst = rc;
  }
  return worst;
}

}  // namespace mmdkit::cli
