// mmdkit CLI — `pmm extract`, `pmm create` (cmd_pmm.hpp).
#include "cli/cmd_pmm.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "cli/project_input.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/scene/project_create.hpp"

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
  // create
  CLI::App* create = nullptr;
  std::vector<std::string> inputs;  // MODEL MOTION...
  std::string scene_file, camera, audio, size, range;
  std::vector<std::string> stages, accessories;
};

std::string lower_ext(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}

int run_create(const PmmArgs& a, const Streams& s) {
  const bool short_form = !a.inputs.empty() || !a.camera.empty() || !a.stages.empty() || !a.accessories.empty() ||
                          !a.audio.empty();
  if (a.scene_file.empty() && a.inputs.empty())
    return usage_error(s.err, "pmm create", "give either --scene SCENE.json or MODEL [MOTION...] (with --camera, --stage, ...)");
  // .pmm, or .json for the project's lossless JSON (as `convert`); anything else is refused.
  if (std::string p = output_extension_problem(a.output, kPmmOutput); !p.empty()) return usage_error(s.err, "pmm create", p);
  if (!a.scene_file.empty() && short_form)
    return usage_error(s.err, "pmm create", "--scene cannot be combined with MODEL, MOTION, --camera, --stage, --accessory or --audio");
  std::int32_t width = 1280, height = 720;
  if (!a.size.empty()) {
    char x = 0, extra = 0;
    if (std::sscanf(a.size.c_str(), "%d%c%d%c", &width, &x, &height, &extra) != 3 || (x != 'x' && x != 'X') ||
        width <= 0 || height <= 0 || width > 16384 || height > 16384)
      return usage_error(s.err, "pmm create", "--size must be WIDTHxHEIGHT (1..16384 each), e.g. 1280x720");
  }
  std::optional<std::int32_t> first, last;
  if (!a.range.empty()) {
    int f = 0, l = 0;
    char dash = 0, extra = 0;
    if (std::sscanf(a.range.c_str(), "%d%c%d%c", &f, &dash, &l, &extra) != 3 || dash != '-' || f < 0 || l < f)
      return usage_error(s.err, "pmm create", "--play-range must be FIRST-LAST frames, e.g. 0-600");
    first = f;
    last = l;
  }
  std::vector<std::filesystem::path> input_paths;
  for (const std::string& i : a.inputs) input_paths.emplace_back(i);
  if (!a.scene_file.empty()) input_paths.emplace_back(a.scene_file);
  if (auto r = check_output(a.output, input_paths, a.force); !r) return report_error(s.err, r.error(), a.output);
  const std::filesystem::path folder = std::filesystem::absolute(a.output).parent_path();
  std::vector<Warning> warnings;
  scene::CreateInput in;
  if (!a.scene_file.empty()) {
    auto sc = scene::read_scene_file(a.scene_file);
    if (!sc) return report_error(s.err, sc.error(), a.scene_file);
    auto ci = scene::create_input_from_scene(*sc, folder, warnings);
    if (!ci) return report_error(s.err, ci.error(), a.scene_file);
    in = std::move(*ci);
  } else {
    in.project_folder = folder;
    scene::CreateModel dancer;
    dancer.file = a.inputs.front();
    for (std::size_t i = 1; i < a.inputs.size(); ++i) {
      auto m = scene::read_project_motion(a.inputs[i], warnings);
      if (!m) return report_error(s.err, m.error(), a.inputs[i]);
      dancer.motions.push_back(std::move(*m));
    }
    in.models.push_back(std::move(dancer));
    for (const std::string& st : a.stages) {
      if (lower_ext(st) == ".x") {
        scene::CreateAccessory acc;
        acc.file = st;
        acc.placement_given = true;
        in.accessories.push_back(std::move(acc));
      } else {
        in.models.push_back(scene::CreateModel{st, {}});
      }
    }
    for (const std::string& spec : a.accessories) {
      // FILE or FILE@BONE (a bone of the dancer), as render's short form.
      scene::CreateAccessory acc;
      const std::size_t at = spec.rfind('@');
      if (at == 0 || at + 1 == spec.size())
        return usage_error(s.err, "pmm create", "--accessory '" + spec + "': use FILE or FILE@BONE");
      acc.file = spec.substr(0, at);
      if (at != std::string::npos) {
        acc.model = 0;
        acc.bone = spec.substr(at + 1);
      }
      in.accessories.push_back(std::move(acc));
    }
    if (!a.camera.empty()) {
      auto m = scene::read_project_motion(a.camera, warnings);
      if (!m) return report_error(s.err, m.error(), a.camera);
      in.camera = std::move(*m);
    }
    in.audio = a.audio;
  }
  if (a.scene_file.empty() || !a.size.empty()) {  // else the scene's view size, or the default
    in.width = width;
    in.height = height;
  }
  in.first_frame = first;
  in.last_frame = last;
  auto doc = scene::create_project(in, warnings);
  if (!doc) return report_error(s.err, doc.error(), doc.error().file.empty() ? a.output : doc.error().file);
  std::vector<std::uint8_t> out;
  if (lower_extension(a.output) == ".json") {
    const std::string text = pmm::to_json(*doc);
    out.assign(text.begin(), text.end());
  } else {
    auto bytes = pmm::write(*doc);
    if (!bytes) return report_error(s.err, bytes.error(), a.output);
    out = std::move(*bytes);
  }
  if (!a.quiet) print_warnings(s.err, warnings);
  if (auto r = write_output(a.output, ByteSpan(out.data(), out.size()), input_paths, a.force, s.out); !r)
    return report_error(s.err, r.error(), a.output);
  // Counted as `mmdkit info` counts them: the keys after each track's initial (frame-0) key.
  std::size_t bone_keys = 0, morph_keys = 0;
  for (const pmm::Model& m : doc->models) {
    bone_keys += m.bone_keys.size();
    morph_keys += m.morph_keys.size();
  }
  auto count = [](std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  summary(s.err, a.quiet, "pmm create",
          "wrote " + a.output + " (" + count(doc->models.size(), "model", "models") + ", " +
              count(doc->accessories.size(), "accessory", "accessories") + "; after the initial keys: " +
              count(bone_keys, "bone key", "bone keys") + ", " + count(morph_keys, "morph key", "morph keys") + ", " +
              count(doc->camera.keys.size(), "camera key", "camera keys") + ")");
  return kExitOk;
}

int run(const PmmArgs& a, const Streams& s) {
  if (a.create && a.create->parsed()) return run_create(a, s);
  if (!a.extract || !a.extract->parsed()) return usage_error(s.err, "pmm", "an operation is required (extract, create)");
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
    "pmm", "MMD projects (.pmm) as scenes: extract the models' motions, the camera and scene.json; create a project",
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
      CLI::App* c = sub.add_subcommand(
          "create", "write a version-2 project MMD opens from a scene file or a model, its motions, camera, "
                    "stages, accessories and audio");
      a->create = c;
      c->add_option("INPUTS", a->inputs, "the dancer (PMX / PMD) then its VMD motions (merged)");
      c->add_option("--scene", a->scene_file, "a scene file (docs/SCENE.md) instead of MODEL MOTION...");
      c->add_option("--camera", a->camera, "VMD with the camera (and light, self-shadow) keys");
      c->add_option("--stage", a->stages, "a stage: PMX / PMD (a model without motion) or .x (repeatable)");
      c->add_option("--accessory", a->accessories,
                    "FILE[@BONE]: .x at the world origin or on BONE of the dancer; .vac with its placement, on the "
                    "dancer's bone it names (@BONE replaces it) (repeatable)");
      c->add_option("--audio", a->audio, "a .wav the project plays");
      c->add_option("--size", a->size, "output size WIDTHxHEIGHT (default 1280x720, as MMD 9.26's new project)");
      c->add_option("--play-range", a->range, "play range FIRST-LAST frames (default: off)");
      c->add_option("-o,--output", a->output, "the project: .pmm, or .json for its lossless JSON (`convert` turns it into the .pmm); another extension is refused")->required();
      add_force_flag(*c, a->force);
      c->add_flag("-q,--quiet", a->quiet, "do not print warnings or the summary line (errors only)");
      return [a](const Streams& s) { return run(*a, s); };
    }};

}  // namespace mmdkit::cli
