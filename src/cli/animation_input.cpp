// mmdkit CLI — model and motions for `sample` and `pose` (animation_input.hpp).
#include "cli/animation_input.hpp"

#include <filesystem>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/model/check.hpp"

namespace mmdkit::cli {

std::string binding_warning(const anim::BindingReport& report, const std::vector<std::string>& inputs,
                            std::size_t names) {
  std::string out;
  for (const std::string& line : anim::unmatched_messages(report, inputs, names)) out += "mmdkit: warning: " + line + "\n";
  return out;
}

std::string model_check_warning(const model::Model& m, const std::string& path) {
  std::size_t errors = model::count(m.findings, model::Severity::error);
  errors += model::count(model::check_view(m), model::Severity::error);
  if (errors == 0) return {};
  return "mmdkit: warning: " + path + ": the model fails 'mmdkit check' with " + std::to_string(errors) +
         (errors == 1 ? " error" : " errors") + " (repaired or ignored here; MMD may show it differently; run 'mmdkit check " +
         path + "' for the list)\n";
}

std::expected<std::shared_ptr<const anim::CharacterData>, int> load_animation(
    const AnimationRequest& req, std::ostream& err, std::shared_ptr<const model::Model> model_view) {
  auto refuse_stdin = [&](const std::string& p) {
    err << "mmdkit: error: " << req.command << " reads files only, not the standard input ('" << p
        << "'): give the model and motions as files\n";
    return std::unexpected(kExitUsage);
  };
  if (is_std_stream(req.model)) return refuse_stdin(req.model);
  for (const std::string& p : req.motions)
    if (is_std_stream(p)) return refuse_stdin(p);

  std::vector<std::filesystem::path> paths(req.motions.begin(), req.motions.end());
  const anim::InputOptions options{.encoding = {}, .geometry = req.geometry};
  const bool model_given = model_view != nullptr;
  auto loaded = model_view ? anim::load_character(std::move(model_view), req.model, paths, options)
                               : anim::load_character(req.model, paths, options);
  if (!loaded) {
    Error e = loaded.error();
    if (e.file.empty()) e.file = req.model;
    err << "mmdkit: " << (e.code == ErrorCode::invalid_argument ? std::string(req.command) + ": " : "error: ")
        << e.to_string() << "\n";
    return std::unexpected(e.code == ErrorCode::invalid_argument ? kExitUsage : kExitBadInput);
  }
  if (!req.quiet) {
    for (const Warning& w : loaded->warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
    if (!model_given) err << model_check_warning(loaded->data->model(), req.model);  // else the caller's
    // The VPD pose (if any) is input motions.size(): name it by its path too.
    err << binding_warning(loaded->data->report(), req.motions);
  }
  return std::move(loaded->data);
}

}  // namespace mmdkit::cli
