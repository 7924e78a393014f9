// mmdkit CLI — an MMD project (.pmm) as a scene: `pmm extract` writes its motions, camera,
// accessory settings and scene.json to a folder; `render project.pmm` extracts to a temporary
// folder (always removed) and renders that scene (docs/PMM.md). The conversion is the library's
// (scene/project.hpp).
#pragma once

#include <expected>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/scene/project.hpp"

namespace CLI {
class App;
}

namespace mmdkit::cli {

/// A project read and converted.
struct LoadedProject {
  std::filesystem::path path;  ///< the .pmm
  pmm::Document document;
  scene::Project project;
};

/// Reads `path` (a .pmm) and converts it with the project's folder and `search_dirs`; prints the
/// reader's and the conversion's warnings unless `quiet` (the files not found: one warning each,
/// naming every place tried). Errors are printed; returns the exit code (1).
std::expected<LoadedProject, int> load_project(const std::filesystem::path& path,
                                               const std::vector<std::string>& search_dirs, bool strict, bool quiet,
                                               std::ostream& err);

/// A project's scene needs a model: 0 when it has one, else the error printed ("no model of the
/// project was found ...") and 1.
int require_project_model(const LoadedProject& p, std::ostream& err);

/// What extract_project wrote.
struct ExtractedFiles {
  std::filesystem::path scene;                     ///< DIR/scene.json
  std::vector<std::filesystem::path> files;        ///< every file written, scene.json last
};

/// Writes into `dir` (made if missing): one VMD per model (named after the model, characters a file
/// name cannot hold replaced by '_', a repeated name numbered), camera.vmd (camera, light and
/// self-shadow keys), a .vac per accessory whose file is a .x (named after the accessory; the
/// scene names the .x itself, as a .vac can only name a .x in its own folder), and scene.json
/// (docs/SCENE.md: models and accessories by absolute path, motions and camera relative to
/// `dir`). Outputs through the atomic writer; the --force rule for existing files (`inputs` are
/// protected). Errors printed; returns the exit code.
std::expected<ExtractedFiles, int> extract_project(const LoadedProject& p, const std::filesystem::path& dir,
                                                   const std::vector<std::filesystem::path>& inputs, bool force,
                                                   std::ostream& err);

/// A new empty folder in the system's temporary folder, removed with its contents when the process
/// ends normally (not after a signal). Errors printed; returns the exit code.
std::expected<std::filesystem::path, int> temporary_folder(std::ostream& err);

/// True when the file's content is a PMM project (detected by content, as every input).
bool is_project_file(const std::string& path);

}  // namespace mmdkit::cli
