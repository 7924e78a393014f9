// mmdkit CLI — `pmm extract` (cmd_pmm.hpp).
#include "cli/cmd_pmm.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <memory>

#include "cli/app.hpp"
#include "cli/progress.hpp"
#include "cli/project_input.hpp"

namespace mmdkit::cli {

namespace {

struct PmmArgs {
  std::string project;
  std::string output;
  std::vector<std::string> search_dirs;
  bool strict = false;
  bool force = false;
  bool quiet = false;
  CLI::App* extract = nullptr;
};

int run(const PmmArgs& a, const Streams& s) {
  if (!a.extract || !a.extract->parsed()) return usage_error(s.err, "pmm", "an operation is required (extract)");
  auto lp = load_project(a.project, a.search_dirs, a.strict, a.quiet, s.err);
  if (!lp) return lp.error();
  const std::vector<std::filesystem::path> inputs{std::filesystem::path(a.project)};
  auto files = extract_project(*lp, a.output, inputs, a.force, s.err);
  if (!files) return files.error();
  const scene::Project& p = lp->project;
  std::size_t bone_keys = 0, morph_keys = 0;
  for (const scene::ProjectModel& m : p.models) {
    bone_keys += m.motion.bone_keys.size();
    morph_keys += m.motion.morph_keys.size();
  }
  summary(s.err, a.quiet, "pmm extract",
          "wrote " + files->scene.string() + " and " + std::to_string(files->files.size() - 1) + " files (" +
              std::to_string(p.scene.models.size()) + " of " + std::to_string(p.models.size()) + " models, " +
              std::to_string(p.scene.accessories.size()) + " of " + std::to_string(p.accessories.size()) +
              " accessories found; " + std::to_string(bone_keys) + " bone keys, " + std::to_string(morph_keys) +
              " morph keys, " + std::to_string(p.camera.camera_keys.size()) + " camera keys)");
  return kExitOk;
}

}  // namespace

const Command kPmmCommand{
    "pmm", "MMD projects (.pmm) as scenes: extract the models' motions, the camera and scene.json",
    [](CLI::App& sub) -> Runner {
      auto a = std::make_shared<PmmArgs>();
      sub.require_subcommand(1);
      CLI::App* e = sub.add_subcommand(
          "extract", "write one VMD per model, camera.vmd, a .vac per .x accessory and scene.json (render --scene)");
      a->extract = e;
      e->add_option("PROJECT", a->project, "the project (.pmm, or its mmdkit JSON)")->required();
      e->add_option("-o,--output", a->output, "output folder (made if missing)")->required();
      e->add_option("--search-dir", a->search_dirs,
                    "folder to look for the project's models, accessories and audio in (repeatable; after the "
                    "project's folder)");
      e->add_flag("--strict", a->strict, "a file not found is an error (default: a warning, the item left out)");
      add_force_flag(*e, a->force);
      e->add_flag("-q,--quiet", a->quiet, "do not print warnings or the summary line (errors only)");
      return [a](const Streams& s) { return run(*a, s); };
    }};

}  // namespace mmdkit::cli
