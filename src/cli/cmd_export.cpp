// mmdkit CLI — `export` (cmd_export.hpp): glTF 2.0 of a model and its animation.
#include "cli/cmd_export.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <cmath>
#include <filesystem>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

CLI::App* add_export_command(CLI::App& app, ExportArgs& a) {
  CLI::App* s = app.add_subcommand("export", "write a model (and its motions) as glTF 2.0: .glb or .gltf (docs/GLTF.md)");
  s->add_option("MODEL", a.model, "model file (.pmx or .pmd)")->required();
  s->add_option("MOTION", a.motions, "motion files (.vmd, merged); none = the model alone");
  s->add_option("--camera", a.camera, "VMD whose camera keys become an animated glTF camera");
  s->add_option("-o,--output", a.output, "output .glb (binary) or .gltf (text, buffer embedded)")->required();
  s->add_option("--frames", a.frames, "frame range A-B (30 fps frames, inclusive; default 0 to the last key)");
  s->add_option("--fps", a.fps, "samples per second of the animation: 30 or 60 (default 30)");
  s->add_flag("--physics", a.physics, "bake rigid-body physics into the bones");
  s->add_option("--scale", a.scale, "metres per MMD unit (default 0.08)");
  s->add_option("--reduce", a.reduce, "drop animation samples while the error stays within TOL MMD units / degrees");
  s->add_flag("--unlit", a.unlit, "materials use KHR_materials_unlit");
  s->add_flag("--no-ik", a.no_ik, "switch every IK solver off");
  s->add_flag("--force", a.force, "allow the output to replace an existing file, an input included");
  return s;
}

int run_export(const ExportArgs& a, std::ostream& out, std::ostream& err) {
  const std::string ext = lower_extension(a.output);
  if (is_std_stream(a.output) || (ext != ".glb" && ext != ".gltf")) {
    err << "mmdkit: the output must be a file ending in .glb or .gltf\n";
    return kExitUsage;
  }
  if (!(a.scale > 0) || !std::isfinite(a.scale)) {
    err << "mmdkit: --scale must be a finite number > 0\n";
    return kExitUsage;
  }
  if (a.fps != 30 && a.fps != 60) {
    err << "mmdkit: --fps must be 30 or 60\n";
    return kExitUsage;
  }
  if (!a.motions.empty() || !a.camera.empty() || a.physics || a.reduce != 0 || !a.frames.empty()) {
    err << "mmdkit: animation export (MOTION, --camera, --frames, --physics, --reduce) is not available yet: "
           "it comes with the evaluation pipeline (docs/GLTF.md)\n";
    return kExitUsage;
  }
  auto mdl = model::load_file(a.model);
  if (!mdl) return report_error(err, mdl.error(), a.model);
  exporter::GltfOptions o;
  o.scale = a.scale;
  o.binary = ext == ".glb";
  o.unlit = a.unlit;
  o.texture_folder = fs::path(a.model).has_parent_path() ? fs::path(a.model).parent_path() : fs::path(".");
  auto r = exporter::write_gltf(*mdl, nullptr, o);
  if (!r) return report_error(err, r.error(), a.model);
  for (const std::string& w : r->warnings) err << "mmdkit: warning: " << a.model << ": " << w << "\n";
  std::vector<fs::path> inputs{fs::path(a.model)};
  if (auto w = write_output(a.output, ByteSpan(r->bytes.data(), r->bytes.size()), inputs, a.force, out); !w)
    return report_error(err, w.error(), a.output);
  return kExitOk;
}

}  // namespace mmdkit::cli
