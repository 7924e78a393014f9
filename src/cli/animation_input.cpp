// mmdkit CLI — model and motions for `sample` and `pose` (animation_input.hpp).
#include "cli/animation_input.hpp"

#include <filesystem>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/model/check.hpp"

namespace mmdkit::cli {

std::string binding_warning(const anim::BindingReport& report, const std::vector<std::string>& inputs,
                            std::size_t names) {
  std::string out;
  for (const std::string& line : anim::unmatched_messages(report, inputs, names))
    out += diagnostic_line(Diagnostic::warning, line);
  return out;
}

std::string model_check_warning(const model::Model& m, const std::string& path) {
  std::size_t errors = model::count(m.findings, model::Severity::error);
  errors += model::count(model::check_view(m), model::Severity::error);
  if (errors == 0) return {};
  return diagnostic_line(Diagnostic::warning,
                         path + ": the model fails 'mmdkit check' with " + std::to_string(errors) +
                             (errors == 1 ? " error" : " errors") +
                             " (repaired or ignored here; MMD may show it differently; run 'mmdkit check " + path +
                             "' for the list)");
}

std::string motions_keying_nothing(const std::vector<std::string>& motions, const std::string& model) {
  // "FILE: the motion keys ..." as every message about one file; several: the paths quoted.
  std::string what = motions.empty() ? std::string() : motions.front() + ": the motion keys";
  if (motions.size() > 1) {
    what = "the motions ";
    for (std::size_t i = 0; i < motions.size(); ++i) what += (i ? ", '" : "'") + motions[i] + "'";
    what += " key";
  }
  return what + " no bone or morph of the model '" + model + "'";
}

int refuse_motions_keying_nothing(const AnimationRequest& req, const anim::CharacterData& data, bool camera_used,
                                  std::string_view camera_hint, std::string_view warning_tail, std::ostream& err) {
  const anim::BindingReport& rep = data.report();
  if (req.motions.empty() || rep.keyed_bones != 0 || rep.keyed_morphs != 0) return kExitOk;
  std::string what = motions_keying_nothing(req.motions, req.model);
  const bool camera_keys = !data.camera_track().empty();
  if (camera_used && camera_keys) {
    if (!req.quiet) err << diagnostic_line(Diagnostic::warning, what + ": " + std::string(warning_tail));
    return kExitOk;
  }
  what += ": every frame would be the rest pose";
  if (camera_keys && !camera_hint.empty()) what += " (" + std::string(camera_hint) + ")";
  err << diagnostic_line(Diagnostic::error, what);
  return kExitBadInput;
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
    err << diagnostic_line(Diagnostic::error, e.to_string());
    return std::unexpected(e.code == ErrorCode::invalid_argument ? kExitUsage : kExitBadInput);
  }
  if (!req.quiet) {
    print_warnings(err, loaded->warnings);
    if (!model_given) err << model_check_warning(loaded->data->model(), req.model);  // else the caller's
    // The VPD pose (if any) is input motions.size(): name it by its path too.
    err << binding_warning(loaded->data->report(), req.motions);
  }
  return std::move(loaded->data);
}

}  // namespace mmdkit::cli
