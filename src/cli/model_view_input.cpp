// mmdkit CLI — a geometry-free model for skeleton mapping (model_view_input.hpp).
#include "cli/model_view_input.hpp"

#include <vector>

#include "cli/io.hpp"
#include "mmdkit/anim/input_files.hpp"

namespace mmdkit::cli {

std::expected<std::shared_ptr<const model::Model>, int> read_model_view(const std::string& path, bool quiet,
                                                                        std::ostream& err) {
  std::vector<Warning> warnings;
  auto model = anim::read_model_file(path, anim::InputOptions{.encoding = {}, .geometry = false}, warnings);
  if (!quiet)
    for (const Warning& w : warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
  if (!model) return std::unexpected(report_error(err, model.error(), path));
  return std::make_shared<const model::Model>(std::move(*model));
}

}  // namespace mmdkit::cli
